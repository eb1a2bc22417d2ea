#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/topswops.hpp"
#include "core/topswops_lane.hpp"
#include "kernels/cuda_check.cuh"
#include "kernels/device_buffer.cuh"
#include "kernels/launch.cuh"
#include "kernels/topswops_chunks.hpp"
#include "kernels/topswops_search.hpp"
#include "kernels/topswops_sink.cuh"

namespace piles::gpu {
namespace {

using topswops::Deck;
using topswops::LockstepKernel;
using topswops::max_n;
using topswops::SavedFrame;
using topswops::lockstep::Lane;
using topswops::lockstep::Parked;
using topswops::lockstep::Seed;
using topswops_sink::ChunkTotals;
using topswops_sink::DeviceSink;
using topswops_sink::Totals;
namespace lockstep = topswops::lockstep;

constexpr int block_threads = 128;
constexpr unsigned full_warp = ~0u;

// One launch: items [0, open_count) are the lanes parked by the launch before, the rest the
// seeds not taken yet; lanes still searching after pass_budget passes go to `parked`.
template <int W>
struct LockstepLaunch {
  int n, depth, target;
  bool sorted;
  const std::int32_t* bound;
  const int* record_min;  // per chunk: games shorter than this are not recorded
  const Parked<W>* open;
  std::uint64_t open_count;
  const Seed<W>* seeds;
  std::uint64_t seed_count;
  std::uint64_t pass_budget;
  unsigned long long* next_item;
  Parked<W>* parked;
  unsigned long long* parked_count;
  Totals<W> totals;
};

// A game a lane's sink is given goes straight to its chunk's totals.
template <int W>
__device__ __forceinline__ void record_game(const int* record_min, const Totals<W>& totals,
                                            std::uint32_t chunk, int steps, const Deck<W>& start,
                                            const Deck<W>& final_deck) {
  DeviceSink<W>{chunk, record_min[chunk], totals}.leaf(steps, start, final_deck);
}

// A lane's sink: its node counts for the chunk it searches, added to the chunk's whenever the
// lane leaves that work; its games go straight to the chunk's totals. The counts are indexed by
// level at run time, so they live in local memory: an array of their own, since a struct
// holding them would take the pointers beside them there too.
template <int W>
struct LaneSink {
  std::uint64_t* nodes;  // max_n levels
  const int* record_min;
  Totals<W> totals;

  __device__ __forceinline__ void node(std::uint32_t, int level) { ++nodes[level]; }
  __device__ __forceinline__ void game(std::uint32_t chunk, int steps, const Deck<W>& start,
                                       const Deck<W>& final_deck) {
    record_game(record_min, totals, chunk, steps, start, final_deck);
  }
  __device__ __forceinline__ void flush(std::uint32_t chunk, int depth, int n) {
    topswops_sink::add_nodes(totals.nodes + chunk * max_n, nodes, depth, n);
    for (int l = depth + 1; l < n; ++l) nodes[l] = 0;
  }
};

// The staged-shared kernel's node counts: one 32-bit count a level and thread, level by level,
// so that a warp's lanes fall in 32 banks. In the staged kernel the first use of the local
// array's count, read back at every landing, held 10.7% of its stall samples on an H200
// (results/bench/gpu_h200_kernels.md); here a landing adds to its count by a reduction, which no
// instruction waits for. A launch's passes are capped so that a lane's count, flushed whenever
// the lane takes work and at the launch's end, stays below 2^32 (stack_rounds landings a pass).
__shared__ std::uint32_t shared_counts[max_n * block_threads];
constexpr std::uint32_t shared_counts_max_passes = (1u << 31) / lockstep::stack_rounds;

template <int W>
struct SharedSink {
  std::uint32_t at;  // the shared address of this thread's count at level 0
  const int* record_min;
  Totals<W> totals;

