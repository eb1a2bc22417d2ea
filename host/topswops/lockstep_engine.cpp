#include "host/topswops/lockstep_engine.hpp"

#include <atomic>
#include <bit>
#include <chrono>
#include <exception>
#include <limits>

#include <omp.h>

#include "host/topswops/game_sink.hpp"

namespace piles::topswops {

std::array<std::uint64_t, model_parts.size()> LaneUse::by_part(const UnitCosts& c) const {
  std::array<std::uint64_t, model_parts.size()> sum{};
  for (int u = 0; u < lockstep::unit_kinds; ++u) sum[u] = unit_passes[u] * c.unit[u];
  sum[5] = refill_passes * c.refill;
  sum[6] = voted_passes * c.vote;
  // Every unit but the flip (and the choice before it) is reached through a jump table, or in
  // the lean kernel a chain of branches that a pass walks once for all its lanes.
  sum[7] = dispatched_passes * c.dispatch;
  sum[8] = flip_again_rounds * c.flip_again;
  sum[9] = passes * c.pass;
  sum[10] = warp_runs * c.warp;
  sum[11] = stack_passes * c.stack;
  return sum;
}

std::uint64_t LaneUse::warp_instructions(const UnitCosts& c) const {
  std::uint64_t total = 0;
  for (std::uint64_t part : by_part(c)) total += part;
  return total;
}

std::array<double, model_parts.size()> LaneUse::per_node_by_part() const {
  std::array<double, model_parts.size()> out{};
  const auto sum = by_part(costs());
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = nodes ? static_cast<double>(sum[i]) / static_cast<double>(nodes) : 0;
  return out;
}

std::uint64_t LaneUse::lane_instructions(const UnitCosts& c) const {
  std::uint64_t sum = 32 * (warp_runs * c.warp + passes * c.pass + voted_passes * c.vote) +
                      lanes_wanting * c.refill;
  for (int u = 0; u < lockstep::unit_kinds; ++u) sum += units[u] * c.unit[u];
  return sum + (units[lockstep::land] + units[lockstep::ret]) * c.stack;
}

void LaneUse::add(const LaneUse& other) {
  launches += other.launches;
  warp_runs += other.warp_runs;
  flip_again_rounds += other.flip_again_rounds;
  passes += other.passes;
  nodes += other.nodes;
  for (int u = 0; u < lockstep::unit_kinds; ++u) {
    units[u] += other.units[u];
    unit_passes[u] += other.unit_passes[u];
  }
  voted_passes += other.voted_passes;
  dispatched_passes += other.dispatched_passes;
  stack_passes += other.stack_passes;
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

// The lanes a pass steps (see Schedule); the lean kernel votes returns with landings.
template <int W>
std::uint32_t lanes_to_step(const Lane<W>* lanes, Schedule schedule, bool lean) {
  std::uint32_t wanting[lockstep::unit_kinds] = {};
  for (int i = 0; i < warp_lanes; ++i) {
    const int next = lanes[i].next;
    if (next < lockstep::idle)
      wanting[lean ? lockstep::lean_vote_kind(next) : lockstep::vote_kind(next)] |= 1u << i;
  }
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

// One warp of a launch: its lanes and their stacks, and the passes it has run.
template <int W>
struct Warp {
  Lane<W> lanes[warp_lanes];
  SavedFrame<W> stacks[warp_lanes][max_n];
  std::uint64_t passes = 0;
  bool finished = false;  // its lanes all done, or its budget spent

  Warp() {
    for (Lane<W>& lane : lanes) lane.next = lockstep::idle;
  }
};

// The lanes of `lanes` whose next unit `wants`.
template <int W, class Wants>
std::uint32_t lanes_wanting(const Lane<W>* lanes, Wants wants) {
  std::uint32_t out = 0;
  for (int i = 0; i < warp_lanes; ++i) out |= static_cast<std::uint32_t>(wants(lanes[i].next)) << i;
  return out;
}

// One pass of the staged kernel (kernels/topswops_lockstep.cu, the same stages in the same
// order), stage by stage over the warp's lanes; each stage that some lane runs is counted once.
template <bool Sorted, int W, class Sink, class Flips>
void staged_pass(Lane<W>* lanes, SavedFrame<W> (*stacks)[max_n], const Problem& p,
                 const Deck<W>& sorted, Sink& sink, const Flips& flips, LaneUse& use) {
  const auto count = [&](std::uint32_t stepping, int unit) {
    use.units[unit] += std::popcount(stepping);
    use.unit_passes[unit] += stepping != 0;
  };
  for (int round = 0; round < lockstep::stack_rounds; ++round) {
    const std::uint32_t landing = lanes_wanting(lanes, [](int u) { return u == lockstep::land; });
    const std::uint32_t returning = lanes_wanting(lanes, [](int u) { return u == lockstep::ret; });
    count(landing, lockstep::land);
    count(returning, lockstep::ret);
    use.stack_passes += (landing | returning) != 0;
    for (int i = 0; i < warp_lanes; ++i)
      if ((landing | returning) >> i & 1)
        lockstep::stack_unit<Sorted>(lanes[i], stacks[i], p, sorted, sink);
  }
  const std::uint32_t choosing = lanes_wanting(lanes, [](int u) { return u == lockstep::choose; });
  const std::uint32_t flipping = lanes_wanting(lanes, [](int u) { return u <= lockstep::flip; });
  count(choosing, lockstep::choose);
  count(flipping, lockstep::flip);
  for (int i = 0; i < warp_lanes; ++i) {
    if (!(flipping >> i & 1)) continue;
    if (choosing >> i & 1) lockstep::choose_unit(lanes[i]);
    lockstep::flip_unit<true>(lanes[i], flips);
  }
  for (int round = 1; round < lockstep::flip_rounds; ++round) {
    const std::uint32_t more = lanes_wanting(lanes, [](int u) { return u == lockstep::flip; });
    use.units[lockstep::flip] += std::popcount(more);
    use.flip_again_rounds += more != 0;
    for (int i = 0; i < warp_lanes; ++i)
      if (more >> i & 1) lockstep::flip_unit<true>(lanes[i], flips);
  }
  const std::uint32_t blocking = lanes_wanting(lanes, [](int u) { return u == lockstep::block; });
  count(blocking, lockstep::block);
  for (int i = 0; i < warp_lanes; ++i)
    if (blocking >> i & 1) lockstep::block_unit<Sorted, true>(lanes[i], p, sorted);
}

// One warp's turn: up to `turn` passes (0: to the end of its budget), its events counted in
// `use`, its nodes and games in `results`.
template <bool Sorted, int W>
void run_warp(const Launch& launch, Items<W>& items, Warp<W>& warp, std::uint64_t turn,
              Results& results, LaneUse& use) {
  const Problem& p = launch.problem;
  const Deck<W> sorted = sorted_deck<W>(p.n);
  WarpSink<W> sink{p.n, results, use.nodes};
  Lane<W>* lanes = warp.lanes;
  const bool lean = launch.options.kernel == LockstepKernel::lean;
  const bool staged = runs_staged(launch.options.kernel);
  // The lean kernel's flips, byte permutes as on the GPU.
  static constexpr lockstep::FlipTable flips = lockstep::flip_table();
  const std::uint64_t budget = launch.options.pass_budget
                                   ? launch.options.pass_budget
                                   : std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t end = turn && budget - warp.passes > turn ? warp.passes + turn : budget;
  for (; warp.passes < end; ++warp.passes) {
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
          lockstep::unpark(lane, warp.stacks[i], items.parked[item++]);
          ++use.refills;
        } else {
          const Seed<W>& seed = items.seeds[items.first_seed + item++ - items.parked.size()];
          lockstep::load(lane, seed, launch.depth, launch.target, p);
          ++use.refills;
        }
      }
    }
    bool all_done = true;
    for (int i = 0; i < warp_lanes; ++i) all_done = all_done && lanes[i].next == lockstep::done;
    if (all_done) {
      warp.finished = true;
      return;
    }
    ++use.passes;
    if (staged) {
      staged_pass<Sorted>(lanes, warp.stacks, p, sorted, sink, flips.by_k, use);
      continue;
    }
    const std::uint32_t stepping = lanes_to_step(lanes, launch.options.schedule, lean);
    if (launch.options.schedule == Schedule::by_unit) ++use.voted_passes;
    std::uint32_t kinds = 0;
    bool flipped_again = false;
    for (int i = 0; i < warp_lanes; ++i) {
      if (!(stepping >> i & 1)) continue;
      const int unit = lanes[i].next;
      kinds |= 1u << unit;
      ++use.units[unit];
      if (unit == lockstep::choose) {  // and its first flip, in the same step
        kinds |= 1u << lockstep::flip;
        ++use.units[lockstep::flip];
      }
      if (lean)
        lockstep::step_by_branches<Sorted>(lanes[i], warp.stacks[i], p, sorted, sink, flips.by_k);
      else
        lockstep::step<Sorted>(lanes[i], warp.stacks[i], p, sorted, sink);
      // The lean kernel's flip pass: a lane still flipping flips once more.
      if (lean && lockstep::vote_kind(unit) == lockstep::flip && lanes[i].next == lockstep::flip) {
        lockstep::flip_unit<true>(lanes[i], flips.by_k);
        ++use.units[lockstep::flip];
        flipped_again = true;
      }
    }
    for (int u = 0; u < lockstep::unit_kinds; ++u) use.unit_passes[u] += kinds >> u & 1;
    use.dispatched_passes +=
        (kinds & (1u << lockstep::block | 1u << lockstep::land | 1u << lockstep::ret)) != 0;
    use.stack_passes += (kinds & (1u << lockstep::land | 1u << lockstep::ret)) != 0;
    use.flip_again_rounds += flipped_again;
  }
  warp.finished = warp.passes == budget;
}

