#pragma once

#include <cstdint>

#include "core/hd.hpp"

namespace piles::babylon {

// Babylon positions. Only stack heights and top colours matter, and colours are
// interchangeable, so a position is the multiset, over colours, of the partition of heights of
// the stacks showing that colour. Everything here compiles for host and device and allocates
// nothing: the host solver and any kernel take the same step.

using Bits = unsigned __int128;

// A 256-bit key for starts too large for 128 bits; the operators the key code needs.
struct Bits256 {
  Bits hi = 0, lo = 0;

  constexpr Bits256() = default;
  PILES_HD constexpr Bits256(Bits low) : lo(low) {}  // NOLINT: widening, like integers
  PILES_HD constexpr Bits256(Bits high, Bits low) : hi(high), lo(low) {}

  PILES_HD explicit operator bool() const { return hi || lo; }
  PILES_HD friend Bits256 operator|(Bits256 a, Bits256 b) { return {a.hi | b.hi, a.lo | b.lo}; }
  PILES_HD friend Bits256 operator&(Bits256 a, Bits256 b) { return {a.hi & b.hi, a.lo & b.lo}; }
  PILES_HD friend Bits256 operator~(Bits256 a) { return {~a.hi, ~a.lo}; }
  PILES_HD friend Bits256 operator<<(Bits256 a, int n) {
    if (n == 0) return a;
    if (n >= 256) return {};
    if (n >= 128) return {a.lo << (n - 128), 0};
    return {(a.hi << n) | (a.lo >> (128 - n)), a.lo << n};
  }
  PILES_HD friend Bits256 operator>>(Bits256 a, int n) {
    if (n == 0) return a;
    if (n >= 256) return {};
    if (n >= 128) return {0, a.hi >> (n - 128)};
    return {a.hi >> n, (a.lo >> n) | (a.hi << (128 - n))};
  }
  PILES_HD Bits256& operator|=(Bits256 b) { return *this = *this | b; }
  PILES_HD Bits256& operator>>=(int n) { return *this = *this >> n; }
  PILES_HD friend bool operator==(Bits256 a, Bits256 b) { return a.hi == b.hi && a.lo == b.lo; }
  PILES_HD friend bool operator<(Bits256 a, Bits256 b) {
    return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo;
  }
};

// Bits a key of this type can use: the top bit is left to the caller (the solver's memo keeps
// the result there).
template <class Key>
inline constexpr int key_bits = static_cast<int>(8 * sizeof(Key)) - 1;

inline constexpr int max_colours = 16;
// Heights are bit positions of a 128-bit mask, and a 256-bit key holds at most 126 chips.
inline constexpr int max_chips = 126;
// d distinct heights in one colour need at least d(d+3)/2 key bits, so d <= 21.
inline constexpr int max_heights = 22;

// A start writes every chip as a one-bit and a zero, and one more zero per colour; every move
// shortens the key.
PILES_HD inline int start_key_bits(int chips, int colours) {
  return 2 * chips + colours;
}

// Without a popcount instruction in the target (the default x86-64 build) the compiler would
// call a library routine; the inline bit-parallel count is faster there.
PILES_HD inline int popcount64(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __popcll(x);
#elif defined(__POPCNT__)
  return __builtin_popcountll(x);
#else
  x -= (x >> 1) & 0x5555555555555555ULL;
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
#endif
}

PILES_HD inline int popcount(Bits x) {
  const auto hi = static_cast<std::uint64_t>(x >> 64);
  return popcount64(static_cast<std::uint64_t>(x)) + (hi ? popcount64(hi) : 0);
}

// Index of the lowest set bit; x must not be 0.
PILES_HD inline int lowest_bit(Bits x) {
  const auto lo = static_cast<std::uint64_t>(x);
  const auto hi = static_cast<std::uint64_t>(x >> 64);
#if defined(__CUDA_ARCH__)
  return lo ? __ffsll(lo) - 1 : 63 + __ffsll(hi);
#else
  return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(hi);
#endif
}

PILES_HD inline int lowest_bit(Bits256 x) {
  return x.lo ? lowest_bit(x.lo) : 128 + lowest_bit(x.hi);
}

PILES_HD inline bool bit(Bits x, int i) {
  return (x >> i) & 1;
}

PILES_HD inline bool bit(Bits256 x, int i) {
  return i < 128 ? bit(x.lo, i) : bit(x.hi, i - 128);
}

// The n lowest bits set.
template <class Key>
PILES_HD Key low_bits(int n) {
  return ~(~Key{0} << n);
}

// The stacks showing one colour: bit h of `present` says some stack has height h; count[r]
// is the number of such stacks for the r-th present height, lowest first.
struct Colour {
  Bits present = 0;
  std::uint8_t count[max_heights] = {};
  std::uint8_t stacks = 0;
  std::uint8_t chips = 0;

