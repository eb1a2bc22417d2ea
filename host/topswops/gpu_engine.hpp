#pragma once

#include <cstdint>
#include <vector>

#include "host/topswops/cpu_engine.hpp"
#include "kernels/topswops_search.hpp"

namespace piles::topswops {

// The GPU kernels: `dfs`, a thread's own depth-first search per prefix (search_below), and
// warps of lanes taking units of work (core/topswops_lane.hpp) in three kinds of pass
// (LockstepKernel): `lockstep`, `lean` and `staged`, and `staged-shared`, staged's passes with
// its node counts in shared memory.
enum class GpuKernel { dfs, lockstep, lean, staged, staged_shared };

// Staged: measured faster than lean on an NVIDIA H200 (f(16) in 16.52 s against 17.71 s,
// results/bench/gpu_h200_kernels.md), where `--gpu-kernel lean` keeps the other. Staged-shared
// has not run on a GPU yet.
inline constexpr GpuKernel default_gpu_kernel = GpuKernel::staged;

inline constexpr GpuKernel gpu_kernels[] = {GpuKernel::dfs, GpuKernel::lockstep, GpuKernel::lean,
                                            GpuKernel::staged, GpuKernel::staged_shared};

// "dfs", "lockstep", "lean", "staged" or "staged-shared", as --gpu-kernel names them.
const char* gpu_kernel_name(GpuKernel kernel);

// The pass of a lanes kernel (any but dfs), as the kernels and the host's warp model name it.
LockstepKernel lockstep_kind(GpuKernel kernel);

// Passes of one lockstep launch. Between launches the lanes still searching are packed into as
// few warps as hold them, which counts once the prefixes run out and warps thin; a launch costs
// little beside (the lanes stay on the device, two counters come back), so this mostly bounds
// how long one runs. Not yet tuned on a GPU.
inline constexpr std::uint64_t lockstep_pass_budget = std::uint64_t{1} << 20;

// What one launch over `chunks` is given: their prefixes back to back, each chunk's end, the
// bounds at `target`, and room for found_capacity games (at least one).
gpu::TopswopsWork gpu_work(const Plan& plan, const std::vector<int>& chunks, int target,
                           std::uint64_t found_capacity = gpu::default_found_capacity);

// The GPU engine: the same chunks as run_chunks_cpu, with the same results (the caller slices
// long runs). A slice with fewer prefixes than eight a lane is cut finer for the device
// (deepen.hpp); its few prefixes that find a game longer than `target` are finished by more
// passes of the device (rising.hpp). With `small_on_host`, a slice that even cut holds too few
// prefixes for the device (slice_on_host) is left to the caller: false, nothing run. pass_budget is
// the lockstep kernel's, 0 for no limit; found_capacity is small only in tests, to make chunks
// overflow. `cancel` is asked once the slice is cut for the device, before its launch (the
// host's cutting can take a while), and by the lockstep kernels' host between their launches;
// a launch started is not taken back. Once it says so the call hands over the chunks it
// finished (search_on_device; none where it comes during the passes for prefixes that beat the
// target, the slice then left to the run that resumes) and throws Cancelled. Throws in a build
// without CUDA.
bool run_chunks_gpu(const Plan& plan, const std::vector<int>& chunks, int target,
                    const ChunkDone& done, GpuKernel kernel = default_gpu_kernel,
                    std::uint64_t pass_budget = lockstep_pass_budget,
                    std::uint64_t found_capacity = gpu::default_found_capacity, int threads = 1,
                    bool small_on_host = false, const Cancel& cancel = {});

// Threads (dfs) or lanes (lockstep) of the kernel for n cards that the current device holds at
// once; 0 in a build without CUDA.
std::uint64_t gpu_lanes_in_flight(int n, GpuKernel kernel);

// The fewest prefixes worth one launch for n cards on the current device, so that the launch
// does not end with most of the device idle: for dfs two for every thread, for lockstep one for
// every lane, since a lane whose prefix is done takes the next. 1 in a build without CUDA.
std::uint64_t gpu_launch_floor(int n, GpuKernel kernel);

// A GPU lane searching one prefix runs about 450 times slower than a CPU thread (NVIDIA H200,
// n = 17: one chunk of 712 prefixes at 48 M nodes/s on the device, 30 M on one of its host's
// threads), so a slice of fewer prefixes than 512 for each of the host's `threads` runs on
// them instead, with the same chunks; the count is taken after the slice is cut for the device,
// so this leaves only the searches too small to fill it however cut. `lanes` is what the device
// holds at once: 0 where none answers, and then the GPU engine says why.
inline constexpr std::uint64_t host_prefixes_per_thread = 512;

constexpr bool slice_on_host(std::uint64_t prefixes, int threads, std::uint64_t lanes) {
  return lanes > 0 && prefixes < static_cast<std::uint64_t>(threads) * host_prefixes_per_thread;
}

}  // namespace piles::topswops
