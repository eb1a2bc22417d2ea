#include "host/topswops/play.hpp"

#include <fmt/format.h>

#include <array>
#include <cstdint>

#include "core/deck.hpp"
#include "host/common/error.hpp"
#include "host/common/parse.hpp"

namespace piles::topswops {

std::vector<int> parse_deck(std::string_view text) {
  const auto values = parse_int_list(text, "deck", 1, deck::max_cards);
  const int n = static_cast<int>(values.size());
  if (n > deck::max_cards)
    throw UsageError(fmt::format("deck: {} cards, at most {} are supported", n, deck::max_cards));
  std::vector<int> cards(values.begin(), values.end());
  std::vector<bool> seen(n + 1, false);
  for (int card : cards) {
    if (card > n)
      throw UsageError(
          fmt::format("deck: card {} in '{}' is larger than the {} cards given", card, text, n));
    if (seen[card])
      throw UsageError(fmt::format("deck: card {} appears twice in '{}'", card, text));
    seen[card] = true;
  }
  return cards;
}

Game play(const std::vector<int>& start) {
  const int n = static_cast<int>(start.size());
  std::array<std::uint8_t, deck::max_cards> cards{};
  for (int i = 0; i < n; ++i) cards[i] = static_cast<std::uint8_t>(start[i]);
  Game game;
  game.start = start;
  game.trace.push_back(start);
  // Knuth proved the game ends (at most F(n+1) steps), so this loop terminates.
  while (cards[0] != 1) {
    deck::flip(cards.data(), cards[0]);
    ++game.steps;
    game.trace.emplace_back(cards.begin(), cards.begin() + n);
  }
  game.ends_sorted = deck::is_sorted(cards.data(), n);
  return game;
}

}  // namespace piles::topswops
