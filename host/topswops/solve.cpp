#include "host/topswops/solve.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <memory>

#include "host/common/checkpoint.hpp"
#include "host/common/clock.hpp"
#include "host/common/error.hpp"
#include "host/common/output.hpp"
#include "host/common/parse.hpp"
#include "host/common/progress.hpp"
#include "host/topswops/cpu_engine.hpp"
#include "host/topswops/gpu_engine.hpp"

namespace piles::topswops {
namespace {

using Records = std::map<int, ChunkRecord>;

Records read_records(const std::map<std::uint64_t, nlohmann::json>& chunks, const Plan& plan,
                     const std::string& file) {
  Records records;
  for (const auto& [id, payload] : chunks) {
    const std::string where = fmt::format("{}: chunk {}", file, id);
    if (id >= static_cast<std::uint64_t>(plan.chunk_count))
      throw UsageError(fmt::format("{}: there are only {} chunks", where, plan.chunk_count));
    records.emplace(static_cast<int>(id), chunk_from_json(payload, plan.n, where));
  }
  return records;
}

// The target of a round: the start target, raised by every game found in earlier rounds.
int round_target(const Plan& plan, const Records& records, int round) {
  int target = plan.start_target;
  for (const auto& [chunk, record] : records)
    if (plan.round_of(chunk) < round) target = std::max(target, record.partial.best);
  return target;
}

void check_targets(const Plan& plan, const Records& records, const std::string& source) {
  for (const auto& [chunk, record] : records) {
    const int expected = round_target(plan, records, plan.round_of(chunk));
    if (record.target != expected)
      throw UsageError(
          fmt::format("{}: chunk {} was searched from target {}, but the rounds before it give {}",
                      source, chunk, record.target, expected));
  }
}

std::uint64_t chunk_prefixes(const Plan& plan, int chunk) {
  return plan.chunk_begin(chunk + 1) - plan.chunk_begin(chunk);
}

// The fewest prefixes worth one engine call on the calling thread's device: enough for every
// GPU thread, or a piece for every CPU thread.
std::uint64_t slice_floor(const Plan& plan, const RunTarget& run) {
  return run.backend == Backend::gpu ? gpu_launch_floor(plan.n)
                                     : static_cast<std::uint64_t>(run.threads) * piece_prefixes;
}

// The chunks in slices of whole chunks; false when `stop` ended it early. Selects the device
// first: rank 0 of an MPI job calls this from its second thread too.
bool run_engine(const Plan& plan, const std::vector<int>& chunks, int target, const RunTarget& run,
                const ChunkDone& done, SliceSizer& sizer, const std::function<bool()>& stop = {}) {
  select_device(run);
  return run_in_slices(
      chunks, [&](int chunk) { return chunk_prefixes(plan, chunk); }, sizer,
      [&](const std::vector<int>& slice) {
        if (run.backend == Backend::gpu)
          run_chunks_gpu(plan, slice, target, done);
        else
          run_chunks_cpu(plan, slice, target, run.threads, done);
      },
      stop);
}

// One round's chunks spread over the ranks of an MPI job: each rank searches whole chunks with
// its own engine; partials travel as their journal records.
void run_round_mpi(const mpi::Session& session, const Plan& plan, const std::vector<int>& chunks,
                   int target, const RunTarget& run, double slice_seconds, SliceSizer& sizer,
                   const ChunkDone& done) {
  mpi::ChunkWork work;
  work.todo.assign(chunks.begin(), chunks.end());
  work.slice_seconds = slice_seconds;
  const std::uint64_t per_chunk = std::max<std::uint64_t>(1, chunk_prefixes(plan, 0));
  work.min_grant = (slice_floor(plan, run) + per_chunk - 1) / per_chunk;
  // One thread of each rank computes (rank 0's second thread), so one sizer serves it.
  work.compute = [&](const std::vector<std::uint64_t>& grant) {
    std::map<int, std::string> records;
    run_engine(
        plan, std::vector<int>(grant.begin(), grant.end()), target, run,
        [&](int chunk, const Partial& found, double seconds) {
          records[chunk] = chunk_to_json(found, target, seconds).dump();
        },
        sizer);
    std::vector<std::string> out;
    for (std::uint64_t chunk : grant) out.push_back(records.at(static_cast<int>(chunk)));
    return out;
  };
  work.collect = [&](std::uint64_t chunk, const std::string& payload) {
    const ChunkRecord record = chunk_from_json(nlohmann::json::parse(payload), plan.n,
                                               fmt::format("chunk {} from a rank", chunk));
    done(static_cast<int>(chunk), record.partial, record.seconds);
  };
  mpi::run_chunks(session, work);
}

Partial combine(const Records& records, int n) {
  Partial total;
  total.nodes.assign(n, 0);
  for (const auto& [chunk, record] : records) total.merge(record.partial);
  return total;
}

Solution base_solution(const Plan& plan, std::optional<int> bound) {
  Solution s;
  s.n = plan.n;
  s.final = plan.final;
  s.start_target = plan.start_target;
  s.bound = bound;
  s.chunk_count = plan.chunk_count;
  return s;
}

std::string group_digits(std::uint64_t x) {
  std::string digits = std::to_string(x), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

Shard parse_shard(std::string_view text) {
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos)
    throw UsageError(fmt::format("--shard: '{}' is not of the form I/K", text));
  Shard shard;
  shard.count = static_cast<int>(parse_int(text.substr(slash + 1), "--shard K", 1, max_chunks));
  shard.index = static_cast<int>(parse_int(text.substr(0, slash), "--shard I", 0, shard.count - 1));
  return shard;
}

Solution solve(const SolveOptions& options, const RunTarget& run, bool quiet) {
  const auto start = std::chrono::steady_clock::now();
  if (options.shard && options.checkpoint.empty())
    throw UsageError("--shard: needs --checkpoint FILE to write the shard's partial result to");
  if (options.time_limit && options.checkpoint.empty())
    throw UsageError("--time-limit: needs --checkpoint FILE to keep what the run finished");
  if (options.time_limit && options.session)
    throw UsageError("--time-limit: not with --mpi (stop an MPI job with its scheduler)");
  if (!(options.slice_seconds > 0))
    throw UsageError(
        fmt::format("--slice: {} is not a positive number of seconds", options.slice_seconds));
  const Plan plan = make_plan(options.n, options.final, options.bound);
  const bool root = !options.session || options.session->root();
  std::unique_ptr<ChunkJournal> journal;
  Records records;
  if (root && !options.checkpoint.empty()) {
    journal = std::make_unique<ChunkJournal>(options.checkpoint, plan.identity());
    records = read_records(journal->done(), plan, options.checkpoint);
    check_targets(plan, records, options.checkpoint);
  }
  Solution s = base_solution(plan, options.bound);
  s.shard = options.shard;
  s.target = run;
  s.chunks_resumed = static_cast<int>(records.size());

  // Every round is known in advance, only its target is not: lay out the work first so that
  // the progress bar knows the total.
  auto owned = [&](int chunk) {
    return !options.shard || chunk % options.shard->count == options.shard->index;
  };
  auto in_scope = [&](int chunk) { return owned(chunk) || plan.round_of(chunk) < warmup_rounds; };
  std::vector<std::vector<int>> todo(plan.round_count());
  std::uint64_t total_prefixes = 0;
  for (int r = 0; r < plan.round_count(); ++r)
    for (int chunk : plan.chunks_of_round(r))
      if (in_scope(chunk) && !records.count(chunk)) {
        todo[r].push_back(chunk);
        total_prefixes += plan.chunk_begin(chunk + 1) - plan.chunk_begin(chunk);
      }

  Progress progress(fmt::format("topswops n={}", plan.n), total_prefixes, "prefixes",
                    quiet || !root);
  select_device(run);
  const std::uint64_t floor = slice_floor(plan, run);
  SliceSizer sizer(options.slice_seconds, floor, floor);
  auto out_of_time = [&] {
    return options.time_limit && seconds_since(start) >= *options.time_limit;
  };
  for (int r = 0; r < plan.round_count() && !s.stopped; ++r) {
    int target = round_target(plan, records, r);
    // Only rank 0 holds the records: the others learn each round's target from it.
    if (options.session)
      target = std::stoi(mpi::broadcast(*options.session, std::to_string(target)));
    const ChunkDone record_chunk = [&](int chunk, const Partial& found, double seconds) {
      ChunkRecord record{found, target, seconds};
      if (chunk == 0) record.partial.merge(plan.top);
      if (journal) journal->append(chunk, chunk_to_json(record.partial, target, seconds));
      s.nodes_computed += found.total_nodes();
      records.emplace(chunk, std::move(record));
      progress.add(plan.chunk_begin(chunk + 1) - plan.chunk_begin(chunk));
    };
    if (options.session)
      run_round_mpi(*options.session, plan, todo[r], target, run, options.slice_seconds, sizer,
                    record_chunk);
    else
      s.stopped = !run_engine(plan, todo[r], target, run, record_chunk, sizer, out_of_time);
  }
  progress.finish();
  s.chunks_done = static_cast<int>(records.size());
  std::erase_if(records, [&](const auto& entry) { return !owned(entry.first); });
  s.result = combine(records, plan.n);
  s.seconds = seconds_since(start);
  return s;
}

Solution merge(const std::vector<std::string>& journals) {
  if (journals.empty()) throw UsageError("merge: no journal files given");
  const JournalContents first = read_journal(journals.front());
  const nlohmann::json& problem = first.problem;
  int n = 0;
  Final final = Final::any;
  int start_target = 0;
  try {
    if (problem.at("game") != "topswops") throw UsageError("not a Topswops journal");
    n = problem.at("n").get<int>();
    final = problem.at("final") == "sorted" ? Final::sorted : Final::any;
    start_target = problem.at("start_target").get<int>();
  } catch (const nlohmann::json::exception&) {
    throw UsageError(fmt::format("{}: not a Topswops journal", journals.front()));
  }
  const Plan plan = make_plan(n, final, start_target);
  if (plan.identity() != problem)
    throw UsageError(
        fmt::format("{}: the journal's problem is not the one this piles builds for "
                    "n = {} (another version?)",
                    journals.front(), n));
  Records records;
  for (const std::string& file : journals) {
    const JournalContents contents = file == journals.front() ? first : read_journal(file);
    if (contents.problem != problem)
      throw UsageError(fmt::format("{}: the journal is for a different problem than {}", file,
                                   journals.front()));
    for (auto& [chunk, record] : read_records(contents.chunks, plan, file)) {
      const auto [it, fresh] = records.emplace(chunk, record);
      if (!fresh && (it->second.partial != record.partial || it->second.target != record.target))
        throw UsageError(fmt::format(
            "{}: chunk {} disagrees with the same chunk in an earlier file", file, chunk));
    }
  }
  std::vector<int> missing;
  for (int c = 0; c < plan.chunk_count; ++c)
    if (!records.count(c)) missing.push_back(c);
  if (!missing.empty()) {
    missing.resize(std::min<std::size_t>(missing.size(), 8));
    throw UsageError(fmt::format("merge: {} of {} chunks are missing (first: {})",
                                 plan.chunk_count - static_cast<int>(records.size()),
                                 plan.chunk_count, comma_list(missing)));
  }
  check_targets(plan, records, "merge");
  Solution s = base_solution(plan, std::nullopt);
  s.merged = true;
  s.chunks_resumed = s.chunks_done = plan.chunk_count;
  s.result = combine(records, plan.n);
  for (const auto& [chunk, record] : records) s.seconds += record.seconds;
  s.target.device = "merge";
  return s;
}

nlohmann::json to_json(const Solution& s) {
  nlohmann::json decks = nlohmann::json::array();
  for (const FoundGame& g : s.result.decks)
    decks.push_back({{"deck", g.deck}, {"final", g.final_deck}});
  nlohmann::json j = {
      {"n", s.n},
      {"final", final_name(s.final)},
      {"max_steps", s.result.best >= 0 ? nlohmann::json(s.result.best) : nlohmann::json()},
      {"count", s.result.count},
      {"decks", decks},
      {"decks_complete", !s.result.decks_truncated()},
      {"nodes", s.result.total_nodes()},
      {"nodes_per_level", s.result.nodes},
      {"seconds", s.seconds},
      {"nodes_per_second", s.seconds > 0 ? s.nodes_computed / s.seconds : 0.0},
      {"backend", s.merged ? "merge" : backend_name(s.target.backend)},
      {"device", s.target.device},
      {"threads", s.target.threads},
      {"start_target", s.start_target},
      {"bound", s.bound ? nlohmann::json(*s.bound) : nlohmann::json()},
      {"complete", s.complete()},
      {"chunks", s.chunk_count},
      {"chunks_resumed", s.chunks_resumed}};
  if (s.shard) j["shard"] = fmt::format("{}/{}", s.shard->index, s.shard->count);
  if (s.stopped) {
    j["stopped"] = true;
    j["chunks_done"] = s.chunks_done;
  }
  return j;
}

std::string to_text(const Solution& s, bool quiet) {
  std::string out =
      fmt::format("topswops n = {}{}\n", s.n,
                  s.final == Final::sorted ? ", games ending in the sorted deck" : "");
  if (s.shard)
    out += fmt::format("  shard          {}/{} (a partial result: merge the journals)\n",
                       s.shard->index, s.shard->count);
  if (s.result.best < 0) {
    const char* f = s.final == Final::sorted ? "f_sorted" : "f";
    out += fmt::format("  longest game   none of {} steps or more{}\n", s.start_target,
                       s.complete() ? fmt::format(", so {}({}) < {}", f, s.n, s.start_target) : "");
  } else {
    out += fmt::format("  longest game   {} steps, {} deck{}\n", s.result.best, s.result.count,
                       s.result.count == 1 ? "" : "s");
    for (const FoundGame& g : s.result.decks)
      out += fmt::format("    {}  ->  {}\n", comma_list(g.deck), comma_list(g.final_deck));
    if (s.result.decks_truncated())
      out += fmt::format("    ... ({} more)\n", s.result.count - s.result.decks.size());
  }
  out += fmt::format("  nodes          {}\n", group_digits(s.result.total_nodes()));
  if (!quiet) {
    std::string levels;
    for (std::size_t l = 0; l < s.result.nodes.size(); ++l)
      levels += fmt::format("{}{}:{}", l ? " " : "", l, s.result.nodes[l]);
    out += fmt::format("  per level      {}\n", levels);
  }
  if (s.merged) {
    out += fmt::format("  merged         {} chunks, {:.1f} s of computing in all\n", s.chunk_count,
                       s.seconds);
  } else {
    const std::string engine =
        s.target.backend == Backend::gpu
            ? fmt::format("gpu: {}", s.target.device)
            : fmt::format("cpu, {} thread{}", s.target.threads, s.target.threads == 1 ? "" : "s");
    out += fmt::format("  time           {:.2f} s, {:.1f} M nodes/s, {}\n", s.seconds,
                       s.seconds > 0 ? s.nodes_computed / s.seconds / 1e6 : 0.0, engine);
    if (s.stopped)
      out += fmt::format(
          "  stopped        at the time limit with {} of {} chunks done (a partial result)\n",
          s.chunks_done, s.chunk_count);
    if (s.chunks_resumed > 0)
      out += fmt::format("  resumed        {} of {} chunks from the checkpoint\n", s.chunks_resumed,
                         s.chunk_count);
  }
  return out;
}

}  // namespace piles::topswops
