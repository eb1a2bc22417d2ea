#pragma once

#include <functional>
#include <vector>

#include "host/topswops/partial.hpp"
#include "host/topswops/plan.hpp"

namespace piles::topswops {

// Called once per finished chunk, one call at a time, with its partial (the prefixes' work
// only: chunk 0's share of the top is added by the caller) and the seconds spent on it.
using ChunkDone = std::function<void(int chunk, const Partial& partial, double seconds)>;

// The CPU engine: the prefixes of `chunks`, each searched from `target`, on `threads` threads
// taking small pieces of chunks as they free up (dynamic scheduling).
void run_chunks_cpu(const Plan& plan, const std::vector<int>& chunks, int target, int threads,
                    const ChunkDone& done);

}  // namespace piles::topswops
