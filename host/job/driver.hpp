#pragma once

// The one driver of every long run (DESIGN.md section 11). A game describes its job: an
// identity, numbered chunks in rounds, how chunks run on an engine, how a round's target
// follows from the rounds before it. The driver does the rest for every game alike: journal and
// resume, shards and merge, MPI, progress, slices of about --slice seconds, --time-limit, and
// the check that no chunk is missing.

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "host/common/backend.hpp"
#include "host/common/progress.hpp"
#include "host/common/slices.hpp"
#include "host/mpi/chunk_runner.hpp"

namespace piles::job {

using Chunk = std::uint64_t;

// Shard I of K: the chunks whose number is I modulo K.
struct Shard {
  int index = 0, count = 1;
  bool owns(Chunk chunk) const { return chunk % count == static_cast<Chunk>(index); }
  std::string name() const { return std::to_string(index) + "/" + std::to_string(count); }
};
// Parses "I/K" with 0 <= I < K <= max_count; throws UsageError.
Shard parse_shard(std::string_view text, int max_count);

// One finished chunk: the game's partial result, the target its round ran with and the seconds
// its engine took. The journal line holds the payload with "target" and "seconds" added.
struct Record {
  nlohmann::json payload;
  int target = 0;
  double seconds = 0;
  bool resumed = false;  // read from a journal (or merged), not computed by this run
};
using Records = std::map<Chunk, Record>;

// Called once per finished chunk, never by two threads at once.
using ChunkDone = std::function<void(Chunk, nlohmann::json payload, double seconds)>;

struct Job {
  nlohmann::json identity;  // what a journal must name to belong to this job
  Chunk chunk_count = 0;
  // Every chunk in exactly one round, in the order it runs. Rounds run one after another.
  std::vector<std::vector<Chunk>> rounds;
  // The first rounds run whole in every shard: the targets of later rounds depend on them.
  int shared_rounds = 0;
  // Targets: a round starts from start_target raised by every record of the rounds before it.
  // Without `raise` the job has no targets.
  int start_target = 0;
  std::function<int(int target, const nlohmann::json& payload)> raise;
  // Units of work in a chunk (the progress bar's, and the slices'), and the fewest units worth
  // one engine call on a target.
  std::function<std::uint64_t(Chunk)> weight;
  std::function<std::uint64_t(const RunTarget&)> slice_floor;
  std::string label, unit;  // for the progress bar: "topswops n=13", "prefixes"
  // Optional, where `weight` only estimates a chunk's work: the units a finished chunk took (its
  // payload's own count), which the progress's rate counts instead. With it, an engine may also
  // report units of the chunks it is on as it goes (run's `working`): the progress counts them
  // at once, and each chunk, once finished, adds only its weight and measure less what its call
  // showed before it.
  std::function<std::uint64_t(const nlohmann::json& payload)> measure;
  // Where one chunk can hold most of a round's work (the first chunk of a Bulgarian n held 83%
  // of its forest): the engine reports the units of the chunk it is on as it goes (run's
  // `working`, one chunk at a time per call), and the percentage, rate and ETA count real
  // units, each finished chunk its `measure`. Each round's weights then add up to its units;
  // a chunk's weight only sizes slices.
  bool live_units = false;
  // Whether `weight` is in `unit` (an estimate of the chunk's units): then a survey of a journal
  // can say how much work is left.
  bool weights_in_unit = false;
  std::string preamble;  // optional: the line the progress shows first (the work's estimate)
  // Optional, where `weight` estimates a chunk's work at the target the run starts from and a
  // higher target means less work (a Topswops search prunes more): told a round's target before
  // the round runs, with the chunks left (the round's and the later rounds'), it weighs them
  // again at that target where it has risen, and returns a line to show (their new estimate);
  // none where their weights stay as they were. Where it returns a line, slice_floor is asked
  // again: the floor is in the same units.
  std::function<std::optional<std::string>(int target, const std::vector<Chunk>& left,
                                           const RunTarget& run)>
      retarget;
  // Throws UsageError naming `where` unless the payload is a well-formed result of the chunk.
  std::function<void(Chunk, const nlohmann::json& payload, const std::string& where)> check;
  // Runs the chunks with the round's target on the target device (selected already),
  // reporting each one to `done` as it finishes (and, with `measure`, units to `working` as it
  // goes). Between pieces of work it asks `cancel`, and once that says so throws
  // Cancelled, leaving the chunks it has not finished.
  std::function<void(const std::vector<Chunk>&, int target, const RunTarget&, const ChunkDone&,
                     const UnitsDone& working, const Cancel& cancel)>
      run;
  // Optional: on rank 0 of a run that is not a shard, each round once all its chunks are in
  // (resumed or computed), in order; in a merge, every round.
  std::function<void(int round, const Records&)> round_done;
};

struct Options {
  std::string checkpoint;  // journal file; empty: none
  std::optional<Shard> shard;
  const mpi::Session* session = nullptr;  // --mpi: chunks spread over the job's ranks
  double slice_seconds = default_slice_seconds;
  // Stop this many seconds after `started`, once the run has finished a chunk of its own (so
  // that the same command run again always gets on): slices are cut to end by then, and the
  // chunks in progress then are left to the run that resumes.
  std::optional<double> time_limit;
  double started = steady_seconds();  // when the command began, on the steady clock
  bool quiet = false;                 // no progress bar, no status lines
  double status_every = default_status_every;
};

// How a run with these options shows its progress: only on rank 0 of an MPI job. For the job's
// own progress and any work a command does before the job starts.
inline ProgressStyle progress_style(const Options& options) {
  return {.quiet = options.quiet || (options.session && !options.session->root()),
          .status_every = options.status_every};
}

// How much of a job a result covers, for every game's report alike.
struct Status {
  std::optional<Shard> shard;
  Chunk chunks = 0;        // in the whole job
  int chunks_resumed = 0;  // read from the journal instead of computed
  int chunks_done = 0;     // in the journal when the run ended
  bool stopped = false;    // the run ended early: the same command resumes
  std::string stopped_by;  // "--time-limit" or "SIGTERM", when stopped
  bool merged = false;     // read from journals (merge, read_finished), not run

