// What a warp of the GPU's Topswops search issues, measured on the host: the lockstep search
// (core/topswops_lane.hpp: one unit per lane per pass, lanes refilled by their warp) and the
// dfs kernel's per-thread search replayed the same way (a warp runs each lane's flips until
// its slowest lane is done), over the rounds of `topswops solve N`. Each pass issues every kind
// of unit that any lane takes once, at its cost in sm_90 SASS instructions
// (host/topswops/lane_costs.hpp: the probes' costs, from `scripts/lane-costs --sass`, without the
// pass around the unit that the kernel's own costs count; the lockstep search also at
// its PTX costs, to compare); lane use is the instructions the lanes needed over 32 times those
// the warps issued. Both runs must give the CPU engine's chunks. The record goes to
// results/bench/topswops_lane_use.md.
//
//   bench_lane_use [--from N] [--to N] [--warps W] [--threads T] [--out FILE]

#include <fmt/format.h>
#include <omp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "bench/bench_support.hpp"
#include "build_info.hpp"
#include "host/topswops/lockstep_engine.hpp"

using piles::bench::today;

namespace {

namespace ts = piles::topswops;

using Chunks = std::map<int, ts::Partial>;

Chunks run(const ts::Plan& plan, const std::vector<int>& chunks, int target,
           const ts::LockstepOptions* lockstep, ts::LaneUse* use) {
  Chunks out;
  const ts::ChunkDone done = [&](int chunk, const ts::Partial& p, double) {
    out.emplace(chunk, p);
  };
  if (lockstep)
    ts::run_chunks_lockstep(plan, chunks, target, *lockstep, done, use);
  else
    ts::run_chunks_cpu(plan, chunks, target, omp_get_max_threads(), done);
  return out;
}

struct Figures {
  ts::LaneUse lockstep, mixed, per_thread;
  std::uint64_t nodes = 0;
  bool same = true;
};

// Every round of the solve, from the targets the CPU engine's earlier rounds give.
Figures measure(int n, int warps, int threads) {
  const ts::Plan plan = ts::make_plan(n, ts::Final::any, {});
  ts::LockstepOptions lockstep{0, warps, threads, ts::Schedule::by_unit};
  ts::LockstepOptions mixed = lockstep, per_thread = lockstep;
  mixed.schedule = ts::Schedule::mixed;
  per_thread.schedule = ts::Schedule::per_thread;
  Figures f;
  int target = plan.start_target;
  for (int r = 0; r < plan.round_count(); ++r) {
    const auto chunks = plan.chunks_of_round(r);
    const Chunks cpu = run(plan, chunks, target, nullptr, nullptr);
    f.same = f.same && run(plan, chunks, target, &lockstep, &f.lockstep) == cpu &&
             run(plan, chunks, target, &mixed, &f.mixed) == cpu &&
             run(plan, chunks, target, &per_thread, &f.per_thread) == cpu;
    for (const auto& [c, p] : cpu) {
      target = std::max(target, p.best);
      f.nodes += p.total_nodes();
    }
  }
  return f;
}

std::string unit_mix(const ts::LaneUse& u) {
  const double nodes = static_cast<double>(u.nodes);
  return fmt::format("{:.2f} / {:.2f} / {:.2f} / {:.2f}", u.units[ts::lockstep::choose] / nodes,
                     u.units[ts::lockstep::flip] / nodes, u.units[ts::lockstep::block] / nodes,
                     u.units[ts::lockstep::ret] / nodes);
}

}  // namespace

// What the lockstep kernel is asked to reach on this model, from n = 13 on.
constexpr double target_per_node = 24, target_lane_use = 0.5;

