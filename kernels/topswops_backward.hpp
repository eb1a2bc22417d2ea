#pragma once

// The backward search of games ending sorted (core/topswops_backward.hpp) in passes, the
// interface that both its runners give: the host's threads (the stand-in in tests) and a
// device. Each pass takes every item (a search's cursor and the chunk it belongs to) for at most
// a budget of nodes and leaves its cursor where it stopped, so that no subtree, however heavy,
// holds a launch for longer than the budget; between passes the host splits what is left
// (backward_passes.hpp).

#include <cstdint>
#include <memory>
#include <vector>

#include "core/topswops_backward.hpp"
#include "kernels/topswops_search.hpp"

namespace piles::gpu {

template <int W>
struct BackwardItem {
  topswops::backward::Cursor<W> at;
  std::uint32_t slot;  // the chunk's place in the slice
};

template <int W>
class BackwardPasses {
 public:
  virtual ~BackwardPasses() = default;
  // Every item searched from its cursor for at most `budget` nodes, its cursor left where it
  // stopped; finished[i] is set where item i's search is done.
  virtual void pass(std::vector<BackwardItem<W>>& items, std::uint64_t budget,
                    std::vector<std::uint8_t>& finished) = 0;
  // What every slot found and counted so far: its longest games of at least the target (best -1
  // for none), their count and their decks (start, and the sorted deck as final), and its nodes
  // by level.
  virtual std::vector<TopswopsChunkResult> collect() = 0;
  // Items a pass keeps busy: enough for every lane of the device.
  virtual std::size_t lanes() const = 0;
};

// A device's runner for `slots` chunks at `target`, pruned by `problem` (its table copied), its
// games kept in a buffer of `found_capacity` (collect's counts stay exact past it; the decks
// kept then fall short of the count). Only where CUDA is present.
template <int W>
std::unique_ptr<BackwardPasses<W>> device_backward_passes(
    const topswops::backward::Problem& problem, int target, std::uint32_t slots,
    std::uint64_t found_capacity);

}  // namespace piles::gpu
