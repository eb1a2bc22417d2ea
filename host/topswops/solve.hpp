#pragma once

#include <optional>
#include <string>
#include <vector>

#include "host/common/backend.hpp"
#include "host/job/driver.hpp"
#include "host/topswops/partial.hpp"
#include "host/topswops/plan.hpp"

namespace piles::topswops {

// What to solve; how it runs (journal, shard, MPI, slices, time limit, progress) is the job
// driver's.
struct SolveOptions {
  int n = 0;
  Final final = Final::any;
  std::optional<int> bound;  // --bound L
  Tail tail;                 // --tail: from a finished `topswops tail` run
  job::Options run;
};

struct Solution {
  int n = 0;
  Final final = Final::any;
  int start_target = 0;
  std::optional<int> bound;
  Tail tail;
  Partial result;
  job::Status run;                   // chunks, shard, resumed, stopped, merged
  std::uint64_t nodes_computed = 0;  // by this process (the rate is taken over these)
  double seconds = 0;
  RunTarget target;
};

// Runs the search (or its shard) through the job driver, on either engine. Under MPI every rank
// calls it; rank 0 returns the answer.
Solution solve(const SolveOptions& options, const RunTarget& target);

// Combines shard journals into the whole answer; refuses journals of different problems,
// chunks that disagree, missing chunks and chunks run with the wrong target.
Solution merge(const std::vector<std::string>& journals);

}  // namespace piles::topswops
