// The Bulgarian backward walk in lanes (core/bulgarian_lane.hpp), as the GPU's lanes kernel
// runs it, emulated on the host by its twin (host/bulgarian/lane_walk.hpp): launches, the
// host's splitting before them, the walks split on the device, lane use, passes and warp
// instructions per partition (by the SASS counts of host/bulgarian/lane_costs.hpp) of
// `bulgarian analyze N --engine backward --walk-kernel K` (lanes, or lanes-leaves) on a device
// of L resident lanes. The record goes to results/bench/bulgarian_lane_walk.md (K = lanes) or
// bulgarian_lane_walk_leaves.md.
//
//   bench_lane_walk [--kernel K] [--from N] [--to N] [--step S] [--lanes L] [--sample K]
//                   [--top T] [--walks-per-lane W] [--out FILE]

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

// What a device of `lanes` resident lanes stands for.
std::string device_shape(std::size_t lanes) {
  if (lanes == 132 * 1024) return "an H100 holding the lanes kernel, 64 registers a thread";
  if (lanes == 132 * 2048)
    return "an H100 at full occupancy, twice what the lanes kernel's 64 registers allow";
  return "a device of that many";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"The Bulgarian backward walk in lanes, emulated on the host"};
  int from = 90, to = 120, step = 10;
  // An H100's 132 SMs at 1024 resident threads each: the lanes kernel's 64 registers allow
  // half of the 2048 an SM holds.
  std::size_t lanes = 132 * 1024;
  std::size_t sample = 1;
  std::size_t top = piles::bulgarian::lanes_host_subtrees;
  std::size_t per_lane = piles::bulgarian::lanes_host_walks_per_lane;
  std::string kernel_name = "lanes";
  std::string out;
  app.add_option("--kernel", kernel_name, "lanes | lanes-leaves (default lanes)")
      ->check(CLI::IsMember({"lanes", "lanes-leaves"}));
  app.add_option("--from", from, "First n")->check(CLI::Range(1, 400));
  app.add_option("--to", to, "Last n")->check(CLI::Range(1, 400));
  app.add_option("--step", step, "Step between sizes")->check(CLI::PositiveNumber);
  app.add_option("--lanes", lanes, "Resident lanes (default: an H100 holding the lanes kernel)")
      ->check(CLI::Range(32, 1 << 24));
  app.add_option("--sample", sample, "Walk every K-th subtree of the host's top (default 1)")
      ->check(CLI::PositiveNumber);
  app.add_option("--top", top, "Subtrees the host opens (default: analyze's for the lanes kernel)")
      ->check(CLI::PositiveNumber);
  app.add_option("--walks-per-lane", per_lane,
                 "Walks the host splits the top into before the launch, per lane (default: "
                 "analyze's)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--out", out, "Record file (default: the kernel's record in results/bench)");
  CLI11_PARSE(app, argc, argv);

  const bool leaves = kernel_name == "lanes-leaves";
  if (out.empty())
    out = leaves ? "results/bench/bulgarian_lane_walk_leaves.md"
                 : "results/bench/bulgarian_lane_walk.md";
  const piles::bulgarian::LaneDevice device{lanes, piles::gpu::lane_pass_budget, leaves};
  const piles::bulgarian::WalkUnitCosts& costs = piles::bulgarian::walk_costs(leaves);
  std::string rows;
  for (int n = from; n <= to; n += step) {
    std::vector<piles::bulgarian::ForestWalker> work = sampled_top(n, top, sample);
    const std::size_t opened = work.size();
    const auto start = std::chrono::steady_clock::now();
    piles::bulgarian::fill_round(work, per_lane * lanes);
    const auto split = std::chrono::steady_clock::now();
    const std::size_t queue = work.size();
    piles::bulgarian::LaneWalkStats s;
    piles::bulgarian::lane_walk_host(std::move(work), n, device, 0, s);
    const auto end = std::chrono::steady_clock::now();
    const double split_s = std::chrono::duration<double>(split - start).count();
    const double model_s = std::chrono::duration<double>(end - split).count();
    const std::string row = fmt::format(
        "| {} | {} ({:.3f} of p(n)) | {} | {} -> {} | {:.2f} | {} | {} | {} | {} | {:.3f} | "
        "{:.3f} | {:.3f} | {:.1f} | {} | {:.0f} |\n",
        n, s.partitions,
        static_cast<double>(s.partitions) / static_cast<double>(piles::partition_count(n)),
        s.launches, opened, queue, split_s, s.walks_taken, s.gives, s.pushes, s.waits, s.lane_use(),
        s.device_lane_use(), s.passes_per_partition(), s.warp_instructions_per_partition(costs),
        s.serial_passes, model_s);
    fmt::print("{}", row);
    std::fflush(stdout);
    rows += row;
  }
  std::string body = fmt::format(
      "# Bulgarian backward walk in lanes, emulated on the host\n\n"
      "_made by `bench_lane_walk --kernel {} --from {} --to {} --step {} --lanes {} --top {} "
      "--sample {} --walks-per-lane {}`; piles {}; {}; {}_\n\n"
      "A host model, not a GPU measurement: `bulgarian analyze N --engine backward "
      "--walk-kernel {}` on a device of {} resident lanes ({}), emulated warp by warp and pass "
      "by pass by the kernel's "
      "host twin (host/bulgarian/lane_walk.hpp). The host opens the forest's top to {} subtrees "
      "(every {}-th of them walked here) and splits them once to {} a lane (host split: its "
      "walks before and after, and its seconds here); the launch puts them in the device's "
      "pool. Each lane walks its own walk one unit a pass (a descent with its visit, or an "
      "ascent{}); a warp's idle lanes take the rest of its busy lanes' walks (hand-overs, by "
      "shuffles), else walks of the pool (taken); a warp whose lanes are all busy splits "
      "walks into the pool while it holds fewer than one per eight lanes (pushed); a warp "
      "with no walk waits for the pool (waiting passes). Lane use: units over 32 times the "
      "passes of warps that ran one; device lane use: units over the grid's lanes times the "
      "launches' passes. Warp instructions per partition: every part of a pass weighed by its "
      "sm_90 SASS count (host/bulgarian/lane_costs.hpp, `scripts/lane-costs --walk`). Serial "
      "passes: the launches' passes, added up. Model seconds are the twin's own time on this "
      "machine.\n\n"
      "| n | partitions walked | launches | host split: walks | host split s | taken | "
      "hand-overs | pushed | waiting passes | lane use | device lane use | warp passes per "
      "partition | warp instructions per partition | serial passes | model s |\n"
      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
      kernel_name, from, to, step, lanes, top, sample, per_lane, piles::version, piles::cpu_model(),
      piles::bench::today(), kernel_name, lanes, device_shape(lanes), top, sample, per_lane,
      leaves ? "; a leaf child is visited from its parent in one descent, not stepped down to"
             : "");
  body += rows;
  piles::bench::write_record(out, body);
  return 0;
}
