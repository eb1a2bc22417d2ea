// What each unit of the Bulgarian backward walk in lanes (core/bulgarian_lane.hpp) costs the
// device: one kernel per unit that takes that unit on a lane in global memory (local in the
// kernel: as many instructions either way, and its scalars in registers there), one for each
// of a pass's other parts as walk_lanes_kernel (kernels/bulgarian_backward.cu) writes them (a
// take from the pool, a round of hand-overs within the warp, a round of pushes into the pool,
// a pass's own votes and the end of its work, the pass of a warp that waits), and one that
// does nothing, and the lanes-leaves kernel's descent, for `scripts/lane-costs --walk` to count
// their SASS instructions. The visit is
// the kernel's: a shared-memory histogram bin, the leaf count and the lane's deepest walk.
// Not part of the build.
#include <cuda/atomic>

#include <cstdint>

#include "core/bulgarian_lane.hpp"
#include "kernels/walk_lanes_device.cuh"

namespace lanes = piles::bulgarian::lanes;
using piles::bulgarian::ForestNode;
using piles::bulgarian::ForestWalker;

enum Probe {
  descend_probe,
  ascend_probe,
  take_probe,
  pass_probe,
  give_probe,
  push_probe,
  wait_probe,
  nothing_probe,
  descend_leaves_probe  // the lanes-leaves kernel's descent (lanes::step<true>): leaf, twig or down
};

using namespace piles::gpu::walk_lanes;