  __device__ __forceinline__ std::uint32_t count_at(int level) const {
    return at + level * static_cast<std::uint32_t>(block_threads * sizeof(std::uint32_t));
  }
  __device__ __forceinline__ void clear(int level) const {
    asm volatile("st.shared.u32 [%0], %1;" ::"r"(count_at(level)), "r"(0u) : "memory");
  }
  __device__ __forceinline__ void node(std::uint32_t, int level) {
    asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(count_at(level)) : "memory");
  }
  __device__ __forceinline__ void game(std::uint32_t chunk, int steps, const Deck<W>& start,
                                       const Deck<W>& final_deck) {
    record_game(record_min, totals, chunk, steps, start, final_deck);
  }
  __device__ __forceinline__ void flush(std::uint32_t chunk, int depth, int n) {
    for (int l = depth + 1; l < n; ++l) {
      std::uint32_t count;
      asm volatile("ld.shared.u32 %0, [%1];" : "=r"(count) : "r"(count_at(l)) : "memory");
      if (count == 0) continue;
      atomicAdd(totals.nodes + chunk * max_n + l, static_cast<unsigned long long>(count));
      clear(l);
    }
  }
};

// Blocks an SM must hold, which caps the registers a thread: 9 for two-word decks (56
// registers, what ptxas gives them anyway), 8 for three (64, which the lane fits without
// spilling; left to itself ptxas gave it 70-72 and the SM room for 7 blocks).
template <int W>
constexpr int min_blocks_per_sm = W == 2 ? 9 : 8;

// A shared array's 32-bit address, worked out once and kept in a register (the asm hides where
// it came from): left to itself, ptxas works the shared window's base out again at every use,
// 3 instructions each time.
__device__ __forceinline__ std::uint32_t shared_address_in_register(const void* p) {
  std::uint32_t at;
  asm volatile("mov.u32 %0, %1;"
               : "=r"(at)
               : "r"(static_cast<std::uint32_t>(__cvta_generic_to_shared(p))));
  return at;
}
// The same as a generic pointer, for the lean kernel's table of bounds: its loads stay shared
// loads.
template <class T>
__device__ __forceinline__ const T* held_in_register(const T* p) {
  return static_cast<const T*>(__cvta_shared_to_generic(shared_address_in_register(p)));
}

// The lean kernel's table of flips (lockstep::FlipTable) in shared memory, read at the 32-bit
// address `base` holds (shared_address_in_register): two 16-byte loads a flip.
__shared__ topswops::FlipSelectors lean_flips[lockstep::flip_lengths];
struct LeanFlips {
  std::uint32_t base;
  __device__ __forceinline__ topswops::FlipSelectors operator[](int k) const {
    // k is the top byte that the flip unit also compares with h: the asm keeps the compiler from
    // masking the shifted word apart from it (one instruction more).
    asm("mov.b32 %0, %0;" : "+r"(k));
    const auto at = base + static_cast<std::uint32_t>(k * sizeof(topswops::FlipSelectors));
    topswops::FlipSelectors f;
    asm("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
        : "=r"(f.s[0]), "=r"(f.s[1]), "=r"(f.s[2]), "=r"(f.s[3])
        : "r"(at));
    asm("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4+16];"
        : "=r"(f.s[4]), "=r"(f.s[5]), "=r"(f.s[6]), "=r"(f.s[7])
        : "r"(at));
    return f;
  }
};

__device__ __forceinline__ void fill_lean_flips() {
  for (int k = threadIdx.x; k < lockstep::flip_lengths; k += blockDim.x)
    lean_flips[k] = topswops::flip_selectors(k);
  __syncthreads();
}

// A lane's sink as kernel K keeps it: its node counts in `local_counts`, or in shared memory
// (staged_shared), cleared.
template <LockstepKernel K, int W>
__device__ __forceinline__ auto lane_sink(std::uint64_t* local_counts, const LockstepLaunch<W>& a) {
  if constexpr (K == LockstepKernel::staged_shared) {
    // The thread's own address held, not the array's: from that ptxas would read the thread's
    // index again at every landing.
    const SharedSink<W> sink{shared_address_in_register(&shared_counts[threadIdx.x]), a.record_min,
                             a.totals};
    for (int l = 0; l < max_n; ++l) sink.clear(l);
    return sink;
  } else {
    return LaneSink<W>{local_counts, a.record_min, a.totals};
  }
}

// The warp's idle lanes take the next items with one atomic, in lane order.
template <bool Sorted, int W, class Sink>
__device__ __forceinline__ void take_work(Lane<W>& lane, SavedFrame<W>* stack, Sink& sink,
                                          const LockstepLaunch<W>& a,
                                          const topswops::Problem& problem, bool wants,
                                          unsigned wanting, std::uint64_t items) {
  const unsigned lane_id = threadIdx.x % 32, lanes_below = (1u << lane_id) - 1;
  const int first = __ffs(static_cast<int>(wanting)) - 1;
  unsigned long long base = 0;
  if (static_cast<int>(lane_id) == first)
    base = atomicAdd(a.next_item, static_cast<unsigned long long>(__popc(wanting)));
  base = __shfl_sync(full_warp, base, first);
  if (wants) {
    sink.flush(lane.chunk, a.depth, a.n);
    const std::uint64_t i = base + __popc(wanting & lanes_below);
    if (i < a.open_count)
      lockstep::unpark(lane, stack, a.open[i]);
    else if (i < items)
      lockstep::load(lane, a.seeds[i - a.open_count], a.depth, a.target, problem);
    else
      lane.next = lockstep::done;
  }
}

// Sorted: a.sorted, fixed per kernel so that a search for any final carries no code of the other.
// K: which pass (topswops::LockstepKernel). Lean: the same units and vote as lockstep with less
// around them each pass. The check that every lane is done runs only after a refill, since
// only a refill ends a lane's work; the pass count is 32 bits, counted down; the vote is not
// decoded (pass_takes); the units are told apart by branches, not a jump table
// (step_by_branches); and a lane whose flip leaves it flipping flips again in the same pass,
// which spares the warp the next pass's loop, vote and dispatch while most lanes are still
// playing out their children. Its flips of two-word decks are byte permutes whose selectors it
// reads from shared memory, and it keeps the addresses of its shared tables in registers.
// Staged: lean's refill, flips and tables, and no vote: each pass runs its stages in a fixed
// order, each for the lanes that want it (core/topswops_lane.hpp, at stacking); the host's warp
// model runs the same stages (staged_pass in host/topswops/lockstep_engine.cpp).
template <int W, bool Sorted, LockstepKernel K>
__global__ void __launch_bounds__(block_threads, min_blocks_per_sm<W>)
    lockstep_kernel(LockstepLaunch<W> a) {
  constexpr bool lean_tables = K != LockstepKernel::lockstep;
  __shared__ std::int32_t bound[max_n + 1];
  for (int i = threadIdx.x; i <= a.n; i += blockDim.x) bound[i] = a.bound[i];
  __syncthreads();
  const topswops::Problem problem{a.n, a.sorted, lean_tables ? held_in_register(bound) : bound};
  const Deck<W> sorted = topswops::sorted_deck<W>(a.n);
  const std::uint64_t items = a.open_count + a.seed_count;
  std::uint64_t nodes[max_n] = {};
  auto sink = lane_sink<K>(nodes, a);
  // The thread's lane, a local variable kept in registers between passes; its stack apart.
  Lane<W> lane;
  SavedFrame<W> stack[max_n];
  lane.next = lockstep::idle;
  lane.chunk = 0;
  if constexpr (lean_tables) {
    LeanFlips flips{0};  // three-word decks flip by shifts (flip_unit)
    if constexpr (W == 2) {
      fill_lean_flips();
      flips.base = shared_address_in_register(lean_flips);
    }
    const std::uint32_t budget = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(a.pass_budget, K == LockstepKernel::staged_shared
                                                   ? shared_counts_max_passes
                                                   : std::numeric_limits<std::uint32_t>::max()));
    for (std::uint32_t left = budget; left > 0; --left) {
      const bool wants = lane.next == lockstep::idle;
      const unsigned wanting = __ballot_sync(full_warp, wants);
      if (wanting) {
        take_work<Sorted>(lane, stack, sink, a, problem, wants, wanting, items);
        if (__all_sync(full_warp, lane.next == lockstep::done)) break;
      }
      if constexpr (K == LockstepKernel::lean) {
        if (lockstep::pass_takes(lane.next)) {
          const bool flipping = lockstep::vote_kind(lane.next) == lockstep::flip;
          lockstep::step_by_branches<Sorted>(lane, stack, problem, sorted, sink, flips);
          if (flipping && lane.next == lockstep::flip) lockstep::flip_unit<true>(lane, flips);
        }
      } else {
        // The landings' loop kept rolled (its code once, 75 instructions), the flips' unrolled
        // into a test and a flip a round (rolled, a round took 21 instructions; unrolled, 17).
#pragma unroll 1
        for (int r = 0; r < lockstep::stack_rounds && lockstep::stacking(lane.next); ++r)
          lockstep::stack_unit<Sorted>(lane, stack, problem, sorted, sink);
        if (lane.next <= lockstep::flip) {
          if (lane.next == lockstep::choose) lockstep::choose_unit(lane);
          lockstep::flip_unit<true>(lane, flips);
        }
#pragma unroll
        for (int r = 1; r < lockstep::flip_rounds; ++r)
          if (lane.next == lockstep::flip) lockstep::flip_unit<true>(lane, flips);
        if (lane.next == lockstep::block) lockstep::block_unit<Sorted, true>(lane, problem, sorted);
      }
    }
  } else {
    for (std::uint64_t pass = 0; pass < a.pass_budget; ++pass) {
      const bool wants = lane.next == lockstep::idle;
      const unsigned wanting = __ballot_sync(full_warp, wants);
      if (wanting) take_work<Sorted>(lane, stack, sink, a, problem, wants, wanting, items);
      if (__all_sync(full_warp, lane.next == lockstep::done)) break;
      // One unit per pass for the whole warp: the one most lanes want; the others wait.
      const int unit = lockstep::pass_unit(lane.next);
      if (lockstep::vote_kind(lane.next) == unit)
        lockstep::step<Sorted>(lane, stack, problem, sorted, sink);
    }
  }
  sink.flush(lane.chunk, a.depth, a.n);
  if (lane.next < lockstep::idle)
    lockstep::park(a.parked[atomicAdd(a.parked_count, 1ull)], lane, stack);
}

