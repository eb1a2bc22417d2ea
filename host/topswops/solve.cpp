#include "host/topswops/solve.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "host/common/checkpoint.hpp"
#include "host/common/error.hpp"
#include "host/common/output.hpp"
#include "host/job/termination.hpp"
#include "host/topswops/backward_passes.hpp"
#include "host/topswops/cpu_engine.hpp"
#include "host/topswops/deepen.hpp"
#include "host/topswops/gpu_engine.hpp"
#include "host/topswops/play.hpp"
#include "host/topswops/quick_bound.hpp"
#include "host/topswops/replay.hpp"

namespace piles::topswops {
namespace {

// The lockstep CPU engine runs as the GPU engine launches the kernel on an H100: as many warps
// as it holds (132 SMs x 9 blocks of 4 warps; 8 blocks for three-word decks), each launch a
// budget of lockstep_pass_budget passes, the warps taking turns of a few passes so that they
// share out the items as resident warps do. The warp model's passes then follow the GPU's,
// lanes running dry at the end of each launch included.
constexpr int h100_warps(int n) {
  return 132 * (words_for(n) == 2 ? 9 : 8) * 4;
}
constexpr std::uint64_t lockstep_turn = 64;

// What the job's engine calls add up as they run, besides the chunks' results.
struct Tally {
  LaneUse lane_use;        // of the lockstep CPU engine
  int chunks_on_host = 0;  // of a GPU run: in slices too small for the device
};

// Searches from this many cards on are estimated before they run (well under a second for n =
// 14, about one for 18 on two threads): their chunks are weighed in nodes, so the slices and the
// ETA follow the work, and the progress opens with the estimate. Smaller ones are over at once.
constexpr int estimated_from_n = 14;

// Topswops as a job: the plan's chunks in its rounds, each round searching from the longest
// game found before it, on the engine the options name (what the calls add up goes to `tally`).
// With an estimate the chunks are weighed in its nodes, else in prefixes.
job::Job make_job(const Plan& plan, const SolveOptions& options, Tally& tally,
                  const Estimate* estimate = nullptr) {
  job::Job j;
  j.identity = plan.identity();
  j.chunk_count = static_cast<job::Chunk>(plan.chunk_count);
  for (int r = 0; r < plan.round_count(); ++r) {
    const std::vector<int> chunks = plan.chunks_of_round(r);
    j.rounds.emplace_back(chunks.begin(), chunks.end());
  }
  j.shared_rounds = plan.warmup;
  j.start_target = plan.start_target;
  j.raise = [](int target, const nlohmann::json& payload) {
    return std::max(target, payload.at("best").get<int>());
  };
  const auto weights = estimate ? std::make_shared<ChunkWeights>(plan, *estimate) : nullptr;
  j.weight = [&plan, weights](job::Chunk c) -> std::uint64_t {
    if (!weights) return plan.chunk_prefixes(static_cast<int>(c));
    return std::max<std::uint64_t>(1, std::llround((*weights)[static_cast<int>(c)]));
  };
  if (weights)
    j.retarget = [weights](int target, const std::vector<job::Chunk>& left, const RunTarget& run) {
      return weights->retarget(target, std::vector<int>(left.begin(), left.end()), run.threads);
    };
  // Enough prefixes for the GPU kernel's threads or lanes, or a piece for every CPU thread; in
  // nodes, at the mean per prefix of the chunks weighed last (after a target rise, half the
  // first estimate's at n = 18). A slice the device gets cut finer needs a sixteenth of them
  // (two levels of cutting give that back): at n = 18 a floor of one per lane would be a slice
  // of two minutes on an H100, too coarse for --time-limit.
  j.slice_floor = [&plan, &options, weights](const RunTarget& run) {
    // The device is asked only on a GPU run: elsewhere there may be none to answer.
    std::uint64_t prefixes = static_cast<std::uint64_t>(run.threads) * piece_prefixes;
    if (run.backend == Backend::gpu) {
      prefixes = gpu_launch_floor(plan.n, options.gpu_kernel);
      if (plan.n >= device_cut_from_n) prefixes /= 16;
    }
    const double per_prefix = weights ? weights->per_prefix() : 1.0;
    return std::max<std::uint64_t>(1, std::llround(prefixes * per_prefix));
  };
  j.label = fmt::format("topswops n={}", plan.n);
  // The rate in the nodes the answer counts, whatever the chunks are weighed in.
  j.unit = "nodes";
  j.measure = [&plan](const nlohmann::json& payload) {
    return partial_from_json(payload, plan.n, "chunk").total_nodes();
  };
  j.weights_in_unit = estimate != nullptr;
  if (estimate) {
    j.preamble = fmt::format(
        "estimated nodes {} (±{:.1f}%){} at target {}, from {} {}", scientific(estimate->nodes),
        100 * estimate->relative_error(),
        estimate->part == Estimate::Part::whole
            ? ""
            : fmt::format(" in the {} chunks {}", group_digits(estimate->chunks_weighed),
                          estimate->part == Estimate::Part::shard ? "this shard runs" : "left"),
        estimate->target, group_digits(estimate->probes),
        estimate->stratified ? "passes of stratified sampling" : "probes");
  }
  j.check = [&plan](job::Chunk, const nlohmann::json& payload, const std::string& where) {
    partial_from_json(payload, plan.n, where);
  };
  // Chunks weighed in nodes show them as they go on CPU threads: at 17 and 18 cards a round's
  // first chunk holds minutes of their work.
  const bool in_nodes = estimate != nullptr;
  j.run = [&plan, &options, &tally, in_nodes](const std::vector<job::Chunk>& chunks, int target,
                                              const RunTarget& run, const job::ChunkDone& done,
                                              const UnitsDone& working, const Cancel& cancel) {
    const PieceDone nodes_done = [&working, in_nodes](std::size_t, std::uint64_t nodes) {
      if (in_nodes) working(nodes);
    };
    const ChunkDone found = [&](int chunk, const Partial& partial, double seconds) {
      Partial whole = partial;
      if (chunk == 0) whole.merge(plan.top);  // chunk 0 carries the levels above the prefixes
      // The backward search builds its decks from moves back: each is played forward first.
      if (plan.backward) replay_games(whole, plan.n, Final::sorted, chunk, "backward search");
      done(static_cast<job::Chunk>(chunk), partial_to_json(whole), seconds);
    };
    const std::vector<int> ids(chunks.begin(), chunks.end());
    if (run.backend == Backend::gpu && plan.backward) {
      run_backward_chunks_gpu(plan, ids, target, run.threads, found, cancel);
    } else if (run.backend == Backend::gpu) {
      if (!run_chunks_gpu(plan, ids, target, found, options.gpu_kernel, lockstep_pass_budget,
                          gpu::default_found_capacity, run.threads, options.small_slices_on_host,
                          cancel)) {
        run_chunks_cpu(plan, ids, target, run.threads, found, nodes_done, cancel);
        tally.chunks_on_host += static_cast<int>(ids.size());
      }
    } else if (options.engine == CpuEngine::lockstep) {
      LockstepOptions lockstep{lockstep_pass_budget, h100_warps(plan.n), run.threads};
      lockstep.turn = lockstep_turn;
      lockstep.kernel = lockstep_kind(options.gpu_kernel);
      run_chunks_lockstep(plan, ids, target, lockstep, found, &tally.lane_use, cancel);
    } else {
      run_chunks_cpu(plan, ids, target, run.threads, found, nodes_done, cancel);
    }
  };
  return j;
}

Solution make_solution(const Plan& plan, std::optional<int> bound, const job::Outcome& outcome) {
  Solution s;
  s.n = plan.n;
  s.final = plan.final;
  s.backward = plan.backward.has_value();
  s.start_target = plan.start_target;
  s.bound = bound;
  s.tail = plan.tail;
  s.start_deck = plan.start_deck;
  s.quick_cut_by = plan.start_cut_by;
  s.grown_from = plan.start_grown_from;
  s.result.nodes.assign(plan.n, 0);
  for (const auto& [chunk, record] : outcome.records) {
    const Partial p = partial_from_json(record.payload, plan.n, "chunk");
    s.result.merge(p);
    if (!record.resumed) s.nodes_computed += p.total_nodes();
  }
  s.run = outcome.status;
  s.seconds = outcome.seconds;
  s.slices = outcome.slices;
  s.devices = outcome.devices;
  return s;
}

// The start of a run told no bound, as rank 0 decides it and every rank reads it: a quick
// search's game, as the journal's problem line keeps it (start_target, start_deck, and where
// given quick_search_cut_by and start_grown_from), or null to start from f(n-1).
using QuickStart = nlohmann::json;

// Puts a quick search's start (or a problem line, which holds it) into the plan.
void take_start(Plan& plan, const QuickStart& start) {
  plan.start_deck = start.value("start_deck", std::vector<int>{});
  plan.start_cut_by = start.value("quick_search_cut_by", "");
  plan.start_grown_from = start.value("start_grown_from", std::vector<int>{});
}

// What a journal already written to fixes of a run told no bound: its rounds, and its start.
struct Begun {
  int rounds = warmup_rounds;
  QuickStart start;
};

// A journal's Begun, read from its problem line; nothing where none is begun.
std::optional<Begun> begun_journal(const std::string& journal) {
  if (!journal_begun(journal)) return std::nullopt;
  Begun begun;
  job::read_identity(journal, "topswops", [&](const nlohmann::json& p) {
    begun.rounds = p.value("warmup_rounds", warmup_rounds);
    if (!p.contains("start_deck")) return;
    for (const char* key :
         {"start_target", "start_deck", "quick_search_cut_by", "start_grown_from"})
      if (p.contains(key)) begun.start[key] = p.at(key);
  });
  return begun;
}

// The start of a run told no bound (QuickStart). A journal already begun starts where it started.
// The quick search takes at most half the time left before --time-limit, so that the run gets on
// with its chunks too, and `cancel` (SIGTERM) ends it with the best game found so far.
QuickStart quick_start(const SolveOptions& options, const RunTarget& run, const Plan& plain,
                       const std::optional<Begun>& begun, const Cancel& cancel) {
  if (begun) return begun->start;
  // A journal path the run could not use is said before the search, not a minute after it.
  if (!options.run.checkpoint.empty()) check_journal_path(options.run.checkpoint);
  double seconds = options.quick_seconds;
  bool limited = false;
  if (options.run.time_limit) {
    const double half_left =
        std::max(0.0, options.run.started + *options.run.time_limit - steady_seconds()) / 2;
    limited = half_left < seconds;
    seconds = std::min(seconds, half_left);
  }
  const bool talk = !job::progress_style(options.run).quiet;
  if (talk)
    fmt::print(stderr,
               "piles: topswops n={}: a quick search for a long game to start from ({:.3g} s{})\n",
               options.n, seconds, limited ? ", half the time left before --time-limit" : "");
  const double began = steady_seconds();
  const LongGame game = find_long_game({.n = options.n,
                                        .final = options.final,
                                        .seconds = seconds,
                                        .threads = run.threads,
                                        .stall_floor = quick_stall_seconds,
                                        .cancel = cancel});
  const double took = steady_seconds() - began;
  const std::string cut_by = game.cancelled ? "SIGTERM" : limited ? "--time-limit" : "";
  // The start target must be a real game's length: played again here.
  const Game check = play(game.deck);
  if (check.steps != game.steps || (options.final == Final::sorted && !check.ends_sorted))
    throw std::logic_error(fmt::format("the quick search's deck {} does not play {} steps",
                                       comma_list(game.deck), game.steps));
  if (talk)
    fmt::print(stderr,
               "piles: topswops n={}: {} steps{} (found after {:.1f} s, searched {:.1f} s{}), "
               "against {} for {}\n",
               options.n, game.steps,
               game.grown_from.empty() ? ""
                                       : fmt::format(", grown from f({})'s deck {}", options.n - 1,
                                                     comma_list(game.grown_from)),
               game.seconds, took, cut_by.empty() ? "" : ", the search cut short by " + cut_by,
               plain.start_target,
               options.final == Final::sorted
                   ? fmt::format("the longest {}-card game ending sorted", options.n - 1)
                   : fmt::format("f({})", options.n - 1));
  if (game.steps <= plain.start_target) return nullptr;
  QuickStart start = {{"start_target", game.steps}, {"start_deck", game.deck}};
  if (!cut_by.empty()) start["quick_search_cut_by"] = cut_by;
  if (!game.grown_from.empty()) start["start_grown_from"] = game.grown_from;
  return start;
}

// What the backward engine cannot search (backward.hpp).
void check_backward(const SolveOptions& options) {
  check_backward_final(options.final);
  if (options.tail.n != 0) throw UsageError("--engine backward: takes no --tail");
}

}  // namespace

bool starts_from_quick_search(const SolveOptions& options, bool journal_begun) {
  if (options.bound) return false;
  return journal_begun ||
         (options.quick_seconds > 0 && options.n >= options.quick_from && !options.run.shard);
}

namespace {

// The plan of a run, forward or backward: from --bound's start, a quick search's game
// (quick_start) or the published value for n - 1.
Plan plan_for(const SolveOptions& options, const RunTarget& run, const Cancel& cancel) {
  const bool backward = options.engine == CpuEngine::backward;
  if (backward) check_backward(options);
  const auto make = [&](std::optional<int> bound, std::optional<int> warmup) {
    return backward ? make_backward_plan(options.n, bound, options.prune, warmup)
                    : make_plan(options.n, options.final, bound, options.tail, warmup);
  };
  // A forward run in one job (threads, devices, MPI ranks) takes every round from all before
  // it, so its rounds double to the end; a shard runs the rounds before the last whole, so one
  // starting its journal keeps the few short ones and no quick search (its start must be every
  // shard's), as does the backward search. A journal already begun keeps its rounds and start,
  // in a shard as in a whole run (copies of a run's journal go on as its shards): rank 0 reads
  // it, and every rank must run alike.
  const mpi::Session* session = options.run.session;
  const bool root = !session || session->root();
  std::optional<Begun> begun;
  std::optional<int> rounds;
  bool resumed = false;
  if (!options.bound) {
    if (root) begun = begun_journal(options.run.checkpoint);
    resumed = begun.has_value();
    rounds = begun                           ? begun->rounds
             : options.run.shard || backward ? warmup_rounds
                                             : doubling_rounds;
    if (session) {
      std::istringstream words(
          mpi::broadcast(*session, fmt::format("{} {}", *rounds, resumed ? 1 : 0)));
      words >> *rounds >> resumed;
    }
  }
  Plan plain = make(options.bound, rounds);
  if (!starts_from_quick_search(options, resumed)) return plain;
  QuickStart start = root ? quick_start(options, run, plain, begun, cancel) : nullptr;
  if (session) start = QuickStart::parse(mpi::broadcast(*session, start.dump()));
  if (start.is_null()) return plain;
  Plan plan = make(start.at("start_target").get<int>(), plain.warmup);
  take_start(plan, start);
  return plan;
}

// The chunks a journal has not done weighed in nodes, as a run taking it up weighs them: from the
// target the next of them runs at.
Estimate estimate_left(const Plan& plan, const job::Survey& s, int threads) {
  return estimate_part(plan, Estimate::Part::left, std::vector<int>(s.left.begin(), s.left.end()),
                       s.open_round_target.value_or(plan.start_target),
                       default_samples_per_chunk(plan), threads);
}

// The chunks a run taking up its journal has left, and the target the next of them runs at;
// none where the journal holds no chunk. A journal the run cannot take up (another problem's, a
// damaged one) is refused by the run itself, in its own words. In an MPI job rank 0 alone reads
// the journal and tells the others, so that every rank weighs alike.
std::optional<job::Survey> journal_left(const job::Job& job, const SolveOptions& options) {
  const std::string& journal = options.run.checkpoint;
  const mpi::Session* session = options.run.session;
  std::optional<job::Survey> taken;
  if ((!session || session->root()) && journal_begun(journal)) {
    try {
      taken = job::survey(job, journal);
    } catch (const UsageError&) {
    }
    if (taken && taken->chunks_done == 0) taken.reset();
  }
  if (!session) return taken;
  nlohmann::json said;  // null: none; a target of null: the plan's start
  if (taken) {
    said["target"] = taken->open_round_target ? nlohmann::json(*taken->open_round_target) : nullptr;
    said["left"] = taken->left;
  }
  said = nlohmann::json::parse(mpi::broadcast(*session, said.dump()));
  if (said.is_null()) return std::nullopt;
  job::Survey heard;
  if (!said.at("target").is_null()) heard.open_round_target = said.at("target").get<int>();
  heard.left = said.at("left").get<std::vector<job::Chunk>>();
  return heard;
}

// The estimate a run opens with. A run that takes up a journal weighs only the chunks it has
// left, from the target the next of them runs at (the chunks done count the nodes they took); a
// shard, only the chunks it runs; else the whole search. At 18 cards ending sorted the whole
// estimate is about 36 s of a thread, as long as a shard of 256 searches.
Estimate opening_estimate(const Plan& plan, const SolveOptions& options, const RunTarget& run) {
  const int samples = default_samples_per_chunk(plan);
  Tally unused;  // the job only lists its chunks here
  const job::Job job = make_job(plan, options, unused);
  if (const std::optional<job::Survey> taken = journal_left(job, options))
    return estimate_left(plan, *taken, run.threads);
  if (options.run.shard) {
    const std::vector<job::Chunk> chunks = job::chunks_run(job, options.run.shard);
    return estimate_part(plan, Estimate::Part::shard,
                         std::vector<int>(chunks.begin(), chunks.end()), plan.start_target, samples,
                         run.threads);
  }
  return estimate_search(plan, plan.start_target, samples, run.threads);
}

}  // namespace

Solution solve(const SolveOptions& options, const RunTarget& run) {
  // Before the quick search and the estimate, which take seconds from 17 cards on.
  job::check_options(options.run);
  // A journaled run stops cleanly on SIGTERM from its start, the quick search included (the
  // driver's own request, inside this one, keeps what it was told).
  std::optional<job::TerminationRequest> termination;
  if (!options.run.checkpoint.empty() && !options.run.session) termination.emplace();
  const Cancel terminated = [&] { return termination && termination->requested(); };
  const Plan plan = plan_for(options, run, terminated);
  Tally tally;
  std::optional<Estimate> estimate;
  if (plan.n >= estimated_from_n) estimate = opening_estimate(plan, options, run);
  Solution s = make_solution(
      plan, options.bound,
      job::run(make_job(plan, options, tally, estimate ? &*estimate : nullptr), options.run, run));
  s.estimate = estimate;
  s.target = run;
  s.chunks_on_host = tally.chunks_on_host;
  if (run.backend == Backend::cpu && options.engine == CpuEngine::lockstep)
    s.lane_use = tally.lane_use;
  return s;
}

namespace {

// The plan a journal's problem line names.
Plan plan_of(const std::string& journal) {
  int n = 0;
  Final final = Final::any;
  int start_target = 0, warmup = warmup_rounds;
  Tail tail;
  QuickStart start;
  std::optional<backward::Prune> prune;
  int revision = 0;
  job::read_identity(journal, "topswops", [&](const nlohmann::json& p) {
    n = p.at("n").get<int>();
    warmup = p.value("warmup_rounds", warmup_rounds);
    const std::string search = p.value("search", "");
    for (int r : {1, 2})
      if (search == fmt::format("backward-sorted/{}", r)) revision = r;
    if (revision != 0) prune = parse_prune(p.at("prune").get<std::string>());
    final = p.at("final") == "sorted" ? Final::sorted : Final::any;
    start_target = p.at("start_target").get<int>();
    if (p.contains("tail"))
      tail = {n, p.at("tail").at("from").get<int>(),
              p.at("tail").at("longest").get<std::vector<int>>()};
    start = p;
  });
  Plan plan = prune ? make_backward_plan(n, start_target, *prune, warmup)
                    : make_plan(n, final, start_target, tail, warmup);
  if (prune) plan.backward_revision = revision;
  take_start(plan, start);
  return plan;
}

// The answer of a plan's records, read from journals rather than run.
Solution merged(const Plan& plan, const job::Outcome& outcome) {
  Solution s = make_solution(plan, plan.told_bound(), outcome);
  s.target.device = "merge";
  return s;
}

}  // namespace

Solution merge(const std::vector<std::string>& journals) {
  if (journals.empty()) throw UsageError("merge: no journal files given");
  const Plan plan = plan_of(journals.front());
  Tally unused;  // a merge runs no engine
  return merged(plan, job::merge(make_job(plan, SolveOptions{}, unused), journals));
}

std::optional<Solution> read_finished(const std::string& journal) {
  Solution s = read_so_far(journal);
  if (!s.run.complete()) return std::nullopt;
  return s;
}

Solution read_so_far(const std::string& journal) {
  const Plan plan = plan_of(journal);
  Tally unused;
  const job::Outcome outcome = job::read_finished(make_job(plan, SolveOptions{}, unused), journal);
  return merged(plan, outcome);
}

job::Survey survey_journal(const std::string& journal, int threads, Estimate* used) {
  const Plan plan = plan_of(journal);
  Tally unused;
  job::Survey s = job::survey(make_job(plan, SolveOptions{}, unused), journal);
  if ((plan.n >= estimated_from_n || used) && !s.left.empty()) {
    const Estimate estimate = estimate_left(plan, s, threads);
    job::Survey weighed = job::survey(make_job(plan, SolveOptions{}, unused, &estimate), journal);
    s.work = weighed.work;
    s.unit = weighed.unit;
    if (used) *used = estimate;
  }
  s.go_on_options = plan.options();
  return s;
}

}  // namespace piles::topswops