  PILES_HD int rank(int h) const { return popcount(present & low_bits<Bits>(h)); }
  PILES_HD bool has(int h) const { return bit(present, h); }
  PILES_HD int count_of(int h) const { return has(h) ? count[rank(h)] : 0; }

  PILES_HD void add(int h) {
    ++stacks;
    chips += h;
    const int r = rank(h);
    if (has(h)) {
      ++count[r];
      return;
    }
    for (int i = popcount(present); i > r; --i) count[i] = count[i - 1];
    count[r] = 1;
    present |= Bits{1} << h;
  }

  PILES_HD void remove(int h) {
    --stacks;
    chips -= h;
    const int r = rank(h);
    if (--count[r] > 0) return;
    const int n = popcount(present);
    for (int i = r; i + 1 < n; ++i) count[i] = count[i + 1];
    count[n - 1] = 0;
    present &= ~(Bits{1} << h);
  }

  // The colour's part of a key: stacks tallest first, each as h one-bits then a zero, the
  // lowest stack in the lowest bits. `length` receives the number of bits.
  template <class Key>
  PILES_HD Key code(int& length) const {
    Key code = 0;
    int pos = 0;
    int r = 0;
    for (Bits rest = present; rest; rest &= rest - 1, ++r) {
      // count[r] equal runs, appended by doubling a block of them.
      const int h = lowest_bit(rest);
      Key block = low_bits<Key>(h) << 1;
      int width = h + 1;
      for (int m = count[r];; m >>= 1) {
        if (m & 1) {
          code |= block << pos;
          pos += width;
        }
        if (m <= 1) break;
        block |= block << width;
        width *= 2;
      }
    }
    length = pos;
    return code;
  }
};

// A position as the mover sees it. Colours are labels: a board keeps the players' colours,
// a decoded key numbers them in key order; either way the key is the same.
struct Position {
  int colours = 0;
  Colour colour[max_colours];

  PILES_HD int chips() const {
    int n = 0;
    for (int c = 0; c < colours; ++c) n += colour[c].chips;
    return n;
  }
};

// A move, by class: a stack of height top_height showing top_colour goes on a stack of height
// bottom_height showing bottom_colour. The new stack shows top_colour.
struct Move {
  std::uint8_t top_colour, top_height, bottom_colour, bottom_height;