// The subtree of every prefix of `work`, replayed, with its chunk.
template <int W>
std::vector<Seed<W>> seeds_of(const TopswopsWork& work) {
  const topswops::Problem problem{work.n, work.sorted, work.bound.data()};
  std::vector<Seed<W>> seeds(work.chunk_ends.back());
  std::uint64_t i = 0;
  for (std::size_t c = 0; c < work.chunk_ends.size(); ++c)
    for (; i < work.chunk_ends[c]; ++i)
      seeds[i] = lockstep::seed_of<W>(problem, work.choices.data() + i * work.depth, work.depth,
                                      static_cast<std::uint32_t>(c));
  return seeds;
}

// The chunks of the first `count` lanes parked in `parked`: their chunk fields alone, copied
// with the stride of a parked lane.
template <int W>
std::vector<std::uint32_t> parked_chunks(const DeviceBuffer<Parked<W>>& parked,
                                         std::uint64_t count) {
  static_assert(std::is_standard_layout_v<Parked<W>> && std::is_standard_layout_v<Lane<W>>);
  std::vector<std::uint32_t> chunks(count);
  if (count > 0)
    PILES_CUDA_CHECK(cudaMemcpy2D(chunks.data(), sizeof(std::uint32_t),
                                  reinterpret_cast<const char*>(parked.data()) +
                                      offsetof(Parked<W>, lane) + offsetof(Lane<W>, chunk),
                                  sizeof(Parked<W>), sizeof(std::uint32_t), count,
                                  cudaMemcpyDeviceToHost));
  return chunks;
}

