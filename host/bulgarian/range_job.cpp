#include "host/bulgarian/range_job.hpp"

#include <fmt/format.h>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>

#include "host/bulgarian/backward.hpp"
#include "host/bulgarian/forest_chunks.hpp"
#include "host/common/checkpoint.hpp"
#include "host/common/clock.hpp"
#include "host/common/error.hpp"
#include "host/common/json_integer.hpp"
#include "host/common/partition_table.hpp"
#include "host/mpi/chunk_runner.hpp"

namespace piles::bulgarian {
namespace {

nlohmann::json counts_to_json(const ForestCounts& c) {
  return {{"histogram", c.histogram}, {"leaves", c.leaves}};
}

ForestCounts counts_from_json(const nlohmann::json& j, const std::string& where) {
  try {
    ForestCounts c;
    c.histogram = json_integers<std::uint64_t>(j.at("histogram"));
    c.leaves = json_integer<std::uint64_t>(j.at("leaves"));
    return c;
  } catch (const nlohmann::json::exception&) {
    throw UsageError(fmt::format("{}: not a Bulgarian chunk record", where));
  }
}

// The range's job and what it keeps between calls: each n's forest cut into its chunks the same
// way by every process, so that a chunk number names the same subtrees everywhere.
class RangeJob {
 public:
  RangeJob(const RangeRun& run, RunTarget target, std::function<void(const Analysis&)> done)
      : first_(static_cast<int>(run.range.first)),
        last_(static_cast<int>(run.range.last)),
        chunks_(run.chunks_per_n),
        split_(run.split),
        kernel_(run.walk_kernel),
        target_(std::move(target)),
        done_(std::move(done)) {
    if (first_ < 1 || last_ > analyze_max_n || first_ > last_)
      throw UsageError(fmt::format("n = {} is out of range (1..{})", first_ < 1 ? first_ : last_,
                                   analyze_max_n));
    for (int n = first_; n <= last_; ++n) partitions_.push_back(partition_count(n));
  }

  job::Job describe() {
    job::Job j;
    j.identity = {{"game", "bulgarian"},
                  {"engine", "backward"},
                  {"first", first_},
                  {"last", last_},
                  {"chunks_per_n", chunks_}};
    if (const std::optional<std::string> name = split_name(split_)) j.identity["split"] = *name;
    j.chunk_count = static_cast<job::Chunk>(last_ - first_ + 1) * chunks_;
    for (int n = first_; n <= last_; ++n) {
      std::vector<job::Chunk>& round = j.rounds.emplace_back();
      for (int c = 0; c < chunks_; ++c) round.push_back(first_chunk(n) + c);
    }
    // p(n) shared out over n's chunks, so that they add up to it (but for the few partitions
    // at the top of the forest, which no chunk holds), as the sampled split shares them; where
    // a chunk holds more, the walk says so as it goes (live_units).
    j.weight = [this](job::Chunk c) {
      const std::uint64_t p = partitions_[c / chunks_], k = c % chunks_;
      return std::max<std::uint64_t>(1, p * (k + 1) / chunks_ - p * k / chunks_);
    };
    j.live_units = true;
    j.weights_in_unit = true;
    j.measure = [](const nlohmann::json& payload) {
      return counts_from_json(payload, "chunk").nodes();
    };
    // A slice holds at least one chunk of the largest n.
    j.slice_floor = [this, weight = j.weight](const RunTarget&) { return weight(last_chunk()); };
    j.label = first_ == last_ ? fmt::format("bulgarian n={}", first_)
                              : fmt::format("bulgarian n={}..{}", first_, last_);
    j.unit = "partitions";
    j.check = [](job::Chunk, const nlohmann::json& payload, const std::string& where) {
      counts_from_json(payload, where);
    };
    // One chunk at a time, on every thread: the CPU walk shares a chunk's subtrees out as its
    // threads run dry, and in the levels split the first chunk of an n holds most of its forest
    // (ForestSplit). `cancel` is asked before each chunk, inside the CPU walk and
    // between the GPU walk's rounds or launches.
    j.run = [this](const std::vector<job::Chunk>& chunks, int, const RunTarget& run,
                   const job::ChunkDone& done, const UnitsDone& working, const Cancel& cancel) {
      for (const job::Chunk chunk : chunks) {
        if (cancelled(cancel)) throw Cancelled();
        const auto start = std::chrono::steady_clock::now();
        const ForestCounts counts = walk(chunk, run, working, cancel);
        done(chunk, counts_to_json(counts), seconds_since(start));
      }
    };
    j.round_done = [this](int round, const job::Records& records) { finish(round, records); };
    return j;
  }