// The pool's ring is `slots`, its sequence words `out + 8`; its counters `next` (head, tail,
// avail, open), its mask `count`, its low-water mark `pass`.
template <int U>
__global__ void walk_unit_probe(lanes::Lane* all, ForestWalker* slots, unsigned long long* next,
                                unsigned long long* out, int depth_limit, unsigned long long count,
                                std::uint64_t pass) {
  __shared__ unsigned block_hist[512];
  lanes::Lane& lane = all[threadIdx.x];
  unsigned long long leaves = out[0];
  int deepest = static_cast<int>(out[1]);
  long long opened = static_cast<long long>(out[2]);
  ForestWalker* deepest_walk = reinterpret_cast<ForestWalker*>(out + 1024);
  auto visit = [&](int depth, bool leaf) {
    leaves += leaf;
    if (depth < depth_limit && atomicAdd(&block_hist[depth], 1u) == (1u << 31) - 1) {
      atomicSub(&block_hist[depth], 1u << 31);
      atomicAdd(&out[8 + depth], static_cast<unsigned long long>(1u << 31));
    }
  };
  auto see = [&](int visited) {
    if (visited <= deepest) return;
    deepest = visited;
    deepest_walk[threadIdx.x] = lane.w;
  };
  unsigned long long* seq = out + 8;
  long long* avail = reinterpret_cast<long long*>(next + 2);
  long long* open = reinterpret_cast<long long*>(next + 3);
  const unsigned lane_id = threadIdx.x % 32, lanes_below = (1u << lane_id) - 1;
  if constexpr (U == descend_probe || U == ascend_probe || U == descend_leaves_probe) {
    lane.unit = U == ascend_probe ? lanes::ascend : lanes::descend;
    see(lanes::step<U == descend_leaves_probe>(lane, visit));
  } else if constexpr (U == give_probe) {
    const unsigned idle = __ballot_sync(full_warp, lane.unit == lanes::idle);
    const unsigned givers = __ballot_sync(full_warp, lanes::can_split(lane));
    const int pairs = min(__popc(idle), __popc(givers));
    const int idle_rank = __popc(idle & lanes_below), giver_rank = __popc(givers & lanes_below);
    const bool takes = lane.unit == lanes::idle && idle_rank < pairs;
    const bool gives = lanes::can_split(lane) && giver_rank < pairs;
    ForestWalker got;
    shuffle_walk(lane.w, takes ? static_cast<int>(__fns(givers, 0, idle_rank + 1)) : lane_id, got);
    if (takes) lanes::take_rest(lane, got);
    if (gives) lanes::keep_below(lane);
    opened += pairs;
  } else if constexpr (U == take_probe) {
    const unsigned idle = __ballot_sync(full_warp, lane.unit == lanes::idle);
    if (load_relaxed(avail) <= 0) return;
    const int want = __popc(idle);
    const int first = __ffs(static_cast<int>(idle)) - 1;
    long long got = 0;
    unsigned long long base = 0;
    if (static_cast<int>(lane_id) == first) {
      const long long before = atomicAdd(reinterpret_cast<unsigned long long*>(avail),
                                         static_cast<unsigned long long>(-want));
      got = max(0LL, min(before, static_cast<long long>(want)));
      if (got < want)
        atomicAdd(reinterpret_cast<unsigned long long*>(avail),
                  static_cast<unsigned long long>(want - got));
      if (got > 0) base = atomicAdd(next, static_cast<unsigned long long>(got));
    }
    got = __shfl_sync(full_warp, got, first);
    base = __shfl_sync(full_warp, base, first);
    if (got == 0) return;
    const int rank = __popc(idle & lanes_below);
    const bool took = lane.unit == lanes::idle && rank < got;
    if (took) {
      const unsigned long long p = base + rank;
      while (load_acquire(&seq[p & count]) != p + 1) __nanosleep(32);
      const ForestWalker w = slots[p & count];
      store_release(&seq[p & count], p + count + 1);
      lanes::load(lane, w, visit);
      see(lane.w.node.depth);
    }
    opened -= __popc(__ballot_sync(full_warp, took && lane.unit == lanes::idle));
  } else if constexpr (U == push_probe) {
    const long long low_water = static_cast<long long>(pass);
    const unsigned givers = __ballot_sync(full_warp, lanes::can_split(lane));
    const long long room = low_water - load_relaxed(avail);
    const int pushes = static_cast<int>(min(static_cast<long long>(__popc(givers)), room));
    if (pushes > 0) {
      unsigned long long base = 0;
      if (lane_id == 0) {
        atomicAdd(reinterpret_cast<unsigned long long*>(open),
                  static_cast<unsigned long long>(pushes));
        base = atomicAdd(next + 1, static_cast<unsigned long long>(pushes));
      }
      base = __shfl_sync(full_warp, base, 0);
      const int rank = __popc(givers & lanes_below);
      if (lanes::can_split(lane) && rank < pushes) {
        const unsigned long long p = base + rank;
        while (load_acquire(&seq[p & count]) != p) __nanosleep(32);
        slots[p & count] = lanes::rest_of(lane.w);
        store_release(&seq[p & count], p + 1);
        lanes::keep_below(lane);
      }
      __syncwarp();
      if (lane_id == 0)
        atomicAdd(reinterpret_cast<unsigned long long*>(avail),
                  static_cast<unsigned long long>(pushes));
    }
  } else if constexpr (U == pass_probe) {
    // The refill loop's look for idle lanes, the busy vote, the low-water look, the unit's
    // vote, the count of walks that ended and the open count's update.
    const unsigned idle = __ballot_sync(full_warp, lane.unit == lanes::idle);
    if (idle != 0) return;
    const unsigned busy = __ballot_sync(full_warp, lane.unit != lanes::idle);
    if (busy == full_warp && load_relaxed(avail) < static_cast<long long>(pass)) out[3] = 1;
    const unsigned descents = __ballot_sync(full_warp, lane.unit == lanes::descend);
    const int unit = lanes::voted_unit(__popc(descents), __popc(busy & ~descents));
    out[5 + threadIdx.x] = unit;
    opened -= __popc(__ballot_sync(full_warp, lane.unit == lanes::idle && (busy >> lane_id & 1)));
    if (static_cast<int>(lane_id) == 0 && opened != 0)
      atomicAdd(reinterpret_cast<unsigned long long*>(open),
                static_cast<unsigned long long>(opened));
  } else if constexpr (U == wait_probe) {
    const unsigned idle = __ballot_sync(full_warp, lane.unit == lanes::idle);
    const unsigned givers = __ballot_sync(full_warp, lanes::can_split(lane));
    if (idle == 0 || givers != 0 || load_relaxed(avail) > 0) return;
    if (load_relaxed(open) == 0) return;
    __nanosleep(256);
  }
  out[0] = leaves;
  out[1] = static_cast<unsigned long long>(deepest);
  out[2] = static_cast<unsigned long long>(opened);
}

#define PROBE(U)                                                                                \
  template __global__ void walk_unit_probe<U>(lanes::Lane*, ForestWalker*, unsigned long long*, \
                                              unsigned long long*, int, unsigned long long,     \
                                              std::uint64_t);
PROBE(descend_probe)
PROBE(ascend_probe)
PROBE(take_probe)
PROBE(pass_probe)
PROBE(give_probe)
PROBE(push_probe)
PROBE(wait_probe)
PROBE(nothing_probe)
PROBE(descend_leaves_probe)
