#include <fmt/format.h>

#include <memory>
#include <string>

#include "host/cli/commands.hpp"
#include "host/common/error.hpp"
#include "host/common/output.hpp"
#include "host/common/parse.hpp"
#include "host/mpi/chunk_runner.hpp"
#include "host/topswops/play.hpp"
#include "host/topswops/solve.hpp"

namespace piles::cli {
namespace {

void run_play(const std::string& text, const CommonOptions& common) {
  const topswops::Game game = topswops::play(topswops::parse_deck(text));
  const auto& final_deck = game.trace.back();
  if (common.json) {
    emit_json({{"deck", game.start},
               {"steps", game.steps},
               {"final", final_deck},
               {"final_sorted", game.ends_sorted},
               {"trace", game.trace}});
    return;
  }
  fmt::print("deck   {}\nsteps  {}\nfinal  {}{}\n", comma_list(game.start), game.steps,
             comma_list(final_deck), game.ends_sorted ? " (sorted)" : "");
  if (common.quiet) return;
  for (std::size_t i = 0; i < game.trace.size(); ++i)
    fmt::print("{:5}  {}\n", i, comma_list(game.trace[i]));
}

struct SolveArgs {
  std::string n, final = "any", bound, checkpoint, shard, slice, time_limit;
  bool mpi = false;
};

void print_solution(const topswops::Solution& s, const CommonOptions& common) {
  if (common.json)
    emit_json(topswops::to_json(s));
  else
    fmt::print("{}", topswops::to_text(s, common.quiet));
  if (s.stopped)
    throw Stopped(
        fmt::format("time limit reached with {} of {} chunks done; run the same "
                    "command again to resume from the journal",
                    s.chunks_done, s.chunk_count));
}

void run_solve(const SolveArgs& args, const CommonOptions& common) {
  topswops::SolveOptions options;
  options.n = static_cast<int>(parse_int(args.n, "N", 1, topswops::max_n));
  options.final = args.final == "sorted" ? topswops::Final::sorted : topswops::Final::any;
  if (!args.bound.empty())
    options.bound = static_cast<int>(parse_int(args.bound, "--bound", 0, 1'000'000));
  if (!args.shard.empty()) options.shard = topswops::parse_shard(args.shard);
  options.checkpoint = args.checkpoint;
  if (!args.slice.empty()) options.slice_seconds = parse_seconds(args.slice, "--slice");
  if (!args.time_limit.empty()) options.time_limit = parse_seconds(args.time_limit, "--time-limit");
  const bool quiet = common.quiet || common.json;
  if (!args.mpi)
    return print_solution(topswops::solve(options, resolve_backend(common), quiet), common);
  const mpi::Session session;
  options.session = &session;
  const topswops::Solution s =
      topswops::solve(options, mpi::resolve_rank_backend(session, common), quiet);
  if (session.root()) print_solution(s, common);
}

void add_solve(CLI::App& topswops, const CommonOptions& common) {
  auto args = std::make_shared<SolveArgs>();
  CLI::App* solve = topswops.add_subcommand(
      "solve", "The longest games on N cards and every deck that reaches them");
  solve->add_option("N", args->n, "Number of cards (1..24)")->required();
  solve->add_option("--final", args->final, "any | sorted: only games ending in the sorted deck")
      ->check(CLI::IsMember({"any", "sorted"}));
  solve->add_option("--bound", args->bound,
                    "Look only for games of at least L steps (none found proves f(N) < L)");
  solve->add_option("--checkpoint", args->checkpoint,
                    "Journal of finished chunks: resumes from it, appends to it");
  solve->add_option("--shard", args->shard,
                    "I/K: only chunks I mod K, a partial result in the --checkpoint journal");
  solve->add_option("--slice", args->slice,
                    "Seconds of work per engine call (default 30): the bar and the journal move, "
                    "a kill loses at most one slice");
  solve->add_option("--time-limit", args->time_limit,
                    "Stop cleanly after about this many seconds (exit status 3); needs "
                    "--checkpoint, and the same command resumes");
  solve->add_flag("--mpi", args->mpi,
                  "Spread the chunks over the ranks of an MPI job (mpirun -np K piles ...)");
  solve->callback([args, &common] { run_solve(*args, common); });
}

void add_merge(CLI::App& topswops, const CommonOptions& common) {
  auto files = std::make_shared<std::vector<std::string>>();
  CLI::App* merge =
      topswops.add_subcommand("merge", "Combine the journals of shards into the whole answer");
  merge->add_option("FILE", *files, "Journals written by solve --shard ... --checkpoint FILE")
      ->required();
  merge->callback([files, &common] { print_solution(topswops::merge(*files), common); });
}

}  // namespace

void add_topswops_commands(CLI::App& app, const CommonOptions& common) {
  CLI::App* topswops =
      app.add_subcommand("topswops", "Topswops: play decks, find the longest games");
  topswops->require_subcommand(1);

  auto deck = std::make_shared<std::string>();
  CLI::App* play = topswops->add_subcommand("play", "Play one deck: every deck along the game");
  play->add_option("DECK", *deck, "Comma-separated permutation of 1..n, top card first")
      ->required();
  play->callback([deck, &common] { run_play(*deck, common); });

  add_solve(*topswops, common);
  add_merge(*topswops, common);
}

}  // namespace piles::cli
