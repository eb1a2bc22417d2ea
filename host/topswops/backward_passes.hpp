#pragma once

// The backward search of games ending sorted in passes (kernels/topswops_backward.hpp): the
// host's loop over passes, which splits what is left between them, on any runner; the host's
// own runner, which the tests hold against the CPU engine; and the device's run of a slice.

#include <cstdint>
#include <memory>
#include <vector>

#include "host/common/slices.hpp"
#include "host/topswops/cpu_engine.hpp"
#include "host/topswops/plan.hpp"
#include "kernels/topswops_backward.hpp"

namespace piles::topswops {

// Nodes a lane searches in a pass: on a device about a hundredth of a second.
inline constexpr std::uint64_t backward_pass_budget = std::uint64_t{1} << 16;

// A runner on this host's threads, `lanes` items a pass wanted, each search on the deck's words as
// the device's (tests compare it with the CPU engine, whose deck is in vector registers).
template <int W>
std::unique_ptr<gpu::BackwardPasses<W>> host_backward_passes(const backward::Problem& problem,
                                                             int target, std::uint32_t slots,
                                                             std::size_t lanes, int threads);

// The chunks' prefixes (a backward plan's) at the runner's target, in passes of `budget` nodes a
// lane on `runner` (made for as many slots as chunks). Between passes, while fewer items are left
// than twice the runner's lanes, each hands the moves still to come at the shallowest node of its
// path to a new item (backward::share). Each chunk's result, as the CPU engine's, goes to
// `done` once all its items are done; `cancel` is asked between passes, and where it says stop
// the chunks finished go to `done` and the call throws Cancelled.
template <int W>
void run_backward_passes(const Plan& plan, const std::vector<int>& chunks,
                         gpu::BackwardPasses<W>& runner, std::uint64_t budget,
                         const ChunkDone& done, const Cancel& cancel = {});

// The chunks on the current device in passes, their results checked like the CPU engine's:
// a chunk with more longest games than the device's buffer kept is searched again on `threads`
// CPU threads. Only where CUDA is present.
void run_backward_chunks_gpu(const Plan& plan, const std::vector<int>& chunks, int target,
                             int threads, const ChunkDone& done, const Cancel& cancel = {},
                             std::uint64_t budget = backward_pass_budget,
                             std::uint64_t found_capacity = gpu::default_found_capacity);

}  // namespace piles::topswops
