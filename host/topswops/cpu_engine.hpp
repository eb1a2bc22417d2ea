#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/topswops.hpp"
#include "host/common/slices.hpp"
#include "host/topswops/cpu_path.hpp"
#include "host/topswops/partial.hpp"
#include "host/topswops/plan.hpp"
#include "kernels/topswops_search.hpp"

namespace piles::topswops {

// Called once per finished chunk, one call at a time, with its partial (the prefixes' work
// only: chunk 0's share of the top is added by the caller) and the seconds spent on it.
using ChunkDone = std::function<void(int chunk, const Partial& partial, double seconds)>;

// The CPU engine hands threads pieces of this many prefixes at most: small enough to balance
// the threads at the end of a round, large enough that merging a piece's partial costs nothing.
inline constexpr std::size_t piece_prefixes = 16;

template <bool Vector, int W, class Sink>
void search_prefixes_on(const Plan& plan, const Problem& problem, std::size_t first,
                        std::size_t last, int target, std::uint64_t* nodes, Sink& sink) {
  for (std::size_t i = first; i < last; ++i) {
    Deck<W> start;
    const Frame<W> f = replay<W>(problem, plan.choices.data() + i * plan.depth, plan.depth, start);
    search_below<Vector>(problem, f, plan.depth, start, target, nodes, sink);
  }
}

// The search below the plan's prefixes first..last-1, each from `target` on `problem` (the
// plan's table for that target), games to `sink`, nodes of level l counted in nodes[l], on the
// process's CPU path. The loop of the CPU engine and of the tail job (tail_job.hpp).
template <int W, class Sink>
void search_prefix_range(const Plan& plan, const Problem& problem, std::size_t first,
                         std::size_t last, int target, std::uint64_t* nodes, Sink& sink) {
  if (cpu_path() == CpuPath::vector)
    search_prefixes_on<true, W>(plan, problem, first, last, target, nodes, sink);
  else
    search_prefixes_on<false, W>(plan, problem, first, last, target, nodes, sink);
}

// The plan's prefixes first..last-1 searched from `target` on this thread.
Partial search_prefixes_cpu(const Plan& plan, std::size_t first, std::size_t last, int target);

// A device's work searched on `threads` threads, one partial per chunk of the work: the
// stand-in for a device in tests, and for one told to stop.
std::vector<Partial> search_work_cpu(const gpu::TopswopsWork& work, int threads = 1);

// Called with a piece's prefixes and nodes as each piece finishes, one call at a time: progress
// inside a chunk, which at 18 cards can hold minutes of a CPU's work.
using PieceDone = std::function<void(std::size_t prefixes, std::uint64_t nodes)>;

// The CPU engine: the prefixes of `chunks`, each searched from `target` (forward, or backward
// for a backward plan), on `threads` threads taking small pieces of chunks as they free up
// (dynamic scheduling; a backward plan's threads also share a piece's subtree, backward.hpp).
// Before each piece it asks `cancel`; once that says so, the threads take no more pieces, and
// the call throws Cancelled with the chunks whose pieces all ran reported.
void run_chunks_cpu(const Plan& plan, const std::vector<int>& chunks, int target, int threads,
                    const ChunkDone& done, const PieceDone& piece_done = {},
                    const Cancel& cancel = {});

}  // namespace piles::topswops