template <int W, LockstepKernel K>
auto lockstep_kernel_for(bool sorted) {
  return sorted ? lockstep_kernel<W, true, K> : lockstep_kernel<W, false, K>;
}
template <int W>
auto lockstep_kernel_for(LockstepKernel kind, bool sorted) {
  return kind == LockstepKernel::staged_shared
             ? lockstep_kernel_for<W, LockstepKernel::staged_shared>(sorted)
         : kind == LockstepKernel::staged ? lockstep_kernel_for<W, LockstepKernel::staged>(sorted)
         : kind == LockstepKernel::lean   ? lockstep_kernel_for<W, LockstepKernel::lean>(sorted)
                                        : lockstep_kernel_for<W, LockstepKernel::lockstep>(sorted);
}

// Launches until every prefix of `work` is searched; record_min[c] is the shortest game worth
// recording in chunk c. Returns the results and, per chunk, whether its games overflowed the
// buffer. Where the stop check throws between launches, throws topswops_chunks::Stopped with
// the results so far and the chunks finished.
template <int W>
std::vector<TopswopsChunkResult> launch_all(const TopswopsWork& work,
                                            const std::vector<int>& record_min,
                                            std::vector<bool>& overflowed,
                                            std::uint64_t pass_budget, LockstepKernel kind,
                                            const std::function<void()>& between_launches) {
  const std::uint64_t seed_count = work.chunk_ends.back();
  DeviceBuffer<Seed<W>> seeds(seeds_of<W>(work));
  DeviceBuffer<std::int32_t> bound(work.bound);
  DeviceBuffer<int> mins(record_min);
  DeviceBuffer<unsigned long long> counters(2);  // the next item, the lanes parked
  ChunkTotals<W> totals(static_cast<int>(work.chunk_ends.size()), work.found_capacity);
  // No launch has more lanes than the device holds at once, so none parks more.
  const auto kernel = lockstep_kernel_for<W>(kind, work.sorted);
  const std::uint64_t resident = resident_blocks(kernel, block_threads);
  DeviceBuffer<Parked<W>> open(resident * block_threads), parked(resident * block_threads);
  std::uint64_t open_count = 0, seeds_taken = 0;
  for (bool first = true; open_count > 0 || seeds_taken < seed_count; first = false) {
    if (!first && between_launches) {
      try {
        between_launches();
      } catch (...) {
        // Between launches the totals are whole for every chunk no lane still works on.
        topswops_chunks::Stopped stopped;
        stopped.results = totals.collect(work.n, overflowed);
        stopped.finished = topswops_chunks::finished_chunks(
            work.chunk_ends, seeds_taken, parked_chunks(open, open_count), overflowed);
        stopped.stop = std::current_exception();
        throw stopped;
      }
    }
    const std::uint64_t items = open_count + (seed_count - seeds_taken);
    const int grid = static_cast<int>(std::min(blocks_for(items, block_threads), resident));
    counters.fill_zero();
    const LockstepLaunch<W> a{work.n,
                              work.depth,
                              work.target,
                              work.sorted,
                              bound.data(),
                              mins.data(),
                              open.data(),
                              open_count,
                              seeds.data() + seeds_taken,
                              seed_count - seeds_taken,
                              pass_budget,
                              counters.data(),
                              parked.data(),
                              counters.data() + 1,
                              totals.view()};
    kernel<<<grid, block_threads>>>(a);
    PILES_CUDA_CHECK_LAUNCH();
    PILES_CUDA_CHECK(cudaDeviceSynchronize());
    unsigned long long counts[2];
    counters.copy_to(counts, 2);
    // Every lane takes an item at its first pass, and the grid has a lane for each open one
    // (each was parked by one lane of at most `resident` blocks), so all open lanes were taken:
    // the items taken past them are the next seeds.
    seeds_taken += std::min<std::uint64_t>(counts[0], items) - open_count;
    open_count = counts[1];
    std::swap(open, parked);
  }
  return totals.collect(work.n, overflowed);
}

