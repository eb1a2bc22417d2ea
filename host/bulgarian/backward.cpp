#include "host/bulgarian/backward.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <thread>

#include "core/bulgarian.hpp"
#include "core/partition.hpp"
#include "host/bulgarian/lane_walk.hpp"
#include "host/bulgarian/trace.hpp"
#include "host/common/error.hpp"
#include "host/common/output.hpp"
#include "host/common/parse.hpp"
#include "host/common/partition_table.hpp"
#ifdef PILES_HAVE_CUDA
#include "kernels/bulgarian_backward.hpp"
#endif

namespace piles::bulgarian {
namespace {

// A root must lie on a cycle: played, it comes back within k + 1 moves (Brandt). Together with
// the count of every partition visited, this makes each run check the theorem for its n.
void check_on_cycle(const part_t* start, int len, int k) {
  std::vector<part_t> cur(start, start + len), next;
  for (int moves = 1; moves <= k + 1; ++moves) {
    next.resize(cur.size() + 1);
    next.resize(bulgarian::move(cur.data(), static_cast<int>(cur.size()), next.data()));
    std::swap(cur, next);
    if (std::equal(cur.begin(), cur.end(), start, start + len)) return;
  }
  throw std::runtime_error(fmt::format("Brandt partition {} is not on a cycle",
                                       paren_list(std::vector<int>(start, start + len))));
}

void push_predecessors(const ForestNode& node, int skip_parts, std::vector<ForestWalker>& out) {
  for (int g = node.head; node.is_candidate(g); ++g) {
    if (node.value(g) == skip_parts) continue;
    ForestNode child = node;
    child.descend(g);
    out.push_back(ForestWalker::at(child));
  }
}

// Thread-local tally; a depth beyond the histogram is remembered and reported at the end.
struct Tally {
  ForestCounts counts;
  std::uint64_t visited = 0;
  bool too_deep = false;

  explicit Tally(int depth_limit) { counts.histogram.assign(depth_limit, 0); }
  void operator()(int depth, bool leaf) {
    ++visited;
    counts.leaves += leaf;
    if (depth < static_cast<int>(counts.histogram.size()))
      ++counts.histogram[depth];
    else
      too_deep = true;
  }