 private:
  job::Chunk first_chunk(int n) const { return static_cast<job::Chunk>(n - first_) * chunks_; }

  const ForestChunks& cut(int n) {
    const std::lock_guard lock(mutex_);
    auto it = cuts_.find(n);
    if (it == cuts_.end()) it = cuts_.emplace(n, cut_forest(n, chunks_, split_)).first;
    return it->second;
  }

  // The top of n, out of the cache: once n is finished no chunk of it runs again.
  ForestTop take_top(int n) {
    cut(n);
    const std::lock_guard lock(mutex_);
    return std::move(cuts_.extract(n).mapped().top);
  }

  job::Chunk last_chunk() const {
    return static_cast<job::Chunk>(last_ - first_ + 1) * chunks_ - 1;
  }

  ForestCounts walk(job::Chunk chunk, const RunTarget& run, const UnitsDone& working,
                    const Cancel& cancel) {
    const int n = first_ + static_cast<int>(chunk / chunks_);
    const std::span<const ForestWalker> subtrees = cut(n).chunk(chunk % chunks_);
    std::vector<ForestWalker> part(subtrees.begin(), subtrees.end());
    if (run.backend == Backend::gpu)
      return walk_subtrees_gpu(n, std::move(part), std::nullopt, std::nullopt, kernel_, working,
                               cancel)
          .counts;
    return walk_subtrees_cpu(std::move(part), depth_bound(n), run.threads, working, cancel);
  }

  // Every chunk of n is in: the analysis of n, checked against p(n).
  void finish(int round, const job::Records& records) {
    const int n = first_ + round;
    ForestTop t = take_top(n);
    Analysis a;
    a.n = n;
    a.partitions = partitions_[round];
    a.engine = Engine::backward;
    a.target = target_;
    bool resumed = false;
    for (job::Chunk c = first_chunk(n); c < first_chunk(n) + chunks_; ++c) {
      const job::Record& r = records.at(c);
      t.counts.merge(counts_from_json(r.payload, "chunk"));
      a.seconds += r.seconds;
      resumed = resumed || r.resumed;
    }
    // Chunks read from a journal that do not add up are bad input (an edited journal, or one of
    // another version); chunks this run computed that do not are an engine failure.
    if (t.counts.nodes() != a.partitions && resumed)
      throw UsageError(fmt::format("n = {}: the journal's chunks count {} partitions, not {}", n,
                                   t.counts.nodes(), a.partitions));
    if (t.counts.nodes() != a.partitions)
      throw std::runtime_error(fmt::format("n = {}: the chunks visited {} partitions, not {}", n,
                                           t.counts.nodes(), a.partitions));
    a.transient_histogram = std::move(t.counts.histogram);
    a.garden_of_eden = t.counts.leaves;
    a.cycle_ranks = std::move(t.root_ranks);
    finish_analysis(a);
    done_(a);
  }

