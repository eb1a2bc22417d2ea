#include "host/topswops/solve.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "host/common/error.hpp"
#include "host/common/output.hpp"
#include "host/topswops/cpu_engine.hpp"
#include "host/topswops/gpu_engine.hpp"

namespace piles::topswops {
namespace {

std::uint64_t chunk_prefixes(const Plan& plan, job::Chunk chunk) {
  const int c = static_cast<int>(chunk);
  return plan.chunk_begin(c + 1) - plan.chunk_begin(c);
}

// Topswops as a job: the plan's chunks in its rounds, each round searching from the longest
// game found before it.
job::Job make_job(const Plan& plan) {
  job::Job j;
  j.identity = plan.identity();
  j.chunk_count = static_cast<job::Chunk>(plan.chunk_count);
  for (int r = 0; r < plan.round_count(); ++r) {
    const std::vector<int> chunks = plan.chunks_of_round(r);
    j.rounds.emplace_back(chunks.begin(), chunks.end());
  }
  j.shared_rounds = warmup_rounds;
  j.start_target = plan.start_target;
  j.raise = [](int target, const nlohmann::json& payload) {
    return std::max(target, payload.at("best").get<int>());
  };
  j.weight = [&plan](job::Chunk c) { return chunk_prefixes(plan, c); };
  // Enough prefixes for every GPU thread, or a piece for every CPU thread.
  j.slice_floor = [&plan](const RunTarget& run) {
    return run.backend == Backend::gpu ? gpu_launch_floor(plan.n)
                                       : static_cast<std::uint64_t>(run.threads) * piece_prefixes;
  };
  j.label = fmt::format("topswops n={}", plan.n);
  j.unit = "prefixes";
  j.check = [&plan](job::Chunk, const nlohmann::json& payload, const std::string& where) {
    partial_from_json(payload, plan.n, where);
  };
  j.run = [&plan](const std::vector<job::Chunk>& chunks, int target, const RunTarget& run,
                  const job::ChunkDone& done) {
    const ChunkDone found = [&](int chunk, const Partial& partial, double seconds) {
      Partial p = partial;
      if (chunk == 0) p.merge(plan.top);  // chunk 0 carries the levels above the prefixes
      done(static_cast<job::Chunk>(chunk), partial_to_json(p), seconds);
    };
    const std::vector<int> ids(chunks.begin(), chunks.end());
    if (run.backend == Backend::gpu)
      run_chunks_gpu(plan, ids, target, found);
    else
      run_chunks_cpu(plan, ids, target, run.threads, found);
  };
  return j;
}

Solution make_solution(const Plan& plan, std::optional<int> bound, const job::Outcome& outcome) {
  Solution s;
  s.n = plan.n;
  s.final = plan.final;
  s.start_target = plan.start_target;
  s.bound = bound;
  s.result.nodes.assign(plan.n, 0);
  for (const auto& [chunk, record] : outcome.records) {
    const Partial p = partial_from_json(record.payload, plan.n, "chunk");
    s.result.merge(p);
    if (!record.resumed) s.nodes_computed += p.total_nodes();
  }
  s.run = outcome.status;
  s.seconds = outcome.seconds;
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

Solution solve(const SolveOptions& options, const RunTarget& run) {
  const Plan plan = make_plan(options.n, options.final, options.bound);
  Solution s = make_solution(plan, options.bound, job::run(make_job(plan), options.run, run));
  s.target = run;
  return s;
}

Solution merge(const std::vector<std::string>& journals) {
  if (journals.empty()) throw UsageError("merge: no journal files given");
  nlohmann::json problem;
  int n = 0;
  Final final = Final::any;
  int start_target = 0;
  job::read_identity(journals.front(), "topswops", [&](const nlohmann::json& p) {
    problem = p;
    n = p.at("n").get<int>();
    final = p.at("final") == "sorted" ? Final::sorted : Final::any;
    start_target = p.at("start_target").get<int>();
  });
  const Plan plan = make_plan(n, final, start_target);
  if (plan.identity() != problem)
    throw UsageError(
        fmt::format("{}: the journal's problem is not the one this piles builds for "
                    "n = {} (another version?)",
                    journals.front(), n));
  Solution s = make_solution(plan, std::nullopt, job::merge(make_job(plan), journals));
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
      {"backend", s.run.merged ? "merge" : backend_name(s.target.backend)},
      {"device", s.target.device},
      {"threads", s.target.threads},
      {"start_target", s.start_target},
      {"bound", s.bound ? nlohmann::json(*s.bound) : nlohmann::json()},
      {"complete", s.run.complete()},
      {"chunks", s.run.chunks},
      {"chunks_resumed", s.run.chunks_resumed}};
  if (s.run.shard) j["shard"] = fmt::format("{}/{}", s.run.shard->index, s.run.shard->count);
  if (s.run.stopped) {
    j["stopped"] = true;
    j["chunks_done"] = s.run.chunks_done;
  }
  return j;
}

std::string to_text(const Solution& s, bool quiet) {
  std::string out =
      fmt::format("topswops n = {}{}\n", s.n,
                  s.final == Final::sorted ? ", games ending in the sorted deck" : "");
  if (s.run.shard)
    out += fmt::format("  shard          {}/{} (a partial result: merge the journals)\n",
                       s.run.shard->index, s.run.shard->count);
  if (s.result.best < 0) {
    const char* f = s.final == Final::sorted ? "f_sorted" : "f";
    out += fmt::format(
        "  longest game   none of {} steps or more{}\n", s.start_target,
        s.run.complete() ? fmt::format(", so {}({}) < {}", f, s.n, s.start_target) : "");
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
  if (s.run.merged) {
    out += fmt::format("  merged         {} chunks, {:.1f} s of computing in all\n", s.run.chunks,
                       s.seconds);
  } else {
    const std::string engine =
        s.target.backend == Backend::gpu
            ? fmt::format("gpu: {}", s.target.device)
            : fmt::format("cpu, {} thread{}", s.target.threads, s.target.threads == 1 ? "" : "s");
    out += fmt::format("  time           {:.2f} s, {:.1f} M nodes/s, {}\n", s.seconds,
                       s.seconds > 0 ? s.nodes_computed / s.seconds / 1e6 : 0.0, engine);
    if (s.run.stopped)
      out += fmt::format(
          "  stopped        at the time limit with {} of {} chunks done (a partial result)\n",
          s.run.chunks_done, s.run.chunks);
    if (s.run.chunks_resumed > 0)
      out += fmt::format("  resumed        {} of {} chunks from the checkpoint\n",
                         s.run.chunks_resumed, s.run.chunks);
  }
  return out;
}

}  // namespace piles::topswops
