#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "host/bulgarian/analysis.hpp"
#include "host/bulgarian/backward.hpp"
#include "host/bulgarian/forest_chunks.hpp"
#include "host/common/parse.hpp"
#include "host/job/driver.hpp"

namespace piles::bulgarian {

// The backward analysis of every n in a range as one job for the job driver: each n is a round
// of numbered chunks, each chunk some subtrees of the predecessor forest of n (DESIGN.md
// section 11), so the range can be journaled and resumed, cut into shards and merged, or spread
// over MPI ranks.
inline constexpr int max_chunks_per_n = 1 << 16;

struct RangeRun {
  IntRange range{0, 0};
  int chunks_per_n = 64;  // 1..max_chunks_per_n
  // How a journaled, sharded or MPI run cuts each n's forest into its chunks; one that goes on
  // with a journal takes the journal's, and a plain run cuts by levels.
  ForestSplit split = ForestSplit::sampled;
  WalkKernel walk_kernel = default_walk_kernel;  // on a GPU
  job::Options run;
};

// Calls `done` with each n's analysis, in increasing n, as soon as its chunks are all in (on
// rank 0, never in a shard). Throws UsageError for n outside 1..analyze_max_n.
job::Outcome analyze_range(const RangeRun& run, const RunTarget& target,
                           const std::function<void(const Analysis&)>& done);

// The analyses of every n from the journals of a range's shards, handed to `done` in increasing
// n once every n has checked out.
job::Outcome merge_range(const std::vector<std::string>& journals,
                         const std::function<void(const Analysis&)>& done);

// The analyses of the n whose chunks are all in one range's journal, of a run under way or
// stopped: handed to `done` in increasing n, up to the first n not finished.
job::Outcome read_finished_range(const std::string& journal,
                                 const std::function<void(const Analysis&)>& done);

// The chunks per n of a Bulgarian journal already begun (none where `journal` is not one yet):
// a run told no --chunks goes on with them.
std::optional<int> begun_chunks_per_n(const std::string& journal);

// How far an analyze journal has come (job::survey).
job::Survey survey_range(const std::string& journal);

}  // namespace piles::bulgarian