// Hands each chunk of the call to `done` once none of its work is left, between launches and
// when the call is cancelled, so that a slice cut short keeps the chunks it finished. Chunks
// run together: each is charged its share of the prefixes of the seconds so far.
struct Reporter {
  const Plan& plan;
  const std::vector<int>& chunks;
  const Results& results;
  const ChunkDone& done;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::vector<bool> reported = std::vector<bool>(chunks.size(), false);
  std::size_t prefixes = 0;

  Reporter(const Plan& p, const std::vector<int>& c, const Results& r, const ChunkDone& d)
      : plan(p), chunks(c), results(r), done(d) {
    for (int chunk : chunks) prefixes += plan.chunk_prefixes(chunk);
  }
  // `left[s]`: some of chunk slot s's work is still to run.
  void report(const std::vector<bool>& left) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (std::size_t s = 0; s < chunks.size(); ++s) {
      if (reported[s] || left[s]) continue;
      reported[s] = true;
      done(chunks[s], results.partials[s],
           prefixes ? seconds * plan.chunk_prefixes(chunks[s]) / prefixes : 0.0);
    }
  }
};

// The chunk slots with work left: the parked items from `parked_from` on, the seeds from
// `seeds_from` on, and the lanes of `state` still searching.
template <int W>
std::vector<bool> work_left(const Results& results, const std::vector<Parked<W>>& parked,
                            std::size_t parked_from, const std::vector<Seed<W>>& seeds,
                            std::size_t seeds_from, const std::vector<Warp<W>>& state) {
  std::vector<bool> left(results.partials.size(), false);
  for (std::size_t i = parked_from; i < parked.size(); ++i)
    left[results.slot_of[parked[i].lane.chunk]] = true;
  for (std::size_t i = seeds_from; i < seeds.size(); ++i)
    left[results.slot_of[seeds[i].chunk]] = true;
  for (const Warp<W>& warp : state)
    for (const Lane<W>& lane : warp.lanes)
      if (lane.next < lockstep::idle) left[results.slot_of[lane.chunk]] = true;
  return left;
}

