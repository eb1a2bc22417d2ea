// What a warp of the GPU's Bulgarian backward walk would do, measured on the host
// (host/bulgarian/walk_lanes.hpp): the first round of `bulgarian analyze N --engine backward`
// on a device holding W walks, its walks in warps of 32 consecutive ones stepping together.
// Lane use is the loop turns the lanes needed over 32 times the turns their warps took (and
// with a descent and an ascent in one turn counted as two passes). The record goes to
// results/bench/bulgarian_walk_lanes.md.
//
//   bench_walk_lanes [--from N] [--to N] [--step S] [--walks W] [--budgets B,...] [--out FILE]

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "bench/bench_support.hpp"
#include "build_info.hpp"
#include "host/bulgarian/walk_lanes.hpp"
#include "host/common/partition_table.hpp"

int main(int argc, char** argv) {
  CLI::App app{"The Bulgarian backward walk's lanes on a GPU, modelled on the host"};
  int from = 90, to = 120, step = 10;
  // An H100's 132 SMs at 2048 resident threads each, four walks a thread: the kernel's
  // walks_per_round() where the walk's registers allow full occupancy.
  std::size_t walks = 132 * 2048 * 4;
  std::string out = "results/bench/bulgarian_walk_lanes.md";
  app.add_option("--from", from, "First n")->check(CLI::Range(1, 400));
  app.add_option("--to", to, "Last n")->check(CLI::Range(1, 400));
  app.add_option("--step", step, "Step between sizes")->check(CLI::PositiveNumber);
  app.add_option("--walks", walks, "Walks a round holds (default: an H100 at full occupancy)")
      ->check(CLI::PositiveNumber);
  std::vector<int> budgets = {20, 12};
  app.add_option("--budgets", budgets,
                 "Descents per walk and round, as powers of two (the kernel's first)")
      ->delimiter(',')
      ->check(CLI::Range(1, 40));
  app.add_option("--out", out, "Record file");
  CLI11_PARSE(app, argc, argv);

  std::string rows;
  for (const int budget : budgets)
    for (int n = from; n <= to; n += step) {
      const auto start = std::chrono::steady_clock::now();
      const piles::bulgarian::WalkLaneUse use =
          piles::bulgarian::model_walk_lanes(n, walks, std::uint64_t{1} << budget);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const std::uint64_t all = piles::partition_count(n);
      const std::string row = fmt::format(
          "| 2^{} | {} | {} | {} | {} ({:.3f} of p(n)) | {:.3f} | {:.3f} | {:.2f} | {} | {:.0f} | "
          "{:.0f} |\n",
          budget, n, use.rounds, use.walks, use.partitions,
          static_cast<double>(use.partitions) / static_cast<double>(all), use.lane_use(),
          use.branch_lane_use(), use.passes_per_partition(), use.serial_steps, use.parallelism(),
          seconds);
      fmt::print("{}", row);
      std::fflush(stdout);
      rows += row;
    }
  std::string body = fmt::format(
      "# Bulgarian backward walk: the lanes of a warp, modelled on the host\n\n"
      "_made by `bench_walk_lanes --from {} --to {} --step {} --walks {} --budgets {}`; piles {}; "
      "{}; {}_\n\n"
      "`bulgarian analyze N --engine backward` on a device holding {} walks a round (an "
      "H100's 132 SMs at 2048 threads each, four walks a thread), replayed on the host: the "
      "host opens the forest's top until that many subtrees wait; in each round every GPU "
      "thread walks one subtree (`walk_forest`, up to a budget of descents: the kernel's is "
      "2^20), a warp's 32 lanes 32 "
      "consecutive walks, stepping together until the longest is done; the walks left "
      "unfinished are split for the next round. A turn is one pass of the walk's loop (a "
      "descent with its visit, an ascent, or the last look). Lane use: the turns the lanes "
      "needed over 32 times the turns their warps took; by branch: the same where a turn with "
      "both descents and ascents takes two passes. Passes are warp passes per partition the "
      "rounds visit. Serial turns: the longest warp of each round, added up: however many "
      "threads a device has, the walk takes at least that many turns one after another; "
      "parallelism is partitions per serial turn, the threads the rounds can keep busy on "
      "average. Seconds are the model's own time on this machine.\n\n"
      "| budget | n | rounds | walks | partitions walked | lane use | lane use by branch | "
      "warp passes per partition | serial turns | parallelism | model s |\n"
      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
      from, to, step, walks, fmt::join(budgets, ","), piles::version, piles::cpu_model(),
      piles::bench::today(), walks);
  body += rows;
  body +=
      "\nTargets for the walk's next kernel, on this model before any GPU time: lane use at "
      "least 0.5, and a parallelism of at least 10^5 from n = 100 on (an H100 holds 270,336 "
      "threads; 10^10 partitions a second at a few turns per partition needs most of them "
      "busy). Two things hold the table below them: a warp waits for the longest of its 32 "
      "walks (lane use), and a round lasts as long as its longest walk, up to the budget, "
      "while most walks end long before it (serial turns). A smaller budget shortens the "
      "rounds (split_walk then shares the walks left, down to the children of the node a walk "
      "stands on) at the price of more rounds, each a launch and a copy of the walks both "
      "ways; lanes that take a new walk as soon as theirs ends, without waiting for their "
      "warp, would lift the lane use.\n";
  piles::bench::write_record(out, body);
  return 0;
}
