#include "host/topswops/replay.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "host/topswops/play.hpp"

namespace piles::topswops {

void replay_games(const Partial& partial, int n, Final final, int chunk,
                  const std::string& source) {
  const auto fail = [&](const std::string& what) {
    throw std::runtime_error(fmt::format("{} chunk {} of n = {}: {} (the host replay disagrees)",
                                         source, chunk, n, what));
  };
  if (partial.decks.size() > partial.count)
    fail(fmt::format("{} decks listed for a count of {}", partial.decks.size(), partial.count));
  std::vector<int> identity(n);
  std::iota(identity.begin(), identity.end(), 1);
  for (const FoundGame& g : partial.decks) {
    std::vector<int> sorted = g.deck;
    std::sort(sorted.begin(), sorted.end());
    if (sorted != identity)
      fail(fmt::format("deck {} is no permutation of 1..{}", fmt::join(g.deck, ","), n));
    const Game game = play(g.deck);
    if (game.steps != partial.best || game.trace.back() != g.final_deck ||
        (final == Final::sorted && !game.ends_sorted))
      fail(fmt::format("deck {} was reported as {} steps to {}, and plays {} steps to {}",
                       fmt::join(g.deck, ","), partial.best, fmt::join(g.final_deck, ","),
                       game.steps, fmt::join(game.trace.back(), ",")));
  }
}

}  // namespace piles::topswops
