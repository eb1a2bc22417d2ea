#include "host/topswops/lockstep_engine.hpp"

#include <atomic>
#include <bit>
#include <chrono>
#include <exception>
#include <limits>

#include "host/topswops/game_sink.hpp"

namespace piles::topswops {

std::uint64_t LaneUse::warp_instructions(const UnitCosts& c) const {
  std::uint64_t sum = refill_passes * c.refill + voted_passes * c.vote;
  for (int u = 0; u < lockstep::unit_kinds; ++u) sum += unit_passes[u] * c.unit[u];
  return sum;
}

std::uint64_t LaneUse::lane_instructions(const UnitCosts& c) const {
  std::uint64_t sum = lanes_wanting * c.refill;
  for (int u = 0; u < lockstep::unit_kinds; ++u) sum += units[u] * c.unit[u];
  return sum;
}

void LaneUse::add(const LaneUse& other) {
  launches += other.launches;
  passes += other.passes;
  nodes += other.nodes;
  for (int u = 0; u < lockstep::unit_kinds; ++u) {
    units[u] += other.units[u];
    unit_passes[u] += other.unit_passes[u];
  }
  voted_passes += other.voted_passes;
  refill_passes += other.refill_passes;
  lanes_wanting += other.lanes_wanting;
  refills += other.refills;
}

namespace {

using lockstep::Lane;
using lockstep::Parked;
using lockstep::Seed;

constexpr int warp_lanes = 32;

// The chunks of one call, each its partial; a lane's chunk id picks its slot.
struct Results {
  std::vector<int> slot_of;  // by chunk id, -1 for chunks not in this call
  std::vector<Partial> partials;

  Results(const Plan& plan, const std::vector<int>& chunks)
      : slot_of(plan.chunk_count, -1), partials(chunks.size()) {
    for (std::size_t s = 0; s < chunks.size(); ++s) {
      slot_of[chunks[s]] = static_cast<int>(s);
      partials[s].nodes.assign(plan.n, 0);
    }
  }
  Partial& of(std::uint32_t chunk) { return partials[slot_of[chunk]]; }
};

// The sink of one warp: its own results, merged into the call's after the launch.
template <int W>
struct WarpSink {
  int n;
  Results& results;
  std::uint64_t& nodes;

  void node(std::uint32_t chunk, int level) {
    ++results.of(chunk).nodes[level];
    ++nodes;
  }
  void game(std::uint32_t chunk, int steps, const Deck<W>& start, const Deck<W>& final_deck) {
    GameSink<W>{n, results.of(chunk)}.leaf(steps, start, final_deck);
  }
};

// The work of one launch: the lanes parked by the launch before it, then the seeds not taken
// yet, numbered in that order; lanes take them from one counter, as the kernel's warps do.
template <int W>
struct Items {
  const std::vector<Parked<W>>& parked;
  const std::vector<Seed<W>>& seeds;
  std::size_t first_seed;
  std::atomic<std::size_t> next{0};

