#include "host/topswops/solve.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "host/common/error.hpp"
#include "host/topswops/cpu_engine.hpp"
#include "host/topswops/gpu_engine.hpp"

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

// Topswops as a job: the plan's chunks in its rounds, each round searching from the longest
// game found before it, on the engine the options name (what the calls add up goes to `tally`).
job::Job make_job(const Plan& plan, const SolveOptions& options, Tally& tally) {
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
  j.weight = [&plan](job::Chunk c) { return plan.chunk_prefixes(static_cast<int>(c)); };
  // Enough prefixes for the GPU kernel's threads or lanes, or a piece for every CPU thread.
  j.slice_floor = [&plan, &options](const RunTarget& run) {
    return run.backend == Backend::gpu ? gpu_launch_floor(plan.n, options.gpu_kernel)
                                       : static_cast<std::uint64_t>(run.threads) * piece_prefixes;
  };
  j.label = fmt::format("topswops n={}", plan.n);
  j.unit = "prefixes";
  j.check = [&plan](job::Chunk, const nlohmann::json& payload, const std::string& where) {
    partial_from_json(payload, plan.n, where);
  };
  j.run = [&plan, &options, &tally](const std::vector<job::Chunk>& chunks, int target,
                                    const RunTarget& run, const job::ChunkDone& done) {
    const ChunkDone found = [&](int chunk, const Partial& partial, double seconds) {
      if (chunk != 0)
        return done(static_cast<job::Chunk>(chunk), partial_to_json(partial), seconds);
      Partial with_top = partial;  // chunk 0 carries the levels above the prefixes
      with_top.merge(plan.top);
      done(0, partial_to_json(with_top), seconds);
    };
    const std::vector<int> ids(chunks.begin(), chunks.end());
    if (run.backend == Backend::gpu) {
      std::uint64_t prefixes = 0;
      for (int c : ids) prefixes += plan.chunk_prefixes(c);
      if (options.small_slices_on_host &&
          slice_on_host(prefixes, run.threads, gpu_lanes_in_flight(plan.n, options.gpu_kernel))) {
        run_chunks_cpu(plan, ids, target, run.threads, found);
        tally.chunks_on_host += static_cast<int>(ids.size());
      } else {
        run_chunks_gpu(plan, ids, target, found, options.gpu_kernel);
      }
    } else if (options.engine == CpuEngine::lockstep) {
      LockstepOptions lockstep{lockstep_pass_budget, h100_warps(plan.n), run.threads};
      lockstep.turn = lockstep_turn;
      if (options.gpu_kernel == GpuKernel::lean) lockstep.kernel = LockstepKernel::lean;
      run_chunks_lockstep(plan, ids, target, lockstep, found, &tally.lane_use);
    } else {
      run_chunks_cpu(plan, ids, target, run.threads, found);
    }
  };
  return j;
}

Solution make_solution(const Plan& plan, std::optional<int> bound, const job::Outcome& outcome) {
  Solution s;
  s.n = plan.n;
  s.final = plan.final;
  s.start_target = plan.start_target;
  s.bound = bound;
  s.tail = plan.tail;
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

}  // namespace

Solution solve(const SolveOptions& options, const RunTarget& run) {
  const Plan plan = make_plan(options.n, options.final, options.bound, options.tail);
  Tally tally;
  Solution s = make_solution(plan, options.bound,
                             job::run(make_job(plan, options, tally), options.run, run));
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
  int start_target = 0;
  Tail tail;
  job::read_identity(journal, "topswops", [&](const nlohmann::json& p) {
    n = p.at("n").get<int>();
    final = p.at("final") == "sorted" ? Final::sorted : Final::any;
    start_target = p.at("start_target").get<int>();
    if (p.contains("tail"))
      tail = {n, p.at("tail").at("from").get<int>(),
              p.at("tail").at("longest").get<std::vector<int>>()};
  });
  return make_plan(n, final, start_target, tail);
}

// The answer of a plan's records, read from journals rather than run.
Solution merged(const Plan& plan, const job::Outcome& outcome) {
  Solution s = make_solution(plan, std::nullopt, outcome);
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

}  // namespace piles::topswops
