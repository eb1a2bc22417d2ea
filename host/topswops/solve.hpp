#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "host/common/backend.hpp"
#include "host/common/slices.hpp"
#include "host/mpi/chunk_runner.hpp"
#include "host/topswops/partial.hpp"
#include "host/topswops/plan.hpp"

namespace piles::topswops {

// Shard I of K: the chunks whose number is I modulo K (the warm-up rounds always run whole,
// since the later targets depend on them).
struct Shard {
  int index = 0, count = 1;
};
// Parses "I/K" with 0 <= I < K; throws UsageError.
Shard parse_shard(std::string_view text);

struct SolveOptions {
  int n = 0;
  Final final = Final::any;
  std::optional<int> bound;  // --bound L
  std::string checkpoint;    // journal file; empty: none
  std::optional<Shard> shard;
  const mpi::Session* session = nullptr;         // --mpi: chunks spread over the job's ranks
  double slice_seconds = default_slice_seconds;  // --slice: engine calls of about this long
  std::optional<double> time_limit;  // --time-limit: stop at the first slice boundary after it
};

struct Solution {
  int n = 0;
  Final final = Final::any;
  int start_target = 0;
  std::optional<int> bound;
  Partial result;
  int chunk_count = 0;
  int chunks_resumed = 0;  // read from the journal instead of computed
  int chunks_done = 0;     // in the journal when the run ended (all, unless stopped)
  std::optional<Shard> shard;
  bool merged = false;               // made by merge from journals
  bool stopped = false;              // the time limit ended the run: resume from the journal
  std::uint64_t nodes_computed = 0;  // by this process (the rate is taken over these)
  double seconds = 0;
  RunTarget target;

  bool complete() const { return !shard && !stopped; }
};

// Runs the search (or the shard), resuming from and writing to the checkpoint journal, in
// slices of about options.slice_seconds on either engine. Under MPI every rank calls it; rank 0
// keeps the journal and returns the answer.
Solution solve(const SolveOptions& options, const RunTarget& target, bool quiet);

// Combines shard journals into the whole answer; refuses journals of different problems,
// chunks that disagree, missing chunks and chunks run with the wrong target.
Solution merge(const std::vector<std::string>& journals);

nlohmann::json to_json(const Solution& s);
std::string to_text(const Solution& s, bool quiet);

}  // namespace piles::topswops