  std::size_t size() const { return parked.size() + seeds.size() - first_seed; }
};

struct Launch {
  const Problem& problem;
  int depth, target;
  const LockstepOptions& options;
};

// The lanes a pass steps (see Schedule).
template <int W>
std::uint32_t lanes_to_step(const Lane<W>* lanes, Schedule schedule) {
  std::uint32_t wanting[lockstep::unit_kinds] = {};
  for (int i = 0; i < warp_lanes; ++i)
    if (lanes[i].next < lockstep::idle) wanting[lockstep::vote_kind(lanes[i].next)] |= 1u << i;
  if (schedule == Schedule::by_unit) {
    unsigned best = 0;
    for (int u = 0; u < lockstep::unit_kinds; ++u)
      if (wanting[u]) best = std::max(best, lockstep::vote_key(std::popcount(wanting[u]), u));
    return wanting[lockstep::voted_unit(best)];
  }
  const std::uint32_t playing = wanting[lockstep::flip] | wanting[lockstep::block];
  if (schedule == Schedule::per_thread && playing) return playing;
  std::uint32_t working = 0;
  for (std::uint32_t w : wanting) working |= w;
  return working;
}

// One warp for up to the launch's budget of passes; its open lanes go to `parked`.
template <bool Sorted, int W>
void run_warp(const Launch& launch, Items<W>& items, Results& results, LaneUse& use,
              std::vector<Parked<W>>& parked) {
  const Problem& p = launch.problem;
  const Deck<W> sorted = sorted_deck<W>(p.n);
  WarpSink<W> sink{p.n, results, use.nodes};
  Lane<W> lanes[warp_lanes];
  SavedFrame<W> stacks[warp_lanes][max_n];
  for (Lane<W>& lane : lanes) lane.next = lockstep::idle;
  const std::uint64_t budget = launch.options.pass_budget
                                   ? launch.options.pass_budget
                                   : std::numeric_limits<std::uint64_t>::max();
  for (std::uint64_t pass = 0; pass < budget; ++pass) {
    std::uint32_t wants = 0;
    for (int i = 0; i < warp_lanes; ++i)
      wants |= static_cast<std::uint32_t>(lanes[i].next == lockstep::idle) << i;
    if (wants) {
      // One counter step for the warp, then each wanting lane its own item, in lane order.
      std::size_t item = items.next.fetch_add(std::popcount(wants));
      ++use.refill_passes;
      for (int i = 0; i < warp_lanes; ++i, wants >>= 1) {
        if (!(wants & 1)) continue;
        Lane<W>& lane = lanes[i];
        ++use.lanes_wanting;
        if (item >= items.size()) {
          lane.next = lockstep::done;
        } else if (item < items.parked.size()) {
          lockstep::unpark(lane, stacks[i], items.parked[item++]);
          ++use.refills;
        } else {
          const Seed<W>& seed = items.seeds[items.first_seed + item++ - items.parked.size()];
          lockstep::load(lane, seed, launch.depth, launch.target, p);
          ++use.refills;
        }
      }
    }
    const std::uint32_t stepping = lanes_to_step(lanes, launch.options.schedule);
    bool all_done = true;
    for (const Lane<W>& lane : lanes) all_done = all_done && lane.next == lockstep::done;
    if (all_done) break;
    ++use.passes;
    if (launch.options.schedule == Schedule::by_unit) ++use.voted_passes;
    std::uint32_t kinds = 0;
    for (int i = 0; i < warp_lanes; ++i) {
      if (!(stepping >> i & 1)) continue;
      const int unit = lanes[i].next;
      kinds |= 1u << unit;
      ++use.units[unit];
      if (unit == lockstep::choose) {  // and its first flip, in the same step
        kinds |= 1u << lockstep::flip;
        ++use.units[lockstep::flip];
      }
      lockstep::step<Sorted>(lanes[i], stacks[i], p, sorted, sink);
    }
    for (int u = 0; u < lockstep::unit_kinds; ++u) use.unit_passes[u] += kinds >> u & 1;
  }
  for (int i = 0; i < warp_lanes; ++i) {
    if (lanes[i].next >= lockstep::idle) continue;
    lockstep::park(parked.emplace_back(), lanes[i], stacks[i]);
  }
}

template <int W>
void run(const Plan& plan, const std::vector<int>& chunks, int target,
         const LockstepOptions& options, Results& results, LaneUse& use) {
  const std::vector<std::int32_t> table = plan.bounds_at(target);
  const Problem problem = plan.problem(table);
  std::vector<Seed<W>> seeds;
  for (int chunk : chunks)
    for (std::size_t i = plan.chunk_begin(chunk); i < plan.chunk_begin(chunk + 1); ++i)
      seeds.push_back(lockstep::seed_of<W>(problem, plan.choices.data() + i * plan.depth,
                                           plan.depth, static_cast<std::uint32_t>(chunk)));
  const Launch launch{problem, plan.depth, target, options};
  const int warps = std::max(options.warps, 1);
  std::vector<Parked<W>> parked;
  std::size_t first_seed = 0;
  while (!parked.empty() || first_seed < seeds.size()) {
    Items<W> items{parked, seeds, first_seed};
    std::vector<std::vector<Parked<W>>> parked_by_warp(warps);
    std::vector<Results> results_by_warp(warps, Results(plan, chunks));
    std::vector<LaneUse> use_by_warp(warps);
    std::exception_ptr failure;
#pragma omp parallel for schedule(static, 1) num_threads(std::max(options.threads, 1))
    for (int w = 0; w < warps; ++w) {
      try {
        if (problem.sorted)
          run_warp<true>(launch, items, results_by_warp[w], use_by_warp[w], parked_by_warp[w]);
        else
          run_warp<false>(launch, items, results_by_warp[w], use_by_warp[w], parked_by_warp[w]);
      } catch (...) {
#pragma omp critical
        if (!failure) failure = std::current_exception();
      }
    }
    if (failure) std::rethrow_exception(failure);
    const std::size_t taken = std::min(items.next.load(), items.size());
    first_seed += taken > parked.size() ? taken - parked.size() : 0;
    parked.clear();
    for (int w = 0; w < warps; ++w) {
      parked.insert(parked.end(), parked_by_warp[w].begin(), parked_by_warp[w].end());
      for (std::size_t s = 0; s < chunks.size(); ++s)
        results.partials[s].merge(results_by_warp[w].partials[s]);
      use.add(use_by_warp[w]);
    }
    ++use.launches;
  }
}

}  // namespace

void run_chunks_lockstep(const Plan& plan, const std::vector<int>& chunks, int target,
                         const LockstepOptions& options, const ChunkDone& done, LaneUse* use) {
  const auto start = std::chrono::steady_clock::now();
  Results results(plan, chunks);
  LaneUse mine;
  if (words_for(plan.n) == 2)
    run<2>(plan, chunks, target, options, results, mine);
  else
    run<3>(plan, chunks, target, options, results, mine);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::size_t prefixes = 0;
  for (int chunk : chunks) prefixes += plan.chunk_prefixes(chunk);
  // The chunks ran together: each is charged its share of the prefixes.
  for (std::size_t s = 0; s < chunks.size(); ++s)
    done(chunks[s], results.partials[s],
         prefixes ? seconds * plan.chunk_prefixes(chunks[s]) / prefixes : 0.0);
  if (use) use->add(mine);
}

}  // namespace piles::topswops
