#pragma once

// What a Topswops search keeps of each chunk while it runs (host+device): the chunk's best
// length and its number of games packed in one word that a compare-and-swap replaces whole, and
// the games themselves as the GPU's buffer holds them.

#include <cstdint>

#include "core/hd.hpp"
#include "core/topswops.hpp"

namespace piles::topswops::found {

// The best length plus one (0: no game yet) above, the count below.
inline constexpr int count_bits = 40;

// The word after a game of `steps` steps: a longer game starts the count at one, an equal one
// adds one, a shorter one leaves the word as it was.
PILES_HD constexpr unsigned long long with_game(unsigned long long word, int steps) {
  const unsigned long long mine = static_cast<unsigned long long>(steps + 1) << count_bits;
  const unsigned long long best = word >> count_bits << count_bits;
  if (mine < best) return word;
  return mine == best ? word + 1 : mine | 1;
}

PILES_HD constexpr int best_of(unsigned long long word) {
  return static_cast<int>(word >> count_bits) - 1;
}

PILES_HD constexpr std::uint64_t count_of(unsigned long long word) {
  return word & ((1ull << count_bits) - 1);
}

// The chunk of prefix i, where chunk c holds the prefixes [ends[c-1], ends[c]).
PILES_HD inline std::uint32_t chunk_of(const std::uint64_t* ends, int chunks, std::uint64_t i) {
  int lo = 0, hi = chunks - 1;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (ends[mid] > i)
      hi = mid;
    else
      lo = mid + 1;
  }
  return static_cast<std::uint32_t>(lo);
}

template <int W>
struct Game {
  std::uint32_t chunk;
  std::int32_t steps;
  Deck<W> start, final_deck;
};

}  // namespace piles::topswops::found