template <int W>
std::vector<TopswopsChunkResult> search(const TopswopsWork& work, std::uint64_t pass_budget,
                                        LockstepKernel kind, const TopswopsStop& stop) {
  return topswops_chunks::search_chunks(
      work,
      [pass_budget, kind, &stop](const TopswopsWork& part, const std::vector<int>& record_min,
                                 std::vector<bool>& overflowed) {
        return launch_all<W>(part, record_min, overflowed, pass_budget, kind, stop.check);
      },
      stop);
}

}  // namespace

std::vector<TopswopsChunkResult> topswops_search_lockstep(const TopswopsWork& work,
                                                          std::uint64_t pass_budget,
                                                          LockstepKernel kind,
                                                          const TopswopsStop& stop) {
  const std::uint64_t budget =
      pass_budget == 0 ? std::numeric_limits<std::uint64_t>::max() : pass_budget;
  return topswops::words_for(work.n) == 2 ? search<2>(work, budget, kind, stop)
                                          : search<3>(work, budget, kind, stop);
}

std::uint64_t topswops_lockstep_lanes_in_flight(int n, LockstepKernel kind) {
  const std::uint64_t blocks =
      topswops::words_for(n) == 2
          ? resident_blocks(lockstep_kernel_for<2>(kind, false), block_threads)
          : resident_blocks(lockstep_kernel_for<3>(kind, false), block_threads);
  return blocks * block_threads;
}

}  // namespace piles::gpu
