#include "host/job/driver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <limits>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>

#include "host/common/checkpoint.hpp"
#include "host/common/clock.hpp"
#include "host/common/error.hpp"
#include "host/common/journal_problem.hpp"
#include "host/common/json_integer.hpp"
#include "host/common/output.hpp"
#include "host/common/parse.hpp"
#include "host/common/progress.hpp"
#include "host/job/termination.hpp"

namespace piles::job {
namespace {

// The problems of every game name integers and strings only. A float in one marks a file that
// is no journal of this program, and keeps it from `read`, where get<int>() would convert it
// with undefined behaviour when it is out of range.
bool has_float(const nlohmann::json& j) {
  if (j.is_number_float()) return true;
  return j.is_structured() && std::any_of(j.begin(), j.end(), has_float);
}

bool targeted(const Job& job) {
  return static_cast<bool>(job.raise);
}

// A journal line's payload back into a record: "target" and "seconds" are the driver's.
Record read_record(const Job& job, Chunk chunk, nlohmann::json payload, const std::string& where) {
  if (chunk >= job.chunk_count)
    throw UsageError(fmt::format("{}: there are only {} chunks", where, job.chunk_count));
  if (!payload.is_object()) throw UsageError(fmt::format("{}: malformed chunk record", where));
  Record r;
  r.resumed = true;
  try {
    if (payload.contains("seconds")) r.seconds = payload.at("seconds").get<double>();
    if (targeted(job)) r.target = json_integer<int>(payload.at("target"));
  } catch (const nlohmann::json::exception&) {
    throw UsageError(fmt::format("{}: malformed chunk record", where));
  }
  payload.erase("seconds");
  payload.erase("target");
  job.check(chunk, payload, where);
  r.payload = std::move(payload);
  return r;
}

nlohmann::json journal_line(const Job& job, const Record& r) {
  nlohmann::json line = r.payload;
  if (targeted(job)) line["target"] = r.target;
  line["seconds"] = significant(r.seconds);
  return line;
}

std::vector<int> round_of_chunks(const Job& job) {
  std::vector<int> round(job.chunk_count, -1);
  for (std::size_t r = 0; r < job.rounds.size(); ++r)
    for (Chunk c : job.rounds[r]) round.at(c) = static_cast<int>(r);
  return round;
}

// targets[r]: the start target raised by every record of the rounds before r.
std::vector<int> round_targets(const Job& job, const Records& records) {
  const std::vector<int> round = round_of_chunks(job);
  std::vector<int> targets(job.rounds.size() + 1, job.start_target);
  std::vector<int> raised(job.rounds.size(), job.start_target);
  for (const auto& [chunk, record] : records) {
    int& t = raised[round[chunk]];
    if (targeted(job)) t = job.raise(t, record.payload);
  }
  for (std::size_t r = 0; r < job.rounds.size(); ++r)
    targets[r + 1] = std::max(targets[r], raised[r]);
  return targets;
}

void check_targets(const Job& job, const Records& records, const std::string& source) {
  if (!targeted(job)) return;
  const std::vector<int> round = round_of_chunks(job);
  const std::vector<int> targets = round_targets(job, records);
  for (const auto& [chunk, record] : records)
    if (record.target != targets[round[chunk]])
      throw UsageError(
          fmt::format("{}: chunk {} was searched from target {}, but the rounds before it give {}",
                      source, chunk, record.target, targets[round[chunk]]));
}

Records read_records(const Job& job, const std::map<Chunk, nlohmann::json>& lines,
                     const std::string& file) {
  Records records;
  for (const auto& [chunk, payload] : lines)
    records.emplace(chunk,
                    read_record(job, chunk, payload, fmt::format("{}: chunk {}", file, chunk)));
  return records;
}

// Whether a run of `shard` (none: the whole job) runs chunk c of round r: its own chunks, and
// every chunk of the shared first rounds.
bool runs_chunk(const Job& job, const std::optional<Shard>& shard, int r, Chunk c) {
  return !shard || r < job.shared_rounds || shard->owns(c);
}

bool round_complete(const Job& job, int r, const Records& records) {
  return std::all_of(job.rounds[r].begin(), job.rounds[r].end(),
                     [&](Chunk c) { return records.count(c) > 0; });
}

// One round's chunks spread over the ranks of an MPI job: each rank runs whole grants on its
// own engine; results travel as their journal payloads.
void run_round_mpi(const Job& job, const mpi::Session& session, const std::vector<Chunk>& todo,
                   int target, const RunTarget& run, double slice_seconds, SliceSizer& sizer,
                   const ChunkDone& done) {
  mpi::ChunkWork work;
  work.todo = todo;
  work.slice_seconds = slice_seconds;
  const std::uint64_t per_chunk =
      std::max<std::uint64_t>(1, job.rounds.back().empty() ? 1 : job.weight(job.rounds.back()[0]));
  work.min_grant = (job.slice_floor(run) + per_chunk - 1) / per_chunk;
  // One thread of each rank computes (rank 0's second thread), so one sizer serves it. Its work
  // under way shows in no progress bar: rank 0 counts the chunks as they come back.
  const UnitsDone unseen = [](std::uint64_t) {};
  work.compute = [&](const std::vector<Chunk>& grant) {
    std::map<Chunk, std::string> lines;
    select_device(run);
    run_in_slices(grant, job.weight, sizer, [&](const std::vector<Chunk>& slice) {
      job.run(
          slice, target, run,
          [&](Chunk c, nlohmann::json payload, double seconds) {
            lines[c] = nlohmann::json{{"payload", std::move(payload)}, {"seconds", seconds}}.dump();
          },
          unseen, {});
    });
    std::vector<std::string> out;
    for (Chunk c : grant) out.push_back(lines.at(c));
    return out;
  };
  work.collect = [&](Chunk chunk, const std::string& message) {
    const nlohmann::json j = nlohmann::json::parse(message);
    const std::string where = fmt::format("chunk {} from a rank", chunk);
    job.check(chunk, j.at("payload"), where);
    done(chunk, j.at("payload"), j.at("seconds").get<double>());
  };
  mpi::run_chunks(session, work);
}

// "device 0", or "cpu" for the CPU worker.
std::string share_name(const DeviceShare& d) {
  return d.device == DeviceShare::cpu ? "cpu" : fmt::format("device {}", d.device);
}

RunTarget worker_target(const RunTarget& target, const DeviceShare& d) {
  return d.device == DeviceShare::cpu ? target.on_cpu_worker() : target.on_device(d.device);
}

// One slice on one of several devices, on its worker's thread: chunks go to `done` as they
// finish, and the device's share counts them. A failure names the device and the first chunk
// of the slice that did not finish (those that did are in the journal already).
void run_on_device(const Job& job, const std::vector<Chunk>& slice, int target, const RunTarget& on,
                   const ChunkDone& done, const UnitsDone& working, const Cancel& cancel,
                   DeviceShare& share, const SliceSizer& sizer, std::mutex& mutex) {
  std::set<Chunk> finished;
  const auto count = [&](Chunk c, nlohmann::json payload, double seconds) {
    const std::uint64_t units = job.live_units ? job.measure(payload) : job.weight(c);
    done(c, std::move(payload), seconds);
    const std::lock_guard lock(mutex);
    finished.insert(c);
    share.units += units;
    ++share.chunks;
  };
  const double start = sizer.now();
  try {
    select_device(on);
    job.run(slice, target, on, count, working, cancel);
  } catch (const Cancelled&) {
    throw;
  } catch (const std::exception& e) {
    const auto failed =
        std::find_if(slice.begin(), slice.end(), [&](Chunk c) { return !finished.contains(c); });
    throw std::runtime_error(fmt::format("{}, chunk {}: {}", share_name(share),
                                         failed == slice.end() ? slice.back() : *failed, e.what()));
  }
  const std::lock_guard lock(mutex);
  share.seconds += sizer.now() - start;
}

}  // namespace

void check_options(const Options& options) {
  if (options.shard && options.checkpoint.empty())
    throw UsageError("--shard: needs --checkpoint FILE to write the shard's partial result to");
  if (options.time_limit && options.checkpoint.empty())
    throw UsageError("--time-limit: needs --checkpoint FILE to keep what the run finished");
  if (options.time_limit && options.session)
    throw UsageError("--time-limit: not with --mpi (stop an MPI job with its scheduler)");
  if (!(options.slice_seconds > 0))
    throw UsageError(
        fmt::format("--slice: {} is not a positive number of seconds", options.slice_seconds));
}

Shard parse_shard(std::string_view text, int max_count) {
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos)
    throw UsageError(fmt::format("--shard: '{}' is not of the form I/K", text));
  Shard shard;
  shard.count = static_cast<int>(parse_int(text.substr(slash + 1), "--shard K", 1, max_count));
  shard.index = static_cast<int>(parse_int(text.substr(0, slash), "--shard I", 0, shard.count - 1));
  return shard;
}

