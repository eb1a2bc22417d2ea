#pragma once

#include <vector>

#include "host/topswops/cpu_engine.hpp"

namespace piles::topswops {

// The GPU engine: the same chunks as run_chunks_cpu, with the same results, in one launch (the
// caller slices long runs). Throws in a build without CUDA.
void run_chunks_gpu(const Plan& plan, const std::vector<int>& chunks, int target,
                    const ChunkDone& done);

// The fewest prefixes worth one launch for n cards on the current device: two for every thread
// it holds at once, so that the launch does not end with most of the device idle.
std::uint64_t gpu_launch_floor(int n);

}  // namespace piles::topswops