  PILES_HD int height() const { return top_height + bottom_height; }
};

PILES_HD inline void apply(Position& p, const Move& m) {
  p.colour[m.top_colour].remove(m.top_height);
  p.colour[m.bottom_colour].remove(m.bottom_height);
  p.colour[m.top_colour].add(m.height());
}

PILES_HD inline void undo(Position& p, const Move& m) {
  p.colour[m.top_colour].remove(m.height());
  p.colour[m.bottom_colour].add(m.bottom_height);
  p.colour[m.top_colour].add(m.top_height);
}

// Calls f(move) once per distinct move: two stacks of one class merge once; two classes of one
// colour give the same result whichever goes on top, so once; equal heights in two colours
// give two moves, one per colour left on top.
template <class F>
PILES_HD void for_each_move(const Position& p, F&& f) {
  for (int c = 0; c < p.colours; ++c) {
    const Colour& a = p.colour[c];
    const auto cc = static_cast<std::uint8_t>(c);
    int r = 0;
    for (Bits rest = a.present; rest; rest &= rest - 1, ++r) {
      const auto h = static_cast<std::uint8_t>(lowest_bit(rest));
      if (a.count[r] >= 2) f(Move{cc, h, cc, h});
      for (Bits taller = rest & (rest - 1); taller; taller &= taller - 1)
        f(Move{cc, static_cast<std::uint8_t>(lowest_bit(taller)), cc, h});
      for (int d = c + 1; d < p.colours; ++d) {
        if (!p.colour[d].has(h)) continue;
        const auto dd = static_cast<std::uint8_t>(d);
        f(Move{cc, h, dd, h});
        f(Move{dd, h, cc, h});
      }
    }
  }
}

// Subset sums of the stacks of every colour but `skip` and those in `dead`: bit s is set when
// some of those stacks together hold s chips.
PILES_HD inline Bits subset_sums(const Position& p, int skip, std::uint32_t dead) {
  Bits sums = 1;
  for (int c = 0; c < p.colours; ++c) {
    if (c == skip || ((dead >> c) & 1)) continue;
    const Colour& col = p.colour[c];
    int r = 0;
    for (Bits rest = col.present; rest; rest &= rest - 1, ++r) {
      const int h = lowest_bit(rest);
      // Binary splitting: copies of h in groups of 1, 2, 4, ... reach every multiple.
      for (int left = col.count[r], k = 1; left > 0; k <<= 1) {
        const int take = left < k ? left : k;
        if (h * take < 128) sums |= sums << (h * take);
        left -= take;
      }
    }
  }
  return sums;
}

// A position with its dead stacks set aside (see reduce()).
struct Reduced {
  std::uint32_t dead;  // colours whose only stack is dead
  int known;           // -1: search the key; 0: the mover loses; 1: the mover wins
  int bits;            // length of the key when known < 0: chips + stacks + colours, live only
};

// Two simplifications that keep the game the same:
// - a dead stack (the only one of its colour, and no set of other stacks sums to its height)
//   can never move or be covered again, so it is dropped: colours never reappear and stacks
//   only merge, so every future height is a subset sum of today's;
// - with at most one live colour left any two stacks can merge, so exactly stacks - 1 moves
//   remain and parity decides.
PILES_HD inline Reduced reduce(const Position& p) {
  Bits seen = 0, shared = 0;  // heights showing in some colour, in two or more colours
  int chips = 0;
  for (int c = 0; c < p.colours; ++c) {
    shared |= seen & p.colour[c].present;
    seen |= p.colour[c].present;
    chips += p.colour[c].chips;
  }

  std::uint32_t dead = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (int c = 0; c < p.colours; ++c) {
      if (p.colour[c].stacks != 1 || ((dead >> c) & 1)) continue;
      const int h = lowest_bit(p.colour[c].present);
      // Quick answers first: another stack of the same height, or too few other chips.
      if (bit(shared, h)) continue;
      if (2 * h <= chips && bit(subset_sums(p, c, dead), h)) continue;
      dead |= 1u << c;
      chips -= h;
      changed = true;
    }
  }

  int live_colours = 0, live_stacks = 0;
  for (int c = 0; c < p.colours; ++c) {
    if (p.colour[c].stacks == 0 || ((dead >> c) & 1)) continue;
    ++live_colours;
    live_stacks += p.colour[c].stacks;
  }
  if (live_colours <= 1) return {dead, live_stacks >= 2 && live_stacks % 2 == 0 ? 1 : 0, 0};
  return {dead, -1, chips + live_stacks + live_colours};
}

// Canonical key of the live colours: each colour's code and a closing zero, colours in
// increasing order of their codes (any fixed order of partitions would do). Needs
// key_bits<Key> >= reduce(p).bits.
template <class Key>
PILES_HD Key pack(const Position& p, std::uint32_t dead) {
  Key code[max_colours];
  int length[max_colours];
  int n = 0;
  for (int c = 0; c < p.colours; ++c) {
    if (p.colour[c].stacks == 0 || ((dead >> c) & 1)) continue;
    int len = 0;
    const Key k = p.colour[c].code<Key>(len);
    int i = n++;
    for (; i > 0 && k < code[i - 1]; --i) {
      code[i] = code[i - 1];
      length[i] = length[i - 1];
    }
    code[i] = k;
    length[i] = len;
  }
  Key key = 0;
  for (int i = 0; i < n; ++i) key = (key << (length[i] + 1)) | (code[i] << 1);
  return key;
}

// What encode() found: the position's key, or its value when that needs no search.
template <class Key>
struct Encoded {
  Key key;
  int known;  // -1: search `key`; 0: the mover loses; 1: the mover wins
};

// reduce() then pack(); the key must have room for the position.
template <class Key>
PILES_HD Encoded<Key> encode(const Position& p) {
  const Reduced r = reduce(p);
  if (r.known >= 0) return {Key{0}, r.known};
  return {pack<Key>(p, r.dead), -1};
}

// Inverse of encode() for a key it returned: colours numbered from the lowest bits up.
template <class Key>
PILES_HD Position decode(Key key) {
  Position p;
  key >>= 1;  // the zero closing the last colour
  while (key) {
    Colour& col = p.colour[p.colours++];
    for (;;) {
      key >>= 1;  // the zero closing a stack
      const int h = lowest_bit(~key);
      col.add(h);
      key >>= h;
      // Next: nothing, a zero then a stack of this colour, or two zeros (the next colour).
      if (!key || !bit(key, 1)) break;
    }
    key >>= 1;
  }
  return p;
}

}  // namespace piles::babylon
