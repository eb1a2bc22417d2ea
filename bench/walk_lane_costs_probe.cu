// What each unit of the Bulgarian backward walk in lanes (core/bulgarian_lane.hpp) costs the
// device: one kernel per unit that takes that unit on a lane in global memory (local in the
// kernel: as many instructions either way, and its scalars in registers there), one for a
// refill, one for a pass's own votes and park test, and one that does nothing, for
// `scripts/lane-costs --walk` to count their SASS instructions. The visit is the kernel's: a
// shared-memory histogram bin, the leaf count and the deepest visit. Not part of the build.
#include <cstdint>

#include "core/bulgarian_lane.hpp"

namespace lanes = piles::bulgarian::lanes;
using piles::bulgarian::ForestWalker;

enum Probe { descend_probe, ascend_probe, refill_probe, pass_probe, nothing_probe };

template <int U>
__global__ void walk_unit_probe(lanes::Lane* all, const ForestWalker* queue,
                                unsigned long long* next, unsigned long long* out, int depth_limit,
                                unsigned long long count, std::uint64_t pass) {
  __shared__ unsigned block_hist[512];
  lanes::Lane& a = all[threadIdx.x];
  unsigned long long leaves = out[0], deepest = out[1], item = out[2];
  auto visit = [&](int depth, bool leaf) {
    leaves += leaf;
    deepest = max(deepest, (static_cast<unsigned long long>(depth) + 1) << 40 | item);
    if (depth < depth_limit && atomicAdd(&block_hist[depth], 1u) == (1u << 31) - 1) {
      atomicSub(&block_hist[depth], 1u << 31);
      atomicAdd(&out[3 + depth], static_cast<unsigned long long>(1u << 31));
    }
  };
  if constexpr (U == descend_probe || U == ascend_probe) {
    a.unit = U == descend_probe ? lanes::descend : lanes::ascend;
    lanes::step(a, visit);
  } else if constexpr (U == refill_probe) {
    const unsigned lanes_below = (1u << threadIdx.x % 32) - 1;
    for (unsigned wanting; (wanting = __ballot_sync(~0u, a.unit == lanes::idle)) != 0;) {
      const bool wants = a.unit == lanes::idle;
      const int first = __ffs(static_cast<int>(wanting)) - 1;
      unsigned long long base = 0;
      if (static_cast<int>(threadIdx.x % 32) == first) base = atomicAdd(next, __popc(wanting));
      base = __shfl_sync(~0u, base, first);
      if (wants) {
        const unsigned long long i = base + __popc(wanting & lanes_below);
        if (i < count) {
          item = i;
          lanes::load(a, queue[i], visit);
        } else {
          a.unit = lanes::done;
        }
      }
    }
  } else if constexpr (U == pass_probe) {
    const bool drained = out[4] != 0;
    if (__all_sync(~0u, a.unit == lanes::done)) return;
    const unsigned busy = __ballot_sync(~0u, a.unit < lanes::idle);
    if (drained && __popc(busy) < lanes::park_below_busy && pass >= lanes::min_passes_before_park)
      return;
    const unsigned descents = __ballot_sync(~0u, a.unit == lanes::descend);
    out[5 + threadIdx.x] = lanes::voted_unit(__popc(descents), __popc(busy & ~descents));
  }
  out[0] = leaves;
  out[1] = deepest;
}

template __global__ void walk_unit_probe<descend_probe>(lanes::Lane*, const ForestWalker*,
                                                        unsigned long long*, unsigned long long*,
                                                        int, unsigned long long, std::uint64_t);
template __global__ void walk_unit_probe<ascend_probe>(lanes::Lane*, const ForestWalker*,
                                                       unsigned long long*, unsigned long long*,
                                                       int, unsigned long long, std::uint64_t);
template __global__ void walk_unit_probe<refill_probe>(lanes::Lane*, const ForestWalker*,
                                                       unsigned long long*, unsigned long long*,
                                                       int, unsigned long long, std::uint64_t);
template __global__ void walk_unit_probe<pass_probe>(lanes::Lane*, const ForestWalker*,
                                                     unsigned long long*, unsigned long long*, int,
                                                     unsigned long long, std::uint64_t);
template __global__ void walk_unit_probe<nothing_probe>(lanes::Lane*, const ForestWalker*,
                                                        unsigned long long*, unsigned long long*,
                                                        int, unsigned long long, std::uint64_t);
