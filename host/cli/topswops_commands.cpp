#include <fmt/format.h>

#include <memory>
#include <string>

#include "host/cli/commands.hpp"
#include "host/common/output.hpp"
#include "host/topswops/play.hpp"

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
}

}  // namespace piles::cli