namespace {

double rate(const DeviceShare& d) {
  return d.seconds > 0 ? d.units / d.seconds : 0.0;
}

}  // namespace

nlohmann::json devices_json(const std::vector<DeviceShare>& shares) {
  nlohmann::json all = nlohmann::json::array();
  for (const DeviceShare& d : shares)
    all.push_back({{"device", d.device == DeviceShare::cpu ? nlohmann::json("cpu")
                                                           : nlohmann::json(d.device)},
                   {"chunks", d.chunks},
                   {"units", d.units},
                   {"seconds", d.seconds},
                   {"units_per_second", rate(d)}});
  return all;
}

std::string devices_text(const std::vector<DeviceShare>& shares, const std::string& unit) {
  std::string out;
  for (const DeviceShare& d : shares)
    out += fmt::format("  {:<14} {}, {:.3g} {}/s\n", share_name(d), plural(d.chunks, "chunk"),
                       rate(d), unit);
  return out;
}

Outcome run(const Job& job, const Options& options, const RunTarget& target) {
  const auto start = std::chrono::steady_clock::now();
  check_options(options);
  if (job.live_units && !job.measure) throw std::logic_error("a job with live units needs measure");
  const bool root = !options.session || options.session->root();
  Outcome out;
  Status& status = out.status;
  status.shard = options.shard;
  status.chunks = job.chunk_count;
  std::unique_ptr<ChunkJournal> journal;
  Records& records = out.records;
  if (root && !options.checkpoint.empty()) {
    // A shard's run line names it, so that `journal show` counts the shard's chunks.
    journal = std::make_unique<ChunkJournal>(options.checkpoint, job.identity,
                                             options.shard
                                                 ? nlohmann::json{{"shard", options.shard->name()}}
                                                 : nlohmann::json::object());
    records = read_records(job, journal->done(), options.checkpoint);
    check_targets(job, records, options.checkpoint);
  }
  status.chunks_resumed = static_cast<int>(records.size());

  // Lay out every round's work first, so that the progress bar knows the total.
  auto owned = [&](Chunk c) { return !options.shard || options.shard->owns(c); };
  // Live units need the whole job: what a shard's chunks hold of each round is not known before
  // they run, so a shard counts weights.
  const bool live = job.live_units && !options.shard;
  // Units an engine reports as it goes count at once where they are the weights' units: a live
  // job's outside a shard, or any job's whose weights estimate what `measure` counts.
  const bool shows_units = live || (!job.live_units && job.measure);
  const int rounds = static_cast<int>(job.rounds.size());
  std::vector<std::vector<Chunk>> todo(rounds);
  std::uint64_t total = 0, whole = 0;
  for (int r = 0; r < rounds; ++r)
    for (Chunk c : job.rounds[r])
      if (runs_chunk(job, options.shard, r, c)) {
        whole += job.weight(c);
        if (records.count(c)) continue;
        todo[r].push_back(c);
        total += job.weight(c);
      }

  std::uint64_t chunks_todo = 0;
  for (const std::vector<Chunk>& round : todo) chunks_todo += round.size();
  // Chunks and the percentage count from what the journal already holds, so a resumed run
  // shows where it stands from its first line. Where the weights estimate what `measure` counts,
  // a chunk done counts what it took: a run taking up a journal may weigh only its chunks left.
  ResumedWork resumed{0, records.size()};
  const bool measured_done = live || (job.weights_in_unit && job.measure);
  for (const auto& [c, record] : records)
    if (owned(c)) resumed.units += measured_done ? job.measure(record.payload) : job.weight(c);
  // Live units: what is left is the rounds' units less what the journal's chunks took.
  if (live) total = whole - std::min(whole, resumed.units);
  Progress progress(job.label, total, job.unit, records.size() + chunks_todo,
                    progress_style(options), resumed);
  if (!job.preamble.empty()) progress.aside(job.preamble);
  // The longest game so far, where the game has targets, from the journal and then each chunk
  // (-1 while none is).
  int best = -1;
  // On several devices the bar and the status lines end with each device's rate.
  const bool on_devices = !options.session && (target.devices.size() > 1 ||
                                               (target.cpu_worker && !target.devices.empty()));
  std::vector<DeviceShare>& shares = out.devices;
  if (on_devices) {
    for (int d : target.devices) shares.push_back({.device = d});
    if (target.cpu_worker) shares.push_back({.device = DeviceShare::cpu});
  }
  const auto show_note = [&] {
    std::string text = !targeted(job) ? ""
                       : best < 0     ? "best none yet"
                                      : fmt::format("best {}", best);
    for (const DeviceShare& d : shares)
      text += fmt::format("{}{} {:.3g} {}/s", text.empty() ? "" : ", ", share_name(d), rate(d),
                          job.unit);
    if (!text.empty()) progress.note(text);
  };
  const auto note_best = [&](const nlohmann::json& payload) {
    if (!targeted(job)) return;
    best = job.raise(best, payload);
    show_note();
  };
  for (const auto& [chunk, record] : records) note_best(record.payload);
  select_device(target);
  const std::uint64_t floor = job.slice_floor(target);
  SliceSizer sizer(options.slice_seconds, floor, floor);
  std::vector<SliceSizer> device_sizers;
  for (const DeviceShare& d : shares) {
    const std::uint64_t device_floor = job.slice_floor(worker_target(target, d));
    device_sizers.emplace_back(options.slice_seconds, device_floor, device_floor);
  }
  // Slices end by the time limit, and what runs past it is cut short.
  const std::optional<double> deadline =
      options.time_limit ? std::optional(options.started + *options.time_limit) : std::nullopt;
  if (deadline) {
    sizer.set_deadline(*deadline);
    for (SliceSizer& each : device_sizers) each.set_deadline(*deadline);
  }
  // A run stops at its time limit only once it has finished a chunk of its own, so the same
  // command run again always gets on, however short its limit.
  std::atomic<bool> finished_one = false;
  // A journaled run asked to end (a scheduler's SIGTERM) stops as at its time limit; ranks of
  // an MPI job are stopped by their launcher.
  std::optional<TerminationRequest> termination;
  if (journal && !options.session) termination.emplace();
  // Asked by the engines between pieces of work: cheap, and from any thread.
  std::atomic<bool> said_late = false;
  const Cancel cancel = [&] {
    if (termination && termination->requested()) return true;
    if (!deadline || steady_seconds() < *deadline) return false;
    if (finished_one) return true;
    if (!said_late.exchange(true))
      progress.say("past --time-limit: it stops once this run has finished a chunk of its own");
    return false;
  };
  auto out_of_time = [&] {
    if (!cancel()) return false;
    status.stopped_by = termination && termination->requested() ? "SIGTERM" : "--time-limit";
    return true;
  };
  std::mutex done_mutex;
  std::vector<int> targets = round_targets(job, records);
  for (int r = 0; r < rounds && !status.stopped; ++r) {
    int round_target = targets[r];
    // Only rank 0 holds the records: the others learn each round's target from it.
    if (options.session && targeted(job))
      round_target = std::stoi(mpi::broadcast(*options.session, std::to_string(round_target)));
    // Every rank weighs alike: its slices are cut by the weights.
    std::vector<Chunk> left;
    if (job.retarget && !live)
      for (int q = r; q < rounds; ++q) left.insert(left.end(), todo[q].begin(), todo[q].end());
    if (!left.empty()) {
      if (const std::optional<std::string> line = job.retarget(round_target, left, target)) {
        std::uint64_t units = 0;
        for (Chunk c : left) units += job.weight(c);
        progress.reweigh(units);
        progress.aside(*line);
        sizer.set_floor(job.slice_floor(target));
        for (std::size_t d = 0; d < shares.size(); ++d)
          device_sizers[d].set_floor(job.slice_floor(worker_target(target, shares[d])));
      }
    }
    // `shown`: the units its engine call reported as it went and no finished chunk has taken
    // yet, which the progress has counted already: the chunk takes its share (up to its own
    // units) and adds only the rest.
    const auto record = [&](Chunk c, nlohmann::json payload, double seconds,
                            std::atomic<std::uint64_t>* shown) {
      const std::lock_guard lock(done_mutex);
      Record rec{std::move(payload), round_target, seconds, false};
      if (journal) journal->append(c, journal_line(job, rec));
      note_best(rec.payload);
      const std::optional<std::uint64_t> measured =
          job.measure ? std::optional(job.measure(rec.payload)) : std::nullopt;
      records.emplace(c, std::move(rec));
      const std::uint64_t units = live ? *measured : job.weight(c);
      const std::uint64_t own = shown ? std::min(shown->load(), units) : 0;
      if (shown) *shown -= own;
      const auto rest = [own](std::uint64_t u) { return u - std::min(u, own); };
      if (live)
        progress.add(rest(*measured), 1);
      else
        progress.add(rest(units), 1, measured ? std::optional(rest(*measured)) : measured);
      finished_one = true;
    };
    // One engine call's channels: the units it shows as it goes (a job with `measure`) go to the
    // progress at once, and the next chunk it finishes adds only the rest of its own.
    const auto call = [&](const auto& body) {
      std::atomic<std::uint64_t> shown = 0;
      const UnitsDone working = [&](std::uint64_t units) {
        if (!shows_units) return;
        shown += units;
        progress.add(units);
      };
      body([&](Chunk c, nlohmann::json payload,
               double seconds) { record(c, std::move(payload), seconds, &shown); },
           working);
    };
    try {
      if (options.session)
        run_round_mpi(job, *options.session, todo[r], round_target, target, options.slice_seconds,
                      sizer, [&](Chunk c, nlohmann::json payload, double seconds) {
                        record(c, std::move(payload), seconds, nullptr);
                      });
      else if (on_devices)
        status.stopped = !run_in_slices_on(
            todo[r], job.weight, device_sizers,
            [&](int w, const std::vector<Chunk>& slice) {
              call([&](const ChunkDone& done, const UnitsDone& working) {
                run_on_device(job, slice, round_target, worker_target(target, shares[w]), done,
                              working, cancel, shares[w], device_sizers[w], done_mutex);
              });
              const std::lock_guard lock(done_mutex);
              show_note();
            },
            out_of_time);
      else
        status.stopped = !run_in_slices(
            todo[r], job.weight, sizer,
            [&](const std::vector<Chunk>& slice) {
              call([&](const ChunkDone& done, const UnitsDone& working) {
                job.run(slice, round_target, target, done, working, cancel);
              });
            },
            out_of_time);
    } catch (const Cancelled&) {
      // A slice cut short: its finished chunks are in, the rest is the next run's.
      status.stopped = out_of_time();
      if (!status.stopped) throw std::logic_error("an engine stopped without being asked to");
    }
    if (!root || status.stopped) continue;
    targets = round_targets(job, records);
    if (job.round_done && !options.shard && round_complete(job, r, records))
      job.round_done(r, records);
  }
  progress.finish(status.stopped ? "stopped by " + status.stopped_by : "done");
  out.seconds = seconds_since(start);
  out.slices = sizer.history();
  for (const SliceSizer& each : device_sizers)
    out.slices.insert(out.slices.end(), each.history().begin(), each.history().end());
  if (!root) return out;
  status.chunks_done = static_cast<int>(records.size());
  std::erase_if(records, [&](const auto& entry) { return !owned(entry.first); });
  if (status.complete() && records.size() != job.chunk_count)
    throw std::runtime_error(
        fmt::format("the run ended with {} of {} chunks", records.size(), job.chunk_count));
  return out;
}

