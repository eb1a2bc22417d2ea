#pragma once

#include <cstdint>

#include "core/hd.hpp"

namespace piles::deck {

// Cards are 1..n, one byte each; position 0 is the top of the deck.
inline constexpr int max_cards = 64;

// The Topswops step: reverse the top k cards.
PILES_HD inline void flip(std::uint8_t* cards, int k) {
  for (int i = 0, j = k - 1; i < j; ++i, --j) {
    const std::uint8_t t = cards[i];
    cards[i] = cards[j];
    cards[j] = t;
  }
}

PILES_HD inline bool is_sorted(const std::uint8_t* cards, int n) {
  for (int i = 0; i < n; ++i)
    if (cards[i] != i + 1) return false;
  return true;
}

}  // namespace piles::deck