template <int W>
void run(const Plan& plan, const std::vector<int>& chunks, int target,
         const LockstepOptions& options, Results& results, LaneUse& use, const Cancel& cancel,
         Reporter& reporter) {
  const std::vector<std::int32_t> table = plan.bounds_at(target);
  const Problem problem = plan.problem(table);
  std::vector<Seed<W>> seeds;
  for (int chunk : chunks)
    for (std::size_t i = plan.chunk_begin(chunk); i < plan.chunk_begin(chunk + 1); ++i)
      seeds.push_back(lockstep::seed_of<W>(problem, plan.choices.data() + i * plan.depth,
                                           plan.depth, static_cast<std::uint32_t>(chunk)));
  const Launch launch{problem, plan.depth, target, options};
  const int threads = std::max(options.threads, 1);
  std::vector<Parked<W>> parked;
  std::size_t first_seed = 0;
  while (!parked.empty() || first_seed < seeds.size()) {
    Items<W> items{parked, seeds, first_seed};
    // As the GPU's grid: no more warps than the items fill.
    const int warps = static_cast<int>(std::min<std::size_t>(
        std::max(options.warps, 1), (items.size() + warp_lanes - 1) / warp_lanes));
    std::vector<Warp<W>> state(warps);
    std::vector<Results> results_by_thread(threads, Results(plan, chunks));
    std::vector<LaneUse> use_by_thread(threads);
    std::exception_ptr failure;
    const auto merge_threads = [&] {
      for (int t = 0; t < threads; ++t) {
        for (std::size_t s = 0; s < chunks.size(); ++s)
          results.partials[s].merge(results_by_thread[t].partials[s]);
        use.add(use_by_thread[t]);
      }
    };
    // Every warp takes its turn of passes, round after round, until all are finished.
    for (bool open = true; open && !failure;) {
      if (cancelled(cancel)) {
        // Between turns every lane stands at a unit's end: the chunks none of them holds, and
        // of whose items none is left, are finished.
        merge_threads();
        const std::size_t taken = std::min(items.next.load(), items.size());
        reporter.report(work_left(results, parked, taken, seeds,
                                  first_seed + (taken > parked.size() ? taken - parked.size() : 0),
                                  state));
        throw Cancelled();
      }
      open = false;
#pragma omp parallel for schedule(static, 1) num_threads(threads) reduction(|| : open)
      for (int w = 0; w < warps; ++w) {
        if (state[w].finished) continue;
        try {
          const int t = omp_get_thread_num();
          if (problem.sorted)
            run_warp<true>(launch, items, state[w], options.turn, results_by_thread[t],
                           use_by_thread[t]);
          else
            run_warp<false>(launch, items, state[w], options.turn, results_by_thread[t],
                            use_by_thread[t]);
          open = open || !state[w].finished;
        } catch (...) {
#pragma omp critical
          if (!failure) failure = std::current_exception();
        }
      }
    }
    if (failure) std::rethrow_exception(failure);
    const std::size_t taken = std::min(items.next.load(), items.size());
    first_seed += taken > parked.size() ? taken - parked.size() : 0;
    parked.clear();
    for (Warp<W>& warp : state)
      for (int i = 0; i < warp_lanes; ++i)
        if (warp.lanes[i].next < lockstep::idle)
          lockstep::park(parked.emplace_back(), warp.lanes[i], warp.stacks[i]);
    merge_threads();
    use.warp_runs += warps;
    ++use.launches;
    reporter.report(work_left<W>(results, parked, 0, seeds, first_seed, {}));
  }
}

}  // namespace

void run_chunks_lockstep(const Plan& plan, const std::vector<int>& chunks, int target,
                         const LockstepOptions& options, const ChunkDone& done, LaneUse* use,
                         const Cancel& cancel) {
  Results results(plan, chunks);
  Reporter reporter(plan, chunks, results, done);
  LaneUse mine;
  const auto count_use = [&] {
    if (!use) return;
    use->kernel = options.kernel;
    use->add(mine);
  };
  try {
    if (words_for(plan.n) == 2)
      run<2>(plan, chunks, target, options, results, mine, cancel, reporter);
    else
      run<3>(plan, chunks, target, options, results, mine, cancel, reporter);
  } catch (const Cancelled&) {
    count_use();
    throw;
  }
  // Chunks without prefixes had no work to wait for.
  reporter.report(std::vector<bool>(chunks.size(), false));
  count_use();
}

}  // namespace piles::topswops
