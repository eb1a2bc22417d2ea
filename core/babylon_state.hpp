#pragma once

#include <cstdint>

#include "core/hd.hpp"

namespace piles::babylon {

// Only stack heights and top colours matter, and colours are interchangeable: a state is the
// multiset, over colours, of the partition of heights of the stacks showing that colour.
inline constexpr int max_colours = 8;
inline constexpr int max_stacks = 64;

struct State {
  int colours = 0;                                    // colours with at least one stack on top
  std::uint8_t stacks[max_colours] = {};              // stacks per colour
  std::uint8_t height[max_colours][max_stacks] = {};  // non-increasing per colour
};

// 128-bit key: per colour, each stack as `height` one-bits then a zero, and one more zero
// closing the colour. Needs chips + stacks + colours <= 128 bits, which holds for every state
// of a start with 2*chips + colours <= 128.
struct Key {
  std::uint64_t hi = 0, lo = 0;
  PILES_HD friend bool operator==(const Key& a, const Key& b) {
    return a.hi == b.hi && a.lo == b.lo;
  }
  PILES_HD friend bool operator<(const Key& a, const Key& b) {
    return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo;
  }
};

PILES_HD inline void push_bits(Key& k, int& used, bool one) {
  k.hi = (k.hi << 1) | (k.lo >> 63);
  k.lo = (k.lo << 1) | (one ? 1u : 0u);
  ++used;
}

PILES_HD inline Key colour_key(const std::uint8_t* heights, int stacks) {
  Key k;
  int used = 0;
  for (int s = 0; s < stacks; ++s) {
    for (int h = 0; h < heights[s]; ++h) push_bits(k, used, true);
    push_bits(k, used, false);
  }
  return k;
}

// Sort heights within each colour (descending), drop colours with no stack, then order the
// colours by their own key so that relabelled states coincide.
PILES_HD inline void canonicalize(State& s) {
  int kept = 0;
  for (int c = 0; c < s.colours; ++c) {
    if (s.stacks[c] == 0) continue;
    if (kept != c) {
      s.stacks[kept] = s.stacks[c];
      for (int i = 0; i < s.stacks[c]; ++i) s.height[kept][i] = s.height[c][i];
    }
    std::uint8_t* h = s.height[kept];
    for (int i = 1; i < s.stacks[kept]; ++i)
      for (int j = i; j > 0 && h[j - 1] < h[j]; --j) {
        const std::uint8_t t = h[j];
        h[j] = h[j - 1];
        h[j - 1] = t;
      }
    ++kept;
  }
  s.colours = kept;
  for (int i = 1; i < kept; ++i)
    for (int j = i; j > 0; --j) {
      const Key a = colour_key(s.height[j - 1], s.stacks[j - 1]);
      const Key b = colour_key(s.height[j], s.stacks[j]);
      if (!(b < a)) break;
      const std::uint8_t n = s.stacks[j];
      s.stacks[j] = s.stacks[j - 1];
      s.stacks[j - 1] = n;
      for (int t = 0; t < max_stacks; ++t) {
        const std::uint8_t x = s.height[j][t];
        s.height[j][t] = s.height[j - 1][t];
        s.height[j - 1][t] = x;
      }
    }
}

// The key of a canonical state: colour keys concatenated, each closed by an extra zero bit.
PILES_HD inline Key key(const State& s) {
  Key k;
  int used = 0;
  for (int c = 0; c < s.colours; ++c) {
    for (int i = 0; i < s.stacks[c]; ++i) {
      for (int h = 0; h < s.height[c][i]; ++h) push_bits(k, used, true);
      push_bits(k, used, false);
    }
    push_bits(k, used, false);
  }
  return k;
}

}  // namespace piles::babylon