void read_identity(const std::string& file, const std::string& game,
                   const std::function<void(const nlohmann::json& problem)>& read) {
  const nlohmann::json problem = read_journal(file).problem;
  const std::string name = game.empty() ? game : char(std::toupper(game[0])) + game.substr(1);
  try {
    if (problem.value("game", "") == game && !has_float(problem)) return read(problem);
  } catch (const nlohmann::json::exception&) {
  }
  throw UsageError(fmt::format("{}: not a {} journal", file, name));
}

namespace {

// Every chunk record of the journals, checked against the job and against each other; the
// journals' contents go to `read` where it is given.
Records read_journals(const Job& job, const std::vector<std::string>& journals,
                      JournalContents* read = nullptr) {
  Records records;
  for (const std::string& file : journals) {
    JournalContents contents = read_journal(file);
    // The job was rebuilt from the first journal's problem: where even that one differs, the
    // journal was written by another version of piles.
    if (contents.problem != job.identity)
      throw UsageError(
          file == journals.front()
              ? fmt::format("{}: the journal's problem is not the one this piles builds from it "
                            "(another version?)",
                            file)
              : fmt::format("{}: {}, as {} is", file,
                            problem_mismatch(contents.problem, job.identity), journals.front()));
    for (auto& [chunk, record] : read_records(job, contents.chunks, file)) {
      const auto [it, fresh] = records.emplace(chunk, record);
      if (!fresh && (it->second.payload != record.payload || it->second.target != record.target))
        throw UsageError(fmt::format(
            "{}: chunk {} disagrees with the same chunk in an earlier file", file, chunk));
    }
    if (read) *read = std::move(contents);
  }
  return records;
}

// The shard that wrote a journal: the one every run line names (none where a run of the whole
// job, or of another shard, wrote to it too).
std::optional<Shard> journal_shard(const std::vector<nlohmann::json>& runs) {
  std::optional<std::string> named;
  for (const nlohmann::json& run : runs) {
    const auto field = run.find("shard");
    if (field == run.end() || !field->is_string()) return std::nullopt;
    const std::string shard = field->get<std::string>();
    if (named && *named != shard) return std::nullopt;
    named = shard;
  }
  if (!named) return std::nullopt;
  try {
    return parse_shard(*named, std::numeric_limits<int>::max());
  } catch (const UsageError&) {
    return std::nullopt;
  }
}

}  // namespace

