#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace piles::topswops {

// A game on n cards grown from a game on n - 1 cards, its trunk.
struct GrownGame {
  std::vector<int> deck;  // play(deck) replays it; empty where nothing was grown
  int steps = 0;
  std::uint64_t looked_at = 0;  // decks, heads' included
  // Every deck whose game ends where the trunk's does was looked at, within the budget: the
  // game is then the longest on n cards that ends in the trunk's final deck with card n beneath.
  bool complete = false;
};

// Decks looked at in growing one game, unless told otherwise: about half a second of one core at
// 20 cards, where f(19)'s third deck gives f(20) after some 3.5 million, a quarter of it.
inline constexpr std::uint64_t grow_budget = std::uint64_t{1} << 24;

// The published decks that reach f(n) (published::longest_decks), the trunks grow_game is given;
// none where they are not listed.
std::vector<std::vector<int>> published_longest_decks(int n);

// Grows games on n = trunk.size() + 1 cards from the trunk's game. Once card n is flipped it lies
// at the bottom for good, and what is left is a game on n - 1 cards: so a game on n cards is a
// head, the flip of n, and a game E on n - 1 cards. Here E runs over the decks whose games join
// the trunk's, those joining it nearer its start first: each deck of the trunk, and every deck
// on a branch that joins it there (the tree of decks reaching it, the trunk's own earlier decks
// left out). For each E the head is the deepest deck whose game reaches card n on top of E
// reversed; the longest of those games is returned. `budget` counts the decks looked at, heads'
// included; `stop` is asked every few thousand of them. A game on n cards that ends where the
// trunk's does, card n beneath, either flips card n once, and is one of these, or has card n
// beneath from the start, and is then one step shorter than the one grown from its top n - 1
// cards: so once every such E is looked at, the game returned is the longest of them all.
GrownGame grow_game(const std::vector<int>& trunk, std::uint64_t budget,
                    const std::function<bool()>& stop);

}  // namespace piles::topswops
