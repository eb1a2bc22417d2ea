#pragma once

#include <functional>
#include <string>

#include "host/bulgarian/analysis.hpp"
#include "host/common/parse.hpp"
#include "host/mpi/chunk_runner.hpp"

namespace piles::bulgarian {

// The backward analysis of every n in a range, each n split into numbered chunks of subtrees
// of its predecessor forest (DESIGN.md section 11): finished chunks go to a checkpoint journal,
// so a killed run resumes where it stopped, and under MPI the chunks are spread over the ranks.
struct ChunkedRun {
  IntRange range{0, 0};
  int chunks_per_n = 64;
  std::string checkpoint;                 // journal file; empty: none
  const mpi::Session* session = nullptr;  // null: this process does every chunk
};

// Calls `done` with each n's analysis, in increasing n, on rank 0 (or the only process).
void analyze_chunked(const ChunkedRun& run, const RunTarget& target, bool quiet,
                     const std::function<void(const Analysis&)>& done);

}  // namespace piles::bulgarian
