#pragma once

#include <string_view>
#include <vector>

namespace piles::topswops {

struct Game {
  std::vector<int> start;
  std::vector<std::vector<int>> trace;  // start first, then the deck after every flip
  int steps = 0;
  bool ends_sorted = false;
};

// Parses a deck such as "3,1,4,5,2"; throws UsageError unless it is a permutation of 1..n.
std::vector<int> parse_deck(std::string_view text);

// Plays until card 1 is on top.
Game play(const std::vector<int>& deck);

}  // namespace piles::topswops
