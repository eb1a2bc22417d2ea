#pragma once

#include <vector>

#include "host/topswops/cpu_engine.hpp"

namespace piles::topswops {

// The GPU engine: the same chunks as run_chunks_cpu, with the same results, in launches of
// whole chunks (at least launch_prefixes prefixes each, so the device stays busy to the end
// of each launch). Throws in a build without CUDA.
void run_chunks_gpu(const Plan& plan, const std::vector<int>& chunks, int target,
                    const ChunkDone& done);

inline constexpr std::size_t launch_prefixes = std::size_t{1} << 23;

}  // namespace piles::topswops
