// The Bulgarian backward walk in lanes (core/bulgarian_lane.hpp), as the GPU's lanes kernel
// runs it, emulated on the host by its twin (host/bulgarian/lane_walk.hpp): lane use, passes
// and warp instructions per partition (by the SASS counts of host/bulgarian/lane_costs.hpp) of
// `bulgarian analyze N --engine backward --walk-kernel lanes` on a device of L resident lanes.
// The record goes to results/bench/bulgarian_lane_walk.md.
//
//   bench_lane_walk [--from N] [--to N] [--step S] [--lanes L] [--sample K] [--out FILE]

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "bench/bench_support.hpp"
#include "build_info.hpp"
#include "host/bulgarian/lane_walk.hpp"
#include "host/common/partition_table.hpp"
#include "kernels/bulgarian_backward.hpp"

namespace {

// The host's top of `subtrees` subtrees, every `sample`-th of them.
std::vector<piles::bulgarian::ForestWalker> sampled_top(int n, std::size_t subtrees,
                                                        std::size_t sample) {
  const piles::bulgarian::ForestTop top = piles::bulgarian::expand_forest(n, subtrees);
  std::vector<piles::bulgarian::ForestWalker> out;
  for (std::size_t i = 0; i < top.subtrees.size(); i += sample) out.push_back(top.subtrees[i]);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"The Bulgarian backward walk in lanes, emulated on the host"};
  int from = 90, to = 120, step = 10;
  // An H100's 132 SMs at 2048 resident threads each: the lanes kernel's 32 registers and 160
  // bytes of stack allow full occupancy.
  std::size_t lanes = 132 * 2048;
  std::size_t sample = 1;
  std::size_t top = piles::bulgarian::lanes_host_subtrees;
  // The kernel's launches: the host splits walks until four a lane wait.
  std::size_t per_lane = 4;
  std::string out = "results/bench/bulgarian_lane_walk.md";
  app.add_option("--from", from, "First n")->check(CLI::Range(1, 400));
  app.add_option("--to", to, "Last n")->check(CLI::Range(1, 400));
  app.add_option("--step", step, "Step between sizes")->check(CLI::PositiveNumber);
  app.add_option("--lanes", lanes, "Resident lanes (default: an H100 at full occupancy)")
      ->check(CLI::Range(32, 1 << 24));
  app.add_option("--sample", sample, "Walk every K-th subtree of the host's top (default 1)")
      ->check(CLI::PositiveNumber);
  app.add_option("--top", top, "Subtrees the host opens (default: analyze's for the lanes kernel)")
      ->check(CLI::PositiveNumber);
  app.add_option("--walks-per-lane", per_lane, "Walks a launch starts with, per lane (default 4)")
      ->check(CLI::PositiveNumber);
  app.add_option("--out", out, "Record file");
  CLI11_PARSE(app, argc, argv);

  const piles::bulgarian::LaneDevice device{lanes, piles::gpu::lane_pass_budget};
  std::string rows;
  for (int n = from; n <= to; n += step) {
    const auto start = std::chrono::steady_clock::now();
    piles::bulgarian::LaneWalkStats s;
    piles::bulgarian::lane_walk_host(sampled_top(n, top, sample), n, device, per_lane * lanes, s);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string row = fmt::format(
        "| {} | {} | {} ({:.3f} of p(n)) | {} | {} | {:.3f} | {:.2f} | {:.1f} | {} | {:.0f} |\n", n,
        s.launches, s.partitions,
        static_cast<double>(s.partitions) / static_cast<double>(piles::partition_count(n)),
        s.walks_taken, s.parked, s.lane_use(), s.passes_per_partition(),
        s.warp_instructions_per_partition(), s.serial_passes, seconds);
    fmt::print("{}", row);
    std::fflush(stdout);
    rows += row;
  }
  std::string body = fmt::format(
      "# Bulgarian backward walk in lanes, emulated on the host\n\n"
      "_made by `bench_lane_walk --from {} --to {} --step {} --lanes {} --top {} --sample {} "
      "--walks-per-lane {}`; piles {}; "
      "{}; {}_\n\n"
      "`bulgarian analyze N --engine backward --walk-kernel lanes` on a device of {} resident "
      "lanes, emulated warp by warp and pass by pass by the kernel's host twin: the host opens "
      "the forest's top to {} subtrees (every {}-th of them walked here) and splits them to "
      "{} a lane; each lane walks its own subtree one unit a pass (a descent with its visit, "
      "or an ascent); a warp runs the unit most of its busy lanes want, its idle lanes take "
      "the next walks with one atomic, and once the queue is empty a warp parks its open walks "
      "as soon as one of its lanes is out of work, for the host to split before the next launch. "
      "Lane use: "
      "units over 32 times the warp passes. Warp instructions per partition: passes, units "
      "and refills weighed by their sm_90 SASS counts (host/bulgarian/lane_costs.hpp). Serial "
      "passes: the longest warp of each launch, added up. Seconds are the model's own time on "
      "this machine.\n\n"
      "| n | launches | partitions walked | walks taken | parked | lane use | warp passes per "
      "partition | warp instructions per partition | serial passes | model s |\n"
      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
      from, to, step, lanes, top, sample, per_lane, piles::version, piles::cpu_model(),
      piles::bench::today(), lanes, top, sample, per_lane);
  body += rows;
  piles::bench::write_record(out, body);
  return 0;
}