Outcome merge(const Job& job, const std::vector<std::string>& journals) {
  if (journals.empty()) throw UsageError("merge: no journal files given");
  Outcome out;
  out.status.merged = true;
  out.status.chunks = job.chunk_count;
  Records& records = out.records;
  records = read_journals(job, journals);
  std::vector<Chunk> missing;
  for (Chunk c = 0; c < job.chunk_count && missing.size() < 8; ++c)
    if (!records.count(c)) missing.push_back(c);
  if (!missing.empty())
    throw UsageError(fmt::format(
        "merge: {} of {} chunks are missing (first: {}; `piles journal show` says how far each "
        "journal has come)",
        job.chunk_count - records.size(), job.chunk_count, comma_list(missing)));
  check_targets(job, records, "merge");
  out.status.chunks_resumed = out.status.chunks_done = static_cast<int>(records.size());
  for (const auto& [chunk, record] : records) out.seconds += record.seconds;
  if (job.round_done)
    for (int r = 0; r < static_cast<int>(job.rounds.size()); ++r) job.round_done(r, records);
  return out;
}

Outcome read_finished(const Job& job, const std::string& journal) {
  Outcome out;
  out.status.merged = true;
  out.status.chunks = job.chunk_count;
  Records all = read_journals(job, {journal});
  check_targets(job, all, journal);
  for (int r = 0; r < static_cast<int>(job.rounds.size()); ++r) {
    const bool whole = round_complete(job, r, all);
    for (const Chunk c : job.rounds[r]) {
      if (!all.count(c)) continue;
      out.seconds += all.at(c).seconds;
      out.records.insert(all.extract(c));
    }
    // A run of one round (a bound given) is all in that round: its finished chunks count.
    if (!whole) break;
    if (job.round_done) job.round_done(r, out.records);
  }
  out.status.chunks_resumed = out.status.chunks_done = static_cast<int>(out.records.size());
  out.status.stopped = out.records.size() != job.chunk_count;
  return out;
}

