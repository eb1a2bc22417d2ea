// What each unit of the lockstep Topswops search (core/topswops_lane.hpp) costs the device: one
// kernel per unit that loads a lane, takes that unit and stores the lane back, and one that only
// loads and stores it, for scripts/lane-costs to count their SASS instructions. The stack is
// global memory here (local in the kernel: as many instructions either way). The sink finds no
// game, as nearly every node does not, so its report is left out like that of a node that ends
// no game. Not part of the build.
#include <cstdint>

#include "core/topswops_lane.hpp"

namespace ts = piles::topswops;
namespace lockstep = piles::topswops::lockstep;

struct NoGame {
  std::uint64_t* nodes;

  __device__ __forceinline__ void node(std::uint32_t, int level) { ++nodes[level]; }
  template <int W>
  __device__ __forceinline__ void game(std::uint32_t, int, const ts::Deck<W>&, const ts::Deck<W>&) {
  }
};

// The seed a refill takes, and the ballot, counter and shuffle around it.
template <int W>
__device__ __forceinline__ void refill(lockstep::Lane<W>& a, const lockstep::Seed<W>* seeds,
                                       unsigned long long* next, const ts::Problem& p, int depth,
                                       int target) {
  const bool wants = a.next == lockstep::idle;
  const unsigned wanting = __ballot_sync(~0u, wants);
  const int first = __ffs(static_cast<int>(wanting)) - 1;
  unsigned long long base = 0;
  if (static_cast<int>(threadIdx.x % 32) == first) base = atomicAdd(next, __popc(wanting));
  base = __shfl_sync(~0u, base, first);
  if (wants)
    lockstep::load(a, seeds[base + __popc(wanting & ((1u << threadIdx.x % 32) - 1))], depth, target,
                   p);
}

template <int W, int U>
__global__ void unit_probe(lockstep::Lane<W>* lanes, ts::SavedFrame<W>* stack,
                           const std::int32_t* bound, int n, bool sorted, ts::Deck<W> sorted_deck,
                           std::uint64_t* nodes, const lockstep::Seed<W>* seeds,
                           unsigned long long* next) {
  lockstep::Lane<W> a = lanes[threadIdx.x];
  const ts::Problem p{n, sorted, bound};
  NoGame sink{nodes};
  if constexpr (U == lockstep::done + 1) {
    a.next = lockstep::pass_unit(a.next);
  } else if constexpr (U == lockstep::idle) {
    refill(a, seeds, next, p, n / 2, n);
  } else if constexpr (U < lockstep::idle) {
    a.next = U;
    lockstep::step<false>(a, stack, p, sorted_deck, sink);
  }
  lanes[threadIdx.x] = a;
}

#define PILES_PROBE(U)                                                                     \
  template __global__ void unit_probe<2, U>(                                               \
      lockstep::Lane<2>*, ts::SavedFrame<2>*, const std::int32_t*, int, bool, ts::Deck<2>, \
      std::uint64_t*, const lockstep::Seed<2>*, unsigned long long*);
PILES_PROBE(lockstep::choose)
PILES_PROBE(lockstep::flip)
PILES_PROBE(lockstep::block)
PILES_PROBE(lockstep::land)
PILES_PROBE(lockstep::ret)
PILES_PROBE(lockstep::idle)
PILES_PROBE(lockstep::done)
PILES_PROBE(lockstep::done + 1)