int main(int argc, char** argv) {
  CLI::App app{"Warp instructions per node and lane use of the GPU's Topswops searches"};
  int from = 11, to = 14, warps = 16, threads = omp_get_num_procs();
  std::string out = "results/bench/topswops_lane_use.md";
  app.add_option("--from", from, "Smallest n")->check(CLI::Range(2, 16));
  app.add_option("--to", to, "Largest n")->check(CLI::Range(2, 16));
  app.add_option("--warps", warps, "Warps of a launch")->check(CLI::PositiveNumber);
  app.add_option("--threads", threads, "Host threads running them")->check(CLI::PositiveNumber);
  app.add_option("--out", out, "Record file");
  CLI11_PARSE(app, argc, argv);

  const auto costs = [](const ts::UnitCosts& c) {
    return fmt::format("choose {}, flip {}, block {}, land {}, return {}, refill {}, vote {}",
                       c.unit[0], c.unit[1], c.unit[2], c.unit[3], c.unit[4], c.refill, c.vote);
  };
  std::string body = fmt::format(
      "_made by `bench_lane_use --from {} --to {} --warps {}`; piles {}; {}; unit costs in sm_90 "
      "SASS instructions: {}; in PTX: {}_\n\n"
      "| n | nodes | lockstep: warp instructions per node | lockstep: lane use | lockstep at PTX "
      "costs: warp instructions per node | lane use | mixed: warp instructions per node | mixed: "
      "lane use | per-thread: warp instructions per node | per-thread: lane use | per node: "
      "choices / flips / blocks / returns | result |\n"
      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n",
      from, to, warps, piles::version, today(), costs(ts::probe_costs), costs(ts::probe_costs_ptx));
  bool all_same = true;
  std::string targets;
  for (int n = from; n <= to; ++n) {
    const Figures f = measure(n, warps, threads);
    all_same = all_same && f.same;
    if (n >= 13) {
      const double per_node = f.lockstep.instructions_per_node(ts::probe_costs),
                   use = f.lockstep.lane_use(ts::probe_costs);
      targets += fmt::format(
          "- n = {}: {:.1f} warp instructions per node ({}), lane use {:.2f} ({})\n", n, per_node,
          per_node <= target_per_node
              ? "met"
              : fmt::format("{:.2f} times the target", per_node / target_per_node),
          use, use >= target_lane_use ? "met" : "missed");
    }
    const std::string row = fmt::format(
        "| {} | {} | {:.1f} | {:.2f} | {:.1f} | {:.2f} | {:.1f} | {:.2f} | {:.1f} | {:.2f} | {} | "
        "{} "
        "|\n",
        n, f.nodes, f.lockstep.instructions_per_node(ts::probe_costs),
        f.lockstep.lane_use(ts::probe_costs), f.lockstep.instructions_per_node(ts::probe_costs_ptx),
        f.lockstep.lane_use(ts::probe_costs_ptx), f.mixed.instructions_per_node(ts::probe_costs),
        f.mixed.lane_use(ts::probe_costs), f.per_thread.instructions_per_node(ts::probe_costs),
        f.per_thread.lane_use(ts::probe_costs), unit_mix(f.lockstep), f.same ? "equal" : "DIFFER");
    fmt::print("{}", row);
    std::fflush(stdout);
    body += row;
  }
  body +=
      "\nBoth searches visit the CPU engine's nodes (every chunk equal, nodes per level "
      "included). Per node, a lane takes one choice per child tried, its flips, a fixed-block "
      "check where the flip puts card h in place, one landing and one return. Lockstep is the "
      "kernel's schedule (each pass the unit most lanes want, a vote of a match and a "
      "reduction); mixed lets every lane take its own unit each pass, so a pass issues every "
      "unit some lane takes; per-thread replays the dfs kernel's order on the same units: while "
      "any lane of the warp is flipping, the others wait (with the lockstep's units: the dfs "
      "kernel's choice also takes Knuth's quick look, which this leaves out). Figures from the "
      "host, not a GPU: SASS instructions (PTX for comparison), not cycles.\n";
  if (!targets.empty())
    body += fmt::format(
        "\nTargets of the lockstep kernel, n = 13 and 14: at most {} warp instructions per node "
        "and lane use at least {}.\n\n{}",
        target_per_node, target_lane_use, targets);
  piles::bench::write_record(
      out, "# Topswops on the GPU: warp instructions per node and lane use\n\n" + body);
  return all_same ? 0 : 1;
}