  bool complete() const { return !shard && !stopped; }
};

// What one device did in a run on several (--devices): its chunks, their units of work and the
// seconds of its slices.
struct DeviceShare {
  static constexpr int cpu = -1;  // the CPU worker (--devices ...,cpu)
  int device = 0;
  std::uint64_t chunks = 0, units = 0;
  double seconds = 0;
};

struct Outcome {
  Records records;  // on rank 0: every chunk, or the shard's, or those done when stopped
  Status status;
  double seconds = 0;  // wall clock of the run; of a merge, the chunks' seconds added up
  // The engine calls this process made, in order (device by device): how well slices held
  // --slice.
  std::vector<SliceTime> slices;
  std::vector<DeviceShare> devices;  // a run on several devices, each one's share
};

// Each device's share of a run on several, for a game's report: an array of objects (device,
// chunks, units, seconds, rate per second) and one text line a device.
nlohmann::json devices_json(const std::vector<DeviceShare>& shares);
std::string devices_text(const std::vector<DeviceShare>& shares, const std::string& unit);

// Throws UsageError for options that cannot go together (--time-limit without --checkpoint or
// with --mpi, ...). run() checks them first; a command that works before its job starts checks
// them before that work.
void check_options(const Options& options);

// Runs the job (or its shard). Under MPI every rank calls it; rank 0 keeps the journal and
// returns the records, the others an empty outcome. A target with several devices runs a
// worker thread for each, taking slices of every round as they free up; the first that fails
// ends the run with one line naming its device and chunk, every chunk finished before in the
// journal.
Outcome run(const Job& job, const Options& options, const RunTarget& target);

// The problem a journal names, for a game to build the job that merges it. Throws UsageError
// naming the file unless the journal is one of `game` ("topswops", ...); `read` takes the
// fields it needs, and a field missing or of the wrong type is a UsageError too.
void read_identity(const std::string& file, const std::string& game,
                   const std::function<void(const nlohmann::json& problem)>& read);

// Combines the journals of shards into the whole job; refuses journals of other problems,
// chunks that disagree, missing chunks and chunks run with the wrong target.
Outcome merge(const Job& job, const std::vector<std::string>& journals);

// What a run under way (or stopped) has finished: hands each round of the journal whose chunks
// are all in to job.round_done, in order, up to the first round that is not; returns those
// rounds' records and the finished chunks of that first unfinished round. Refuses a journal of
// another problem, like merge.
Outcome read_finished(const Job& job, const std::string& journal);

// How far a journal has come, read without running anything: what `piles journal show` says of
// a journal of any game.
struct Survey {
  // The shard that wrote the journal, where its runs name one: then chunks, rounds and the work
  // count the chunks that shard runs (the shared rounds' and its own), of the job's job_chunks.
  std::optional<Shard> shard;
  Chunk job_chunks = 0;
  Chunk chunks = 0, chunks_done = 0;
  std::vector<Chunk> left;  // the chunks not done, in the order they run
  int rounds = 0, rounds_complete = 0;
  // The first round not complete (none where all are): its chunks, and how many are in.
  std::optional<int> open_round;
  Chunk open_round_chunks = 0, open_round_done = 0;
  // A job with targets: the target the open round's chunks left run from (the records of the
  // rounds before it raise it; a chunk of its own that found more does not).
  std::optional<int> open_round_target;
  double seconds = 0;  // the chunks' seconds added up
  // Where the job's weights are in its unit: the units the finished chunks took (their
  // measure) and the units the others weigh, in `unit`.
  struct Work {
    double done = 0, left = 0;
  };
  std::optional<Work> work;
  std::string unit;
  std::optional<int> best;  // a job with targets: the longest game its chunks found (0: none)
  // The options, besides the problem's words, that the command going on with the journal needs:
  // the game's survey names them from its plan.
  std::string go_on_options;
};
// Refuses a journal of another problem, damaged lines and chunks run with the wrong target, like
// merge; missing chunks are what it counts.
Survey survey(const Job& job, const std::string& journal);

// The chunks a run of the job runs, in order: all of them, or a shard's (the shared rounds' and
// its own).
std::vector<Chunk> chunks_run(const Job& job, const std::optional<Shard>& shard);

}  // namespace piles::job