  // Advances `w` by at most `budget` descents; the counters live in locals meanwhile so that
  // the compiler keeps them in registers (histogram stores could alias the members).
  bool walk(ForestWalker& w, std::uint64_t budget) {
    std::uint64_t* hist = counts.histogram.data();
    const int limit = static_cast<int>(counts.histogram.size());
    std::uint64_t seen = 0, leaves = 0;
    bool deep = false;
    const bool done = walk_forest<true>(w, budget, [&](int depth, bool leaf) {
      ++seen;
      leaves += leaf;
      if (depth < limit)
        ++hist[depth];
      else
        deep = true;
    });
    visited += seen;
    counts.leaves += leaves;
    too_deep = too_deep || deep;
    return done;
  }
};

void check_depth(bool too_deep) {
  if (too_deep) throw std::runtime_error("a transient exceeds the depth bound");
}

// Visits the roots of fresh subtrees on the host and puts their children in their place, level
// by level, until there are at least `wanted` subtrees (or none is left).
void open_subtrees(std::vector<ForestWalker>& level, std::size_t wanted, Tally& tally) {
  std::vector<ForestWalker> next;
  while (!level.empty() && level.size() < wanted) {
    next.clear();
    for (const ForestWalker& w : level) {
      tally(w.node.depth, w.node.is_leaf());
      push_predecessors(w.node, -1, next);
    }
    std::swap(level, next);
  }
}

#ifdef PILES_HAVE_CUDA
// The partition a round of the GPU walk reached at `depth`: the walk replayed on the host from
// where the round took it up, with the round's budget. Empty when the device visited nothing.
std::vector<int> replay_to_depth(ForestWalker walk, int depth, std::uint64_t budget) {
  std::vector<int> found;
  if (depth < 0) return found;
  walk_forest(walk, budget, [&](int d, bool) {
    if (d != depth || !found.empty()) return;
    part_t parts[partition::max_n + 1];
    found.assign(parts, parts + walk.node.to_parts(parts));
  });
  return found;
}
#endif

}  // namespace

void ForestCounts::merge(const ForestCounts& other) {
  if (histogram.size() < other.histogram.size()) histogram.resize(other.histogram.size());
  for (std::size_t d = 0; d < other.histogram.size(); ++d) histogram[d] += other.histogram[d];
  leaves += other.leaves;
}

std::uint64_t ForestCounts::nodes() const {
  std::uint64_t total = 0;
  for (auto c : histogram) total += c;
  return total;
}

int depth_bound(int n) {
  return 2 * n + 2;
}

ForestTop expand_forest(int n, std::size_t min_subtrees) {
  const int k = brandt_k(n), r = n - triangular(k);
  const PartitionTable table(n);
  ForestTop top;
  Tally tally(depth_bound(n));

  std::vector<ForestWalker> level;
  part_t parts[partition::max_n + 1];
  const std::uint64_t end = std::uint64_t{1} << (k + 1);
  for (std::uint64_t mask = (std::uint64_t{1} << r) - 1; mask < end;
       mask = r == 0 ? end : next_same_popcount(mask)) {
    const int len = cycle_partition(k, mask, parts);
    check_on_cycle(parts, len, k);
    top.root_ranks.push_back(partition::rank(table.view(), parts, len));
    ForestNode root;
    root.assign(parts, len, 0);
    tally(0, root.is_leaf());
    push_predecessors(root, cycle_predecessor_parts(k, mask), level);
  }
  std::sort(top.root_ranks.begin(), top.root_ranks.end());

  open_subtrees(level, min_subtrees, tally);
  check_depth(tally.too_deep);
  top.counts = std::move(tally.counts);
  top.subtrees = std::move(level);
  return top;
}

bool split_walk(ForestWalker& walk, std::vector<ForestWalker>& out) {
  ForestNode x = walk.node;
  std::vector<int> chosen(x.depth - walk.base);  // per level: parts of the child taken
  for (int i = static_cast<int>(chosen.size()) - 1; i >= 0; --i) {
    chosen[i] = x.parts;
    x.ascend();
  }
  for (const int v : chosen) {
    int g = x.head;
    while (x.value(g) != v) ++g;
    if (x.is_candidate(g + 1)) {
      for (int h = g + 1; x.is_candidate(h); ++h) {
        ForestNode sibling = x;
        sibling.descend(h);
        out.push_back(ForestWalker::at(sibling));
      }
      walk.base = x.depth + 1;
      return true;
    }
    x.descend(g);
  }
  // No sibling is left along the path: the untried children of the node the walk stands on go,
  // when there are two or more, and the walk keeps only what it has not done there yet (the
  // node's own visit, if it is fresh), then climbs back to its base and ends.
  ForestNode& here = walk.node;
  if (!here.is_candidate(walk.next + 1)) return false;
  for (int g = walk.next; here.is_candidate(g); ++g) {
    ForestNode child = here;
    child.descend(g);
    out.push_back(ForestWalker::at(child));
  }
  walk.next = here.tail;
  return true;
}

void fill_round(std::vector<ForestWalker>& work, std::size_t wanted) {
  // A walk that gave nothing stays as it was and would give nothing again, so each pass tries
  // only the walks that gave some in the last one and those they gave: where most nodes have a
  // single predecessor, trying every walk again made the passes quadratic. A pass shares its
  // walks out among the threads in slices and joins what they gave in slice order, so the
  // walks come out in the same order on any number of threads.
  const int threads = omp_get_max_threads();
  std::vector<std::size_t> active(work.size());
  std::iota(active.begin(), active.end(), std::size_t{0});
  std::vector<std::vector<ForestWalker>> given(threads);
  std::vector<std::vector<std::size_t>> kept(threads);
  while (!active.empty() && work.size() < wanted) {
#pragma omp parallel num_threads(threads)
    {
      const int t = omp_get_thread_num();
      const std::size_t lo = active.size() * t / threads, hi = active.size() * (t + 1) / threads;
      given[t].clear();
      kept[t].clear();
      for (std::size_t a = lo; a < hi; ++a)
        if (split_walk(work[active[a]], given[t])) kept[t].push_back(active[a]);
    }
    active.clear();
    for (int t = 0; t < threads; ++t) active.insert(active.end(), kept[t].begin(), kept[t].end());
    for (int t = 0; t < threads; ++t) {
      for (std::size_t j = 0; j < given[t].size(); ++j) active.push_back(work.size() + j);
      work.insert(work.end(), given[t].begin(), given[t].end());
    }
  }
}

ForestCounts walk_subtrees_cpu(std::vector<ForestWalker> work, int depth_limit, int threads,
                               const UnitsDone& visited, const Cancel& cancel) {
  // Descents between two looks at whether another thread waits for work.
  constexpr std::uint64_t check_every = 1 << 16;
  std::mutex lock;
  int idle = 0;
  bool finished = false;
  std::atomic<int> waiting{0};
  std::atomic<bool> abandoned{false};
  ForestCounts total;
  bool too_deep = false;
#pragma omp parallel num_threads(threads)
  {
    Tally tally(depth_limit);
    bool counted_idle = false;
    while (!abandoned) {
      ForestWalker walk;
      bool have = false, done = false;
      {
        std::lock_guard guard(lock);
        if (!work.empty()) {
          walk = work.back();
          work.pop_back();
          have = true;
          if (counted_idle) --idle, counted_idle = false;
        } else if (!counted_idle) {
          ++idle, counted_idle = true;
        }
        finished = finished || (work.empty() && idle == threads);
        done = finished;
        waiting.store(idle, std::memory_order_relaxed);
      }
      if (done) break;
      if (!have) {
        std::this_thread::sleep_for(std::chrono::microseconds(50));
        continue;
      }
      for (;;) {
        const std::uint64_t before = tally.visited;
        const bool complete = tally.walk(walk, check_every);
        if (visited) visited(tally.visited - before);
        if (complete) break;
        if (cancelled(cancel)) {
          abandoned = true;
          break;
        }
        if (waiting.load(std::memory_order_relaxed) > 0) {
          std::lock_guard guard(lock);
          if (work.empty()) split_walk(walk, work);
        }
      }
    }
#pragma omp critical(piles_bulgarian_walk_merge)
    {
      total.merge(tally.counts);
      too_deep = too_deep || tally.too_deep;
    }
  }
  if (abandoned) throw Cancelled();
  check_depth(too_deep);
  return total;
}

const char* walk_kernel_name(WalkKernel kernel) {
  return kernel == WalkKernel::rounds  ? "rounds"
         : kernel == WalkKernel::lanes ? "lanes"
                                       : "lanes-leaves";
}

WalkKernel parse_walk_kernel(const std::string& name) {
  const std::string chosen =
      parse_choice(name, "--walk-kernel", {"rounds", "lanes", "lanes-leaves"});
  return chosen == "lanes"    ? WalkKernel::lanes
         : chosen == "rounds" ? WalkKernel::rounds
                              : WalkKernel::lanes_leaves;
}

#ifdef PILES_HAVE_CUDA
namespace {

// The rounds kernel: every walk of a round on a thread of its own, up to `descents` each.
LaneWalk walk_in_rounds(std::vector<ForestWalker> work, int depth_limit, std::uint64_t descents,
                        const UnitsDone& visited, const Cancel& cancel) {
  const std::size_t wanted = gpu::walks_per_round();
  LaneWalk out;
  std::vector<ForestWalker> unfinished;
  while (!work.empty()) {
    if (cancelled(cancel)) throw Cancelled();
    fill_round(work, wanted);
    const gpu::ForestRound round = gpu::bulgarian_walk_round(work, depth_limit, descents);
    const ForestCounts counts{round.histogram, round.leaves};
    if (visited) visited(counts.nodes());
    out.counts.merge(counts);
    out.too_deep = out.too_deep || round.too_deep;
    if (round.deepest > out.deepest) {
      out.deepest = round.deepest;
      out.deepest_walk = round.deepest_walk;
    }
    unfinished.clear();
    for (std::size_t i = 0; i < work.size(); ++i)
      if (!round.done[i]) unfinished.push_back(work[i]);
    work.swap(unfinished);
  }
  return out;
}

// The lanes (or lanes-leaves) kernel: one launch, or more where its passes run out.
LaneWalk walk_in_lanes(std::vector<ForestWalker> work, int depth_limit, std::uint64_t passes,
                       bool leaves_in_place, const UnitsDone& visited, const Cancel& cancel) {
  return drive_lane_walk(
      std::move(work), lanes_host_walks_per_lane * gpu::walk_lanes_resident(leaves_in_place),
      [&](const std::vector<ForestWalker>& queue) {
        gpu::LaneRound r = gpu::bulgarian_walk_lanes(queue, depth_limit, passes, leaves_in_place);
        LaneLaunch l;
        l.counts = {std::move(r.histogram), r.leaves};
        if (visited) visited(l.counts.nodes());
        l.too_deep = r.too_deep;
        l.taken = r.taken;
        l.parked = std::move(r.parked);
        l.deepest = r.deepest;
        l.deepest_walk = r.deepest_walk;
        return l;
      },
      cancel);
}

}  // namespace
#endif

GpuWalk walk_subtrees_gpu(int n, std::vector<ForestWalker> work,
                          std::optional<std::size_t> host_subtrees,
                          std::optional<std::uint64_t> budget, WalkKernel kernel,
                          const UnitsDone& visited, const Cancel& cancel) {
#ifdef PILES_HAVE_CUDA
  const int depth_limit = depth_bound(n);
  const bool rounds = kernel == WalkKernel::rounds;
  // Descents of a walk per round, or passes per launch: either bounds a walk's descents in one
  // call, which is what the replay of the deepest walk needs.
  const std::uint64_t steps =
      budget.value_or(rounds ? gpu::walk_round_budget : gpu::lane_pass_budget);
  // A chunk of a journaled or MPI run holds a handful of subtrees: open them on the host until
  // the first round fills the device.
  Tally tops(depth_limit);
  if (rounds || host_subtrees)
    open_subtrees(work, host_subtrees.value_or(gpu::walks_per_round()), tops);
  check_depth(tops.too_deep);
  if (visited) visited(tops.counts.nodes());
  const LaneWalk device = rounds
                              ? walk_in_rounds(std::move(work), depth_limit, steps, visited, cancel)
                              : walk_in_lanes(std::move(work), depth_limit, steps,
                                              kernel == WalkKernel::lanes_leaves, visited, cancel);
  check_depth(device.too_deep);
  check_longest_transient(n, device.counts.histogram,
                          replay_to_depth(device.deepest_walk, device.deepest, steps), "backward");
  GpuWalk out;
  out.device_partitions = device.counts.nodes();
  out.counts = std::move(tops.counts);
  out.counts.merge(device.counts);
  return out;
#else
  (void)n;
  (void)work;
  (void)host_subtrees;
  (void)budget;
  (void)kernel;
  (void)visited;
  (void)cancel;
  throw std::logic_error("walk_subtrees_gpu in a build without CUDA");
#endif
}

}  // namespace piles::bulgarian
