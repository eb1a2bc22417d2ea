// Quick-bound benchmark: find_long_game (host/topswops/quick_bound.hpp) for each n of a range,
// `--seconds` each, against the published longest games: the steps found, how far below the
// published value, and when the best game was found. Every deck found is replayed with play().
// The record goes to results/bench/quick_bound.md (quick_bound_sorted.md for sorted finals).
//
//   bench_quick_bound [--from N] [--to N] [--seconds S] [--threads T] [--seed X]
//                     [--final any|sorted] [--out FILE]

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <string>

#include "bench/bench_support.hpp"
#include "build_info.hpp"
#include "host/common/output.hpp"
#include "host/topswops/play.hpp"
#include "host/topswops/published.hpp"
#include "host/topswops/quick_bound.hpp"

namespace ts = piles::topswops;

int main(int argc, char** argv) {
  CLI::App app{"Quick lower bounds for Topswops: steps found against the published values"};
  int from = 14, to = 18, threads = 2;
  double seconds = 60;
  std::uint64_t seed = 1;
  std::string final_name = "any", out;
  app.add_option("--from", from, "First n")->check(CLI::Range(1, ts::max_n));
  app.add_option("--to", to, "Last n")->check(CLI::Range(1, ts::max_n));
  app.add_option("--seconds", seconds, "Time for each n")->check(CLI::NonNegativeNumber);
  app.add_option("--threads", threads, "CPU threads")->check(CLI::PositiveNumber);
  app.add_option("--seed", seed, "Random seed");
  app.add_option("--final", final_name, "any | sorted")->check(CLI::IsMember({"any", "sorted"}));
  app.add_option("--out", out, "Record file (default results/bench/quick_bound[_sorted].md)");
  CLI11_PARSE(app, argc, argv);
  const bool sorted = final_name == "sorted";
  if (out.empty())
    out = sorted ? "results/bench/quick_bound_sorted.md" : "results/bench/quick_bound.md";
  const auto& published =
      sorted ? std::vector<int>(ts::published::longest_sorted.begin(),
                                ts::published::longest_sorted.end())
             : std::vector<int>(ts::published::longest.begin(), ts::published::longest.end());
  const std::string load_before = piles::bench::load_average();
  fmt::print("bench_quick_bound n = {}..{}{}: {} s each, {} threads, seed {}, load {}\n", from, to,
             sorted ? " (sorted)" : "", seconds, threads, seed, load_before);
  std::string table =
      "| n | steps found | published | below | time to best s | found by | deck |\n"
      "|---:|---:|---:|---:|---:|---|---|\n";
  bool all_replay = true;
  for (int n = from; n <= to; ++n) {
    ts::QuickBoundOptions options;
    options.n = n;
    options.final = sorted ? ts::Final::sorted : ts::Final::any;
    options.seconds = seconds;
    options.threads = threads;
    options.seed = seed;
    if (static_cast<std::size_t>(n) < published.size()) options.stop_at = published[n];
    const ts::LongGame game = ts::find_long_game(options);
    const ts::Game replay = ts::play(game.deck);
    const bool replays = replay.steps == game.steps && (!sorted || replay.ends_sorted);
    all_replay = all_replay && replays;
    const std::string known =
        options.stop_at ? fmt::format("{}", *options.stop_at) : std::string("?");
    const std::string below =
        options.stop_at ? fmt::format("{}", *options.stop_at - game.steps) : std::string("");
    const std::string found_by =
        game.grown_from.empty()
            ? std::string("beams")
            : fmt::format("grown from f({})'s {}", n - 1, piles::comma_list(game.grown_from));
    fmt::print("n = {:2}: {:4} steps (published {:>3}) at {:6.2f} s{}  {} ({})\n", n, game.steps,
               known, game.seconds, replays ? "" : "  REPLAY DIFFERS", piles::comma_list(game.deck),
               found_by);
    std::fflush(stdout);
    table += fmt::format("| {} | {} | {} | {} | {:.2f} | {} | {}{} |\n", n, game.steps, known,
                         below, game.seconds, found_by, piles::comma_list(game.deck),
                         replays ? "" : " (replay differs)");
  }
  const std::string body = fmt::format(
      "# Quick lower bounds for Topswops{}\n\n"
      "_made by `bench_quick_bound --from {} --to {} --seconds {} --threads {} --seed {} --final "
      "{}`; piles {}; {}; load average before {}, after {}; {}_\n\n"
      "Each n stops at its published value or after {} s; `time to best` is when the best game "
      "was found. Every deck was replayed: {}.\n\n{}",
      sorted ? ", games ending sorted" : "", from, to, seconds, threads, seed, final_name,
      piles::version, piles::cpu_model(), load_before, piles::bench::load_average(),
      piles::bench::today(), seconds, all_replay ? "all replay to the steps shown" : "SOME DIFFER",
      table);
  piles::bench::write_record(out, body);
  return all_replay ? 0 : 1;
}
