#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "host/bulgarian/backward.hpp"

namespace piles::bulgarian {

// How a journaled run cuts the predecessor forest of each n into its chunks; a journal keeps
// the way it was begun with, so every process names the same subtrees by a chunk's number.
// - levels: the top expanded level by level until 8 subtrees per chunk wait, each chunk taking
//   an equal run of them. The forest has a long neck below the cycle (at n = 80 a single node
//   at depth 24 still holds 63% of the partitions), so one chunk of 32 held 72 to 100% of every
//   n from 151 to 179. Only journals begun before `sampled` use it.
// - sampled: partitions drawn uniformly at random (a fixed seed, so that every process draws the
//   same) are each followed by moves to the cycle, which places them in the forest; the top is
//   opened wherever a node holds more than a quarter of a chunk's share of them, and the chunks
//   take the subtrees, in the order of a depth-first walk, in runs of about equal share.
enum class ForestSplit { levels, sampled };
// The journal's name of a split ("sampled/1"); nothing for levels, which journals never named.
std::optional<std::string> split_name(ForestSplit split);
// The split a journal's problem line names (none: levels); throws UsageError for a name this
// version does not know.
ForestSplit split_of(const nlohmann::json& problem);

// Partitions drawn by the sampled split: the chunks' shares are then within a few percent of
// even for up to about a thousand chunks an n.
inline constexpr int split_samples = 1 << 16;

struct ForestChunks {
  ForestTop top;                   // the nodes above the subtrees, and the subtrees in order
  std::vector<std::size_t> begin;  // chunk c: top.subtrees[begin[c], begin[c + 1])
  std::span<const ForestWalker> chunk(std::size_t c) const {
    return {top.subtrees.data() + begin[c], begin[c + 1] - begin[c]};
  }
};

// The forest of n cut into `chunks` chunks (1..max_chunks_per_n), the same on any number of
// threads and any machine. Every partition of n is in the top or in exactly one chunk; a chunk
// may be empty.
ForestChunks cut_forest(int n, int chunks, ForestSplit split);

}  // namespace piles::bulgarian