std::vector<Chunk> chunks_run(const Job& job, const std::optional<Shard>& shard) {
  std::vector<Chunk> out;
  for (int r = 0; r < static_cast<int>(job.rounds.size()); ++r)
    for (const Chunk c : job.rounds[r])
      if (runs_chunk(job, shard, r, c)) out.push_back(c);
  return out;
}

Survey survey(const Job& job, const std::string& journal) {
  JournalContents contents;
  const Records records = read_journals(job, {journal}, &contents);
  check_targets(job, records, journal);
  Survey s;
  s.shard = journal_shard(contents.runs);
  s.job_chunks = job.chunk_count;
  s.rounds = static_cast<int>(job.rounds.size());
  // A shard's journal is counted in the chunks the shard runs, as its run does.
  Survey::Work w;
  for (int r = 0; r < s.rounds; ++r) {
    Chunk chunks = 0, done = 0;
    for (const Chunk c : job.rounds[r]) {
      if (!runs_chunk(job, s.shard, r, c)) continue;
      ++chunks;
      const auto record = records.find(c);
      if (record == records.end()) {
        s.left.push_back(c);
        if (job.weights_in_unit) w.left += static_cast<double>(job.weight(c));
        continue;
      }
      ++done;
      if (job.weights_in_unit)
        w.done +=
            static_cast<double>(job.measure ? job.measure(record->second.payload) : job.weight(c));
    }
    s.chunks += chunks;
    s.chunks_done += done;
    if (done == chunks) {
      ++s.rounds_complete;
    } else if (!s.open_round) {
      s.open_round = r;
      s.open_round_chunks = chunks;
      s.open_round_done = done;
    }
  }
  if (targeted(job)) {
    s.best = 0;
    if (s.open_round) s.open_round_target = round_targets(job, records)[*s.open_round];
  }
  for (const auto& [chunk, record] : records) {
    s.seconds += record.seconds;
    if (s.best) s.best = job.raise(*s.best, record.payload);
  }
  if (job.weights_in_unit) {
    s.work = w;
    s.unit = job.unit;
  }
  return s;
}

}  // namespace piles::job