  int first_, last_, chunks_;
  ForestSplit split_;
  WalkKernel kernel_;
  RunTarget target_;
  std::function<void(const Analysis&)> done_;
  std::vector<std::uint64_t> partitions_;  // p(n) for n in the range
  std::map<int, ForestChunks> cuts_;
  std::mutex mutex_;
};

// The problem a Bulgarian journal was begun with, where the run's checkpoint is one; a journal
// of another game is the job's to refuse, in its words.
std::optional<nlohmann::json> begun_problem(const std::string& journal) {
  if (!journal_begun(journal)) return std::nullopt;
  nlohmann::json problem = read_journal(journal).problem;
  if (!problem.is_object() || problem.value("game", "") != "bulgarian") return std::nullopt;
  return problem;
}

}  // namespace

std::optional<int> begun_chunks_per_n(const std::string& journal) {
  const auto problem = begun_problem(journal);
  if (!problem) return std::nullopt;
  const auto chunks = problem->find("chunks_per_n");
  if (chunks == problem->end() || !chunks->is_number_integer()) return std::nullopt;
  const auto count = chunks->get<std::int64_t>();
  if (count < 1 || count > max_chunks_per_n) return std::nullopt;
  return static_cast<int>(count);
}

job::Outcome analyze_range(const RangeRun& run, const RunTarget& target,
                           const std::function<void(const Analysis&)>& done) {
  // A journal already begun keeps its split: rank 0 reads it, and every rank must cut alike.
  // Where the chunks are only a plain run's way through the forest (no journal, shard or
  // ranks), the cut by levels costs nothing, and the run shares its threads out inside each
  // chunk anyway: the sampled cut took 0.18 s of n = 100's 1.1 s on one thread.
  const mpi::Session* session = run.run.session;
  RangeRun taken = run;
  if (run.run.checkpoint.empty() && !run.run.shard && !session) taken.split = ForestSplit::levels;
  if (!session || session->root())
    if (const auto problem = begun_problem(run.run.checkpoint)) taken.split = split_of(*problem);
  // Rank 0's chunks too: where the others cannot read the journal, they took the default.
  if (session) {
    taken.split = static_cast<ForestSplit>(
        std::stoi(mpi::broadcast(*session, std::to_string(static_cast<int>(taken.split)))));
    taken.chunks_per_n = std::stoi(mpi::broadcast(*session, std::to_string(taken.chunks_per_n)));
  }
  RangeJob range(taken, target, done);
  return job::run(range.describe(), run.run, target);
}

namespace {

// The range and chunks a journal names, for the job that reads it back.
RangeRun journal_range(const std::string& journal) {
  RangeRun run;
  job::read_identity(journal, "bulgarian", [&](const nlohmann::json& p) {
    run.range = {json_integer<int>(p.at("first")), json_integer<int>(p.at("last"))};
    run.chunks_per_n = json_integer<int>(p.at("chunks_per_n"));
    run.split = split_of(p);
  });
  // The job lists every chunk: a count no analyze run takes could exhaust the memory.
  if (run.chunks_per_n < 1 || run.chunks_per_n > max_chunks_per_n ||
      run.range.first > run.range.last)
    throw UsageError(fmt::format("{}: not a Bulgarian journal", journal));
  return run;
}

RunTarget merged_target() {
  RunTarget merged;
  merged.device = "merge";
  return merged;
}

}  // namespace

job::Outcome merge_range(const std::vector<std::string>& journals,
                         const std::function<void(const Analysis&)>& done) {
  if (journals.empty()) throw UsageError("merge: no journal files given");
  const RangeRun run = journal_range(journals.front());
  // Handed on once every n has checked out: a journal refused at its last n prints nothing.
  std::vector<Analysis> analyses;
  RangeJob job(run, merged_target(), [&](const Analysis& a) { analyses.push_back(a); });
  job::Outcome outcome = job::merge(job.describe(), journals);
  for (const Analysis& a : analyses) done(a);
  return outcome;
}

job::Survey survey_range(const std::string& journal) {
  const RangeRun run = journal_range(journal);
  RangeJob job(run, merged_target(), {});
  job::Survey s = job::survey(job.describe(), journal);
  s.go_on_options = fmt::format(" --chunks {}", run.chunks_per_n);
  return s;
}

job::Outcome read_finished_range(const std::string& journal,
                                 const std::function<void(const Analysis&)>& done) {
  const RangeRun run = journal_range(journal);
  RangeJob job(run, merged_target(), done);
  return job::read_finished(job.describe(), journal);
}

}  // namespace piles::bulgarian
