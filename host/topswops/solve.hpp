#pragma once

#include <optional>
#include <string>
#include <vector>

#include "host/common/backend.hpp"
#include "host/job/driver.hpp"
#include "host/topswops/backward.hpp"
#include "host/topswops/estimate.hpp"
#include "host/topswops/gpu_engine.hpp"
#include "host/topswops/lockstep_engine.hpp"
#include "host/topswops/partial.hpp"
#include "host/topswops/plan.hpp"

namespace piles::topswops {

// The CPU engines: `dfs`, each thread searching whole prefixes depth first (the fast one),
// `lockstep`, the GPU's lockstep search run on the host (slower: it is there to test the GPU's
// algorithm and to measure its lane use), and `backward`, for games ending sorted only: the tree
// of moves back from the sorted deck (backward.hpp), on CPU threads.
enum class CpuEngine { dfs, lockstep, backward };

// What to solve, and with which engine; how it runs (journal, shard, MPI, slices, time limit,
// progress) is the job driver's. Every engine gives the same chunks, so journals mix freely.
inline constexpr int quick_from_n = 17;
inline constexpr double default_quick_seconds = 60;
// The quick search ends sooner once a whole round of its beams past this many seconds finds
// nothing longer (QuickBoundOptions::stall_floor): at 17 and 18 cards no round after the one
// that found the best did, up to beams of 2^20 decks (results/bench/quick_bound.md).
inline constexpr double quick_stall_seconds = 10;

struct SolveOptions {
  int n = 0;
  Final final = Final::any;
  std::optional<int> bound;  // --bound L
  Tail tail;                 // --tail: from a finished `topswops tail` run
  CpuEngine engine = CpuEngine::dfs;
  backward::Prune prune = backward::Prune::play;  // of the backward engine
  GpuKernel gpu_kernel = default_gpu_kernel;
  // On a GPU, slices the host's threads would finish sooner run there (slice_on_host);
  // false sends every slice to the device (tests, checks of the kernels).
  bool small_slices_on_host = true;
  // Without --bound, from quick_from_n cards on and not in a shard: seconds of a quick search
  // for a long game to start from (quick_bound.hpp), where f(n-1) would cost minutes of rounds
  // that only find one; 0: none.
  double quick_seconds = default_quick_seconds;
  int quick_from = quick_from_n;  // lower in tests, to try it where it is quick
  job::Options run;
};

// Whether a run takes its start from a quick search: run now, or the one a journal already begun
// recorded (which any run resuming it keeps, --quick 0 included). Never a run told --bound; not
// a shard starting its journal, or below quick_from cards.
bool starts_from_quick_search(const SolveOptions& options, bool journal_begun);

struct Solution {
  int n = 0;
  Final final = Final::any;
  bool backward = false;  // searched back from the sorted deck: its nodes are that tree's
  int start_target = 0;
  std::optional<int> bound;
  Tail tail;
  Partial result;
  job::Status run;                   // chunks, shard, resumed, stopped, merged
  std::uint64_t nodes_computed = 0;  // by this process (the rate is taken over these)
  double seconds = 0;
  std::vector<SliceTime> slices;  // the engine calls of this process, as the driver timed them
  RunTarget target;
  std::optional<LaneUse> lane_use;  // the lockstep CPU engine's warp model, this process's part
  int chunks_on_host = 0;           // of a GPU run, by this process: in slices too small for it
  std::vector<job::DeviceShare> devices;  // a run on several devices, each one's share
  std::optional<Estimate> estimate;       // of the search's nodes, made before it ran
  std::vector<int> start_deck;  // the quick search's game the start target came from, if any
  std::string quick_cut_by;     // "--time-limit" or "SIGTERM" where that cut the search short
  std::vector<int> grown_from;  // the published (n-1)-card deck that game was grown from, if any
};

// Runs the search (or its shard) through the job driver, on either engine. Under MPI every rank
// calls it; rank 0 returns the answer.
Solution solve(const SolveOptions& options, const RunTarget& target);

// Combines shard journals into the whole answer; refuses journals of different problems,
// chunks that disagree, missing chunks and chunks run with the wrong target.
Solution merge(const std::vector<std::string>& journals);

// The answer in one run's journal once every chunk is in it; nothing while the run is under
// way. Refuses a journal of another game, like merge.
std::optional<Solution> read_finished(const std::string& journal);

// What one run's journal holds so far, finished or not: the rounds whose chunks are all in and
// the longest games among them (run.chunks_done of run.chunks).
Solution read_so_far(const std::string& journal);

// How far a journal of solve (or of the backward search) has come (job::survey); from 14 cards
// on, or at any size where `used` is given (the estimate then goes there), the chunks not done
// are estimated in nodes, by probes of them alone on `threads` threads.
job::Survey survey_journal(const std::string& journal, int threads, Estimate* used = nullptr);

}  // namespace piles::topswops
