#pragma once

#include <cstdint>

#include "core/hd.hpp"

#if defined(__SSSE3__) && defined(__SSE4_1__) && !defined(__CUDA_ARCH__)
#include <immintrin.h>
#endif

// Knuth's forward search for the longest Topswops games (TAOCP 7.2.1.2, exercise 107; the
// program topswops-fwd), shared by the CPU engine and the GPU kernel. Everything here compiles
// for host and device and allocates nothing.
//
// The deck is not fixed in advance. A position whose card is not known yet holds a blank that
// remembers its position in the start deck; when a blank comes to the top, the search chooses
// its card (a value 2..n not used yet) and plays on until the next blank is on top. Card 1 is
// never chosen: it is the last blank, and a game ends when it reaches the top. A node of the
// tree is one such choice; level l has l values chosen, and the leaves (level n-1) are whole
// games.
namespace piles::topswops {

// The per-node functions are small and called once per node: inlined, so that the node on
// hand lives in registers.
#if defined(__CUDACC__)
#define PILES_TOPSWOPS_HOT __host__ __device__ __forceinline__
#else
#define PILES_TOPSWOPS_HOT inline __attribute__((always_inline))
#endif

// The deck lives in one byte per position packed into 64-bit words (two words up to 16 cards,
// three up to 24), so a flip is a byte swap and a shift and the deck stays in registers.
inline constexpr int max_n = 24;

PILES_HD constexpr int words_for(int n) {
  return n <= 16 ? 2 : 3;
}

// A blank byte: blank_bit | its position (1-based) in the start deck. Known cards are 1..n.
inline constexpr std::uint64_t blank_bit = 0x80;
inline constexpr std::uint64_t position_bits = 0x3f;
inline constexpr std::uint64_t ones = 0x0101010101010101ull;

namespace bits {

PILES_TOPSWOPS_HOT std::uint64_t byte_swap(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  const auto lo = static_cast<unsigned>(x), hi = static_cast<unsigned>(x >> 32);
  return static_cast<std::uint64_t>(__byte_perm(lo, 0, 0x0123)) << 32 | __byte_perm(hi, 0, 0x0123);
#else
  return __builtin_bswap64(x);
#endif
}

// x must not be 0.
PILES_HD inline int trailing_zeros(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __ffsll(static_cast<long long>(x)) - 1;
#else
  return __builtin_ctzll(x);
#endif
}

// x must not be 0.
PILES_HD inline int leading_zeros(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __clzll(static_cast<long long>(x));
#else
  return __builtin_clzll(x);
#endif
}

PILES_HD inline int trailing_zeros32(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __ffs(static_cast<int>(x)) - 1;
#else
  return __builtin_ctz(x);
#endif
}

// Bits r.. of the 128-bit value hi:lo, for 0 <= r < 64 (the split shift avoids a shift by 64).
PILES_HD inline std::uint64_t funnel_right(std::uint64_t hi, std::uint64_t lo, unsigned r) {
  return lo >> r | (hi << 1) << (63 - r);
}

// The low `bytes` bytes of word j (byte 8j is its lowest) of a mask of the first `bytes` bytes.
PILES_HD inline std::uint64_t low_bytes(int bytes, int j) {
  const int in_word = bytes - 8 * j;
  if (in_word >= 8) return ~0ull;
  if (in_word <= 0) return 0;
  return ~0ull >> (64 - 8 * in_word);
}

}  // namespace bits

template <int W>
struct Deck {
  std::uint64_t w[W];

  PILES_HD int top() const { return static_cast<int>(w[0] & 0xff); }
  // Byte i, and setting it: the word is picked by comparison rather than by index, so that a
  // deck in registers stays there on the GPU.
  PILES_HD int at(int i) const {
    std::uint64_t word = 0;
    for (int j = 0; j < W; ++j)
      if (j == i >> 3) word = w[j];
    return static_cast<int>(word >> (8 * (i & 7)) & 0xff);
  }
  PILES_HD void set(int i, int value) {
    const int shift = 8 * (i & 7);
    for (int j = 0; j < W; ++j)
      if (j == i >> 3)
        w[j] = (w[j] & ~(0xffull << shift)) | static_cast<std::uint64_t>(value) << shift;
  }
};

PILES_HD inline bool is_blank(int byte) {
  return (byte & blank_bit) != 0;
}

// Cards 1..n in order: the sorted deck, and the yardstick for "settled" positions.
template <int W>
PILES_HD Deck<W> sorted_deck(int n) {
  Deck<W> d{};
  for (int i = 0; i < n; ++i) d.set(i, i + 1);
  return d;
}

// Every position blank: the root of the search.
template <int W>
PILES_HD Deck<W> blank_deck(int n) {
  Deck<W> d{};
  for (int i = 0; i < n; ++i) d.set(i, static_cast<int>(blank_bit) | (i + 1));
  return d;
}

// The Topswops step on the packed deck: reverse the top k cards (2 <= k <= 8W). Reversing all
// 8W bytes and shifting right by the bytes beyond k leaves the reversed top k in place; the
// bytes below them are kept. Playing (below) uses this or a faster one of the machine.
template <int W>
PILES_HD void flip_words(Deck<W>& d, int k);

namespace bits {

// v << s and v >> s, 0 once s reaches the width (a negative s, taken as unsigned, too): one
// shift on the GPU, whose shifts clear by themselves, so no select picks the words.
template <class T>
PILES_TOPSWOPS_HOT T shift_left_or_clear(T v, std::uint32_t s) {
#if defined(__CUDA_ARCH__)
  T out;
  if constexpr (sizeof(T) == 8)
    asm("shl.b64 %0, %1, %2;" : "=l"(out) : "l"(v), "r"(s));
  else
    asm("shl.b32 %0, %1, %2;" : "=r"(out) : "r"(v), "r"(s));
  return out;
#else
  return s < 8 * sizeof(T) ? v << s : 0;
#endif
}
template <class T>
PILES_TOPSWOPS_HOT T shift_right_or_clear(T v, std::uint32_t s) {
#if defined(__CUDA_ARCH__)
  T out;
  if constexpr (sizeof(T) == 8)
    asm("shr.b64 %0, %1, %2;" : "=l"(out) : "l"(v), "r"(s));
  else
    asm("shr.b32 %0, %1, %2;" : "=r"(out) : "r"(v), "r"(s));
  return out;
#else
  return s < 8 * sizeof(T) ? v >> s : 0;
#endif
}

}  // namespace bits

// Two words for the GPU: the reversed deck r1:r0 shifted right by s = 8 (16 - k) bits, each
// word put together from shifts that clear when out of range, and the bytes from k on kept:
// 38 SASS instructions for the flip unit where the 128-bit version below takes 42. On an x86
// CPU it is 1.14 times slower than that version, so the host keeps it.
PILES_TOPSWOPS_HOT void flip_two_words_by_shifts(Deck<2>& d, int k) {
  using bits::shift_left_or_clear, bits::shift_right_or_clear;
  const auto s = static_cast<std::uint32_t>(8 * (16 - k)),
             bytes = static_cast<std::uint32_t>(8 * k);
  const std::uint64_t r0 = bits::byte_swap(d.w[1]), r1 = bits::byte_swap(d.w[0]);
  const std::uint64_t lo = shift_right_or_clear(r0, s) | shift_left_or_clear(r1, 64 - s) |
                           shift_right_or_clear(r1, s - 64);
  const std::uint64_t hi = shift_right_or_clear(r1, s);
  d.w[0] = lo | (d.w[0] & shift_left_or_clear(~std::uint64_t{0}, bytes));
  d.w[1] = hi | (d.w[1] & shift_left_or_clear(~std::uint64_t{0}, bytes > 64 ? bytes - 64 : 0));
}

// Three words the same way: word j of the reversed deck shifted right by s = 8 (24 - k) bits
// takes each word m >= j of it shifted by 64 (m - j) - s, left or right. 58 SASS instructions
// where the funnel shifts and selects below take 91; 1.05 times slower than those on an x86
// CPU (a search of 13 cards on three-word decks, median of 5 pairs), so the host keeps them.
PILES_TOPSWOPS_HOT void flip_three_words_by_shifts(Deck<3>& d, int k) {
  using bits::shift_left_or_clear, bits::shift_right_or_clear;
  const auto s = static_cast<std::uint32_t>(8 * (24 - k)),
             bytes = static_cast<std::uint32_t>(8 * k);
  const std::uint64_t r0 = bits::byte_swap(d.w[2]), r1 = bits::byte_swap(d.w[1]),
                      r2 = bits::byte_swap(d.w[0]);
  const std::uint64_t o0 = shift_right_or_clear(r0, s) | shift_left_or_clear(r1, 64 - s) |
                           shift_right_or_clear(r1, s - 64) | shift_left_or_clear(r2, 128 - s) |
                           shift_right_or_clear(r2, s - 128);
  const std::uint64_t o1 = shift_right_or_clear(r1, s) | shift_left_or_clear(r2, 64 - s) |
                           shift_right_or_clear(r2, s - 64);
  const std::uint64_t o2 = shift_right_or_clear(r2, s);
  d.w[0] = o0 | (d.w[0] & shift_left_or_clear(~std::uint64_t{0}, bytes));
  d.w[1] = o1 | (d.w[1] & shift_left_or_clear(~std::uint64_t{0}, bytes > 64 ? bytes - 64 : 0));
  d.w[2] = o2 | (d.w[2] & shift_left_or_clear(~std::uint64_t{0}, bytes > 128 ? bytes - 128 : 0));
}

template <>
PILES_TOPSWOPS_HOT void flip_words<2>(Deck<2>& d, int k) {
#if defined(__CUDA_ARCH__)
  flip_two_words_by_shifts(d, k);
#else
  using u128 = unsigned __int128;
  const unsigned s = 8 * (16 - k);
  const u128 x = static_cast<u128>(d.w[1]) << 64 | d.w[0];
  const u128 rev = static_cast<u128>(bits::byte_swap(d.w[0])) << 64 | bits::byte_swap(d.w[1]);
  const u128 keep = ~(~static_cast<u128>(0) >> s);
  const u128 out = rev >> s | (x & keep);
  d.w[0] = static_cast<std::uint64_t>(out);
  d.w[1] = static_cast<std::uint64_t>(out >> 64);
#endif
}

template <>
PILES_TOPSWOPS_HOT void flip_words<3>(Deck<3>& d, int k) {
#if defined(__CUDA_ARCH__)
  flip_three_words_by_shifts(d, k);
#else
  const std::uint64_t r0 = bits::byte_swap(d.w[2]), r1 = bits::byte_swap(d.w[1]),
                      r2 = bits::byte_swap(d.w[0]);
  const unsigned s = 8 * (24 - k), q = s >> 6, r = s & 63;
  // Word j of rev >> s is funnel(rev[j+q+1], rev[j+q]), picked by selects, not indexing, so
  // that the words stay in registers.
  const std::uint64_t f0 = bits::funnel_right(r1, r0, r), f1 = bits::funnel_right(r2, r1, r),
                      f2 = bits::funnel_right(0, r2, r);
  const std::uint64_t o0 = q == 0 ? f0 : q == 1 ? f1 : f2;
  const std::uint64_t o1 = q == 0 ? f1 : q == 1 ? f2 : 0;
  const std::uint64_t o2 = q == 0 ? f2 : 0;
  d.w[0] = o0 | (d.w[0] & ~bits::low_bytes(k, 0));
  d.w[1] = o1 | (d.w[1] & ~bits::low_bytes(k, 1));
  d.w[2] = o2 | (d.w[2] & ~bits::low_bytes(k, 2));
#endif
}

// The flip of a two-word deck as byte permutes, for the GPU's lean lockstep kernel: each 32-bit
// word of the flipped deck gathered from the words that hold its bytes, by selectors that
// depend on k alone. Word 3 takes its bytes from words 0 and 3 (one permute), words 2 and 1
// from words 0, 1 and their own (two), word 0 from all four (three): eight selectors a flip
// length, read from a table (FlipSelectors), where the shifts above take about thirty
// instructions.
struct alignas(16) FlipSelectors {
  std::uint32_t s[8];
};

namespace bits {

// Bytes of the pair hi:lo picked by the four nibbles of s (each 0..7; byte 0 of lo is 0), as
// the GPU's byte permute picks them.
PILES_TOPSWOPS_HOT std::uint32_t byte_perm(std::uint32_t lo, std::uint32_t hi, std::uint32_t s) {
#if defined(__CUDA_ARCH__)
  // prmt itself: __byte_perm first masks each nibble to 3 bits, an instruction a selector.
  std::uint32_t out;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(out) : "r"(lo), "r"(hi), "r"(s));
  return out;
#else
  const std::uint64_t pair = std::uint64_t{hi} << 32 | lo;
  std::uint32_t out = 0;
  for (int t = 0; t < 4; ++t)
    out |= static_cast<std::uint32_t>(pair >> (8 * (s >> (4 * t) & 7)) & 0xff) << (8 * t);
  return out;
#endif
}

}  // namespace bits

// The selectors of the flip of the top k cards (2 <= k <= 16) of a two-word deck, in the order
// flip_two_words_by_permutes reads them. Byte b of the flipped deck comes from byte k-1-b
// below k, from b itself from k on.
PILES_HD constexpr FlipSelectors flip_selectors(int k) {
  FlipSelectors out{};
  auto from = [k](int b) { return b < k ? k - 1 - b : b; };
  for (int t = 0; t < 4; ++t) {
    const auto at = [t](int nibble) { return static_cast<std::uint32_t>(nibble) << (4 * t); };
    // Word 3: byte t of word 0 (pair index t) or its own (index 4 + t).
    const int b3 = from(12 + t);
    out.s[0] |= at(b3 < 4 ? b3 : 4 + t);
    // Words 2 and 1: first from words 0 and 1 (and word 1's own), then from that or word 2.
    for (int j = 2; j >= 1; --j) {
      const int src = from(4 * j + t), first = j == 2 ? 1 : 3;
      if (src < 8) {
        out.s[first] |= at(src);
        out.s[first + 1] |= at(t);
      } else {
        out.s[first + 1] |= at(4 + (src - 8));
      }
    }
    // Word 0: from words 0 and 1, or from words 2 and 3, then from the one or the other.
    const int src = from(t);
    if (src < 8) {
      out.s[5] |= at(src);
      out.s[7] |= at(t);
    } else {
      out.s[6] |= at(src - 8);
      out.s[7] |= at(4 + t);
    }
  }
  return out;
}

PILES_TOPSWOPS_HOT void flip_two_words_by_permutes(Deck<2>& d, const FlipSelectors& sel) {
  using bits::byte_perm;
  const auto x0 = static_cast<std::uint32_t>(d.w[0]), x1 = static_cast<std::uint32_t>(d.w[0] >> 32),
             x2 = static_cast<std::uint32_t>(d.w[1]), x3 = static_cast<std::uint32_t>(d.w[1] >> 32);
  // In an order in which each word of the result can take the register of the word it
  // replaces, with no copy (one SASS instruction less in the lean kernel's flip).
  const std::uint32_t low0 = byte_perm(x0, x1, sel.s[5]), high0 = byte_perm(x2, x3, sel.s[6]);
  const std::uint32_t from2 = byte_perm(x0, x1, sel.s[1]), from1 = byte_perm(x0, x1, sel.s[3]);
  const std::uint32_t o3 = byte_perm(x0, x3, sel.s[0]);
  const std::uint32_t o1 = byte_perm(from1, x2, sel.s[4]);
  const std::uint32_t o2 = byte_perm(from2, x2, sel.s[2]);
  const std::uint32_t o0 = byte_perm(low0, high0, sel.s[7]);
  d.w[0] = std::uint64_t{o1} << 32 | o0;
  d.w[1] = std::uint64_t{o3} << 32 | o2;
}

// Knuth's h for the sorted variant: the largest position (1-based) whose card is not its own.
// Positions above it hold their own cards in order.
template <int W>
PILES_TOPSWOPS_HOT int unsettled(const Deck<W>& d, const Deck<W>& sorted) {
  int h = 0;
  for (int j = 0; j < W; ++j) {
    const std::uint64_t x = d.w[j] ^ sorted.w[j];
    if (x) h = 8 * j + (63 - bits::leading_zeros(x)) / 8 + 1;
  }
  return h;
}

// The bound that decides most prunings (B. Chaffin's "any order at the bottom"): when
// positions h+1..n hold the cards h+1..n in any order, every card above them is at most h, so
// no flip reaches them again and at most bound[h] steps follow. fixed_block returns the
// smallest such h: a block from position q on needs the cards at positions q..n known and at
// least q. With u = 0x7f - card at each position (0x7f for a blank, 0 past the deck), that is
// max(u from q on) <= 0x7f - q; the suffix maxima take log2(8W) shifts of byte-wise maxima.
namespace bits {

inline constexpr std::uint64_t high_bits = 0x8080808080808080ull;
inline constexpr std::uint64_t low7 = 0x7f7f7f7f7f7f7f7full;

// 0xff in every byte whose top bit is set in t (t has no other bits).
PILES_HD inline std::uint64_t byte_mask(std::uint64_t t) {
  return t | (t - (t >> 7));
}

// Byte-wise maximum of bytes below 0x80: a | 0x80 - b keeps its top bit exactly where a >= b.
PILES_HD inline std::uint64_t byte_max(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t a_wins = byte_mask(((a | high_bits) - b) & high_bits);
  return (a & a_wins) | (b & ~a_wins);
}

}  // namespace bits

template <int W>
PILES_TOPSWOPS_HOT int fixed_block_words(const Deck<W>& d, int n) {
  std::uint64_t u[W];
  for (int j = 0; j < W; ++j) {
    const std::uint64_t known = d.w[j] & ~bits::byte_mask(d.w[j] & bits::high_bits);
    u[j] = (bits::low7 & bits::low_bytes(n, j)) - known;
  }
  for (int shift = 8; shift < 64 * W; shift *= 2) {
    std::uint64_t later[W];
    for (int j = 0; j < W; ++j) {
      const int from = j + shift / 64;
      const std::uint64_t lo = from < W ? u[from] : 0, hi = from + 1 < W ? u[from + 1] : 0;
      later[j] = shift < 64 ? bits::funnel_right(hi, lo, shift) : lo;
    }
    for (int j = 0; j < W; ++j) u[j] = bits::byte_max(u[j], later[j]);
  }
  constexpr std::uint64_t ramp = 0x0807060504030201ull;
  for (int j = 0; j < W; ++j) {
    const std::uint64_t limit = bits::low7 - (8 * j * ones + ramp);  // 0x7f - q
    const std::uint64_t ok = ((limit | bits::high_bits) - u[j]) & bits::high_bits;
    const std::uint64_t valid = ok & bits::low_bytes(n, j);
    if (valid) return 8 * j + bits::trailing_zeros(valid) / 8;
  }
  return n;
}

// The same h by intervals, for the GPU: a position i (0-based) holding card c <= i rules out
// every block start q with c <= q <= i, and a blank every q <= i; h is the smallest q that no
// position rules out. One byte permute, one shift and one logic instruction a position (32-bit
// words: the GPU has no 64-bit logic), where the suffix maxima above take about 280 SASS
// instructions for two words. Each byte less one: a card c gives c - 1, so that ~1 << (c - 1)
// keeps bits c and up; the zero bytes past the deck give 0xfe or 0xff, a shift that clears all.
namespace bits {

// 0xff in every byte of x whose top bit is set: one byte permute on the GPU (its sign mode).
PILES_TOPSWOPS_HOT std::uint32_t top_bit_bytes(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  std::uint32_t out;
  asm("prmt.b32 %0, %1, 0, 0xba98;" : "=r"(out) : "r"(x));
  return out;
#else
  return static_cast<std::uint32_t>(byte_mask(x & high_bits));
#endif
}

// Byte b of x.
PILES_TOPSWOPS_HOT std::uint32_t byte_of(std::uint32_t x, int b) {
#if defined(__CUDA_ARCH__)
  return __byte_perm(x, 0, 0x4440u | static_cast<unsigned>(b));
#else
  return x >> (8 * b) & 0xff;
#endif
}

}  // namespace bits

template <int W>
PILES_TOPSWOPS_HOT int fixed_block_cover(const Deck<W>& d) {
  std::uint32_t covered = 0, blanks = 0;
  for (int j = 0; j < 2 * W; ++j) {
    const auto x = static_cast<std::uint32_t>(d.w[j / 2] >> (32 * (j % 2)));
    const std::uint32_t blank = bits::top_bit_bytes(x);
    const std::uint32_t less_one = (x - 0x01010101u) & ~blank;  // a blank: 0, so bits 1..i
    blanks |= blank;
    for (int b = j == 0; b < 4; ++b) {  // the top (i = 0) rules out no q: c <= 0 never holds
      const int i = 4 * j + b;
      covered |= ((2u << i) - 1) & bits::shift_left_or_clear(~1u, bits::byte_of(less_one, b));
    }
  }
  // Bit 0 (the whole deck a block) is ruled out by any blank.
  return bits::trailing_zeros32(~(covered | (blanks != 0)));
}

// Positions 1..n holding the same card in both decks (bit i - 1 for position i). Cards only:
// bytes below 0x80, so that no carry crosses a byte.
template <int W>
PILES_HD std::uint32_t same_cards(const Deck<W>& a, const Deck<W>& b, int n) {
  constexpr std::uint64_t low7 = 0x7f7f7f7f7f7f7f7full, high = 0x8080808080808080ull;
  // Gathers bit 8i + 7 of each byte into bit 56 + i; no two partial products meet.
  constexpr std::uint64_t gather = 0x0102040810204080ull;
  std::uint32_t mask = 0;
  for (int j = 0; j < W; ++j) {
    const std::uint64_t x = a.w[j] ^ b.w[j];
    const std::uint64_t zero = ~(x + low7) & high & bits::low_bytes(n, j);
    mask |= static_cast<std::uint32_t>(((zero >> 7) * gather) >> 56) << (8 * j);
  }
  return mask;
}

// On an x86 CPU with SSSE3 and SSE4.1 (x86-64-v2) a deck of up to 16 cards is one vector
// register and one of up to 24 two (Playing below): a flip is one byte shuffle (four for two
// registers), and the block's suffix minima take four byte-wise minimums a register. Any other CPU
// uses the word versions above, the GPU the flip there and the block by intervals; tests check that
// all agree.
#if defined(__SSSE3__) && defined(__SSE4_1__) && !defined(__CUDA_ARCH__)
#define PILES_TOPSWOPS_SSE 1

namespace sse {

// Byte i of every lane: 0, 1, ..., 15.
PILES_TOPSWOPS_HOT __m128i byte_index() {
  return _mm_set_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
}

// The suffix minima of each position's card, blanks as 0 and the bytes past the deck as 0xff.
PILES_TOPSWOPS_HOT __m128i suffix_minima(__m128i x) {
  const __m128i zero = _mm_setzero_si128(), ff = _mm_set1_epi8(-1);
  const __m128i cards =
      _mm_or_si128(_mm_andnot_si128(_mm_cmplt_epi8(x, zero), x), _mm_cmpeq_epi8(x, zero));
  __m128i m = _mm_min_epu8(cards, _mm_alignr_epi8(ff, cards, 1));
  m = _mm_min_epu8(m, _mm_alignr_epi8(ff, m, 2));
  m = _mm_min_epu8(m, _mm_alignr_epi8(ff, m, 4));
  return _mm_min_epu8(m, _mm_alignr_epi8(ff, m, 8));
}

// Bit i set where the minimum from position `first` + i on is at least `first` + i + 1.
PILES_TOPSWOPS_HOT unsigned block_starts(__m128i minima, int first) {
  const __m128i position = _mm_add_epi8(byte_index(), _mm_set1_epi8(static_cast<char>(first + 1)));
  return static_cast<unsigned>(
      _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(minima, position), minima)));
}

// The top t cards of x reversed, t in every byte of `top` (t <= 16): byte i < t takes byte
// t - 1 - i, the rest stay.
PILES_TOPSWOPS_HOT __m128i flip(__m128i x, __m128i top) {
  const __m128i index = byte_index();
  const __m128i reversed = _mm_sub_epi8(_mm_sub_epi8(top, _mm_set1_epi8(1)), index);
  return _mm_shuffle_epi8(x, _mm_blendv_epi8(index, reversed, _mm_cmpgt_epi8(top, index)));
}

// A block from byte i on needs the minimum from i on to be at least i + 1.
PILES_TOPSWOPS_HOT int fixed_block(__m128i x, int n) {
  const unsigned ok = block_starts(suffix_minima(x), 0) & ((1u << n) - 1);
  return ok ? __builtin_ctz(ok) : n;
}

// The same for a deck of 17 to 24 cards in two registers, positions 0..15 and 16..31.
PILES_TOPSWOPS_HOT int fixed_block(__m128i lo, __m128i hi, int n) {
  const __m128i high = suffix_minima(hi);
  const __m128i low = _mm_min_epu8(suffix_minima(lo), _mm_shuffle_epi8(high, _mm_setzero_si128()));
  const unsigned ok = (block_starts(low, 0) | block_starts(high, 16) << 16) & ((1u << n) - 1);
  return ok ? __builtin_ctz(ok) : n;
}

}  // namespace sse
#endif

// The deck while the moves after a choice are played: the packed words, or on an x86 CPU (SSE
// above) vector registers, one up to 16 cards and two up to 24, so that no flip moves the deck
// out of them.
// Vector = false keeps the words there too: the portable path, which the CPU engine takes when
// told to (host/topswops/cpu_path.hpp), to compare the two.
template <int W, bool Vector = true>
struct Playing {
  Deck<W> d;

  PILES_TOPSWOPS_HOT explicit Playing(const Deck<W>& deck) : d(deck) {}
  PILES_TOPSWOPS_HOT int top() const { return d.top(); }
  // Flips as many cards as the top one says (a card, never a blank).
  PILES_TOPSWOPS_HOT void flip_top() { flip_words(d, d.top()); }
  // Flips the top k cards (2 <= k <= n).
  PILES_TOPSWOPS_HOT void flip(int k) { flip_words(d, k); }
  PILES_TOPSWOPS_HOT int fixed_block(int n) const {
#if defined(__CUDA_ARCH__)
    return fixed_block_cover(d);
#else
    return fixed_block_words(d, n);
#endif
  }
  PILES_TOPSWOPS_HOT std::uint32_t same_cards(const Playing& other, int n) const {
    return topswops::same_cards(d, other.d, n);
  }
  PILES_TOPSWOPS_HOT Deck<W> deck() const {
    return d;
  }
};

#ifdef PILES_TOPSWOPS_SSE
template <>
struct Playing<2, true> {
  __m128i x;

  PILES_TOPSWOPS_HOT explicit Playing(const Deck<2>& deck)
      : x(_mm_set_epi64x(static_cast<long long>(deck.w[1]), static_cast<long long>(deck.w[0]))) {}
  PILES_TOPSWOPS_HOT int top() const { return _mm_cvtsi128_si32(x) & 0xff; }
  // The shuffle's mask comes from the top byte inside the vector register (byte i < top takes
  // byte top-1-i), so nothing on the path from one flip to the next leaves it: 1.2 times as
  // fast as a table of masks indexed by the top card.
  PILES_TOPSWOPS_HOT void flip_top() { x = sse::flip(x, _mm_shuffle_epi8(x, _mm_setzero_si128())); }
  PILES_TOPSWOPS_HOT void flip(int k) { x = sse::flip(x, _mm_set1_epi8(static_cast<char>(k))); }
  PILES_TOPSWOPS_HOT int fixed_block(int n) const { return sse::fixed_block(x, n); }
  PILES_TOPSWOPS_HOT std::uint32_t same_cards(const Playing& other, int n) const {
    return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, other.x))) &
           ((1u << n) - 1);
  }
  PILES_TOPSWOPS_HOT Deck<2> deck() const {
    return {{static_cast<std::uint64_t>(_mm_cvtsi128_si64(x)),
             static_cast<std::uint64_t>(_mm_extract_epi64(x, 1))}};
  }
};

// 17 to 24 cards: positions 0..15 in one register, 16..23 in the low half of another. A flip
// of t <= 16 cards is the first register's. One of more takes each position below t from
// position t - 1 - i, which lies in either register: two byte shuffles a register, one from
// each, the other's lanes zeroed (a shuffle index with its top bit set gives 0). The branch
// between the two, on the top card, mostly goes the first way and shortens the chain from one
// flip to the next: at 18 cards 1.3 times as fast as the four shuffles every time.
template <>
struct Playing<3, true> {
  __m128i lo, hi;

  PILES_TOPSWOPS_HOT explicit Playing(const Deck<3>& deck)
      : lo(_mm_set_epi64x(static_cast<long long>(deck.w[1]), static_cast<long long>(deck.w[0]))),
        hi(_mm_set_epi64x(0, static_cast<long long>(deck.w[2]))) {}
  PILES_TOPSWOPS_HOT int top() const { return _mm_cvtsi128_si32(lo) & 0xff; }
  PILES_TOPSWOPS_HOT void flip_top() { flip(top(), _mm_shuffle_epi8(lo, _mm_setzero_si128())); }
  PILES_TOPSWOPS_HOT void flip(int k) { flip(k, _mm_set1_epi8(static_cast<char>(k))); }
  // Flips the top t cards, t also in every byte of `top`.
  PILES_TOPSWOPS_HOT void flip(int t, __m128i top) {
    if (__builtin_expect(t <= 16, 1)) {
      lo = sse::flip(lo, top);
      return;
    }
    const __m128i index = sse::byte_index(), sixteen = _mm_set1_epi8(16);
    // Every position i of lo (all below t) takes t - 1 - i: from hi where that is 16 or more.
    const __m128i from = _mm_sub_epi8(_mm_sub_epi8(top, _mm_set1_epi8(1)), index);
    const __m128i in_hi = _mm_cmpgt_epi8(from, _mm_set1_epi8(15));
    const __m128i lo_index = _mm_or_si128(from, in_hi);
    const __m128i hi_index =
        _mm_or_si128(_mm_sub_epi8(from, sixteen), _mm_andnot_si128(in_hi, _mm_set1_epi8(-1)));
    // Positions 16 + j of hi below t take t - 17 - j, always in lo.
    const __m128i flips_hi = _mm_cmpgt_epi8(_mm_sub_epi8(top, sixteen), index);
    const __m128i from_lo =
        _mm_or_si128(_mm_sub_epi8(from, sixteen), _mm_andnot_si128(flips_hi, _mm_set1_epi8(-1)));
    const __m128i new_hi = _mm_or_si128(_mm_shuffle_epi8(hi, _mm_or_si128(index, flips_hi)),
                                        _mm_shuffle_epi8(lo, from_lo));
    lo = _mm_or_si128(_mm_shuffle_epi8(lo, lo_index), _mm_shuffle_epi8(hi, hi_index));
    hi = new_hi;
  }
  PILES_TOPSWOPS_HOT int fixed_block(int n) const { return sse::fixed_block(lo, hi, n); }
  PILES_TOPSWOPS_HOT std::uint32_t same_cards(const Playing& other, int n) const {
    const auto low = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(lo, other.lo)));
    const auto high = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(hi, other.hi)));
    return (low | high << 16) & ((1u << n) - 1);
  }
  PILES_TOPSWOPS_HOT Deck<3> deck() const {
    return {{static_cast<std::uint64_t>(_mm_cvtsi128_si64(lo)),
             static_cast<std::uint64_t>(_mm_extract_epi64(lo, 1)),
             static_cast<std::uint64_t>(_mm_cvtsi128_si64(hi))}};
  }
};
#endif

// With card k chosen for the top and the cards k-1, k-2, ... right under it, flipping k settles
// k and that run together; returns how many cards settle (at least 1). Card 1 is never known,
// so the run stops within the top k positions.
template <int W>
PILES_TOPSWOPS_HOT int settled_by_flip(const Deck<W>& d, int k) {
  constexpr std::uint64_t ramp = 0x0706050403020100ull;
  for (int j = 0; j < W; ++j) {
    const std::uint64_t expect = static_cast<std::uint64_t>(k - 8 * j) * ones - ramp;
    std::uint64_t x = d.w[j] ^ expect;
    if (j == 0) x &= ~0xffull;
    if (x) return 8 * j + bits::trailing_zeros(x) / 8;
  }
  return k;
}

// True when every known card already sits at its own position: with the blanks given the
// values of their positions, the deck is sorted.
template <int W>
PILES_HD bool known_in_place(const Deck<W>& d, const Deck<W>& sorted) {
  std::uint64_t wrong = 0;
  for (int j = 0; j < W; ++j) {
    const std::uint64_t blanks = (d.w[j] >> 7 & ones) * 0xff;
    wrong |= (d.w[j] ^ sorted.w[j]) & ~blanks;
  }
  return wrong == 0;
}

// What the search is asked: n cards; bound[h] (0 <= h <= n) is an upper bound on the steps a
// game on h cards can make (f(h), or the sorted variant's value; no_bound where none is
// known); only games ending in the sorted deck when `sorted`.
struct Problem {
  int n;
  bool sorted;
  const std::int32_t* bound;  // n + 1 entries
};

inline constexpr std::int32_t no_bound = 1 << 20;

// A node with a blank on top: the deck, the values still free, the choices not tried yet,
// steps played so far and h: positions h+1..n hold the cards h+1..n in some order.
template <int W>
struct Frame {
  Deck<W> deck;
  std::uint32_t unused;  // bit v: value v (2..n) not chosen yet
  std::uint32_t todo;    // bit v: value v still to try at this node
  std::int32_t steps;
  std::int32_t h;
};

// A frame as kept on the stack while the search is below it: the deck and one word holding
// the rest (values shifted down by 2, since 0 and 1 are never chosen; steps below 8192, far
// above any game on 24 cards: f(21) = 282). Half the size matters on the GPU, where the stack
// lives in local memory. The value chosen at a frame is the one its child no longer has free.
template <int W>
struct SavedFrame {
  Deck<W> deck;
  std::uint64_t packed;  // unused >> 2 | todo >> 2 << 23 | steps << 46 | h << 59
};

template <int W>
PILES_TOPSWOPS_HOT SavedFrame<W> save(const Frame<W>& f) {
  return {f.deck, std::uint64_t{f.unused} >> 2 | std::uint64_t{f.todo} >> 2 << 23 |
                      static_cast<std::uint64_t>(f.steps) << 46 |
                      static_cast<std::uint64_t>(f.h) << 59};
}

PILES_TOPSWOPS_HOT std::uint32_t saved_unused(std::uint64_t packed) {
  return static_cast<std::uint32_t>(packed << 2) & 0x1fffffcu;
}

template <int W>
PILES_TOPSWOPS_HOT Frame<W> restore(const SavedFrame<W>& s) {
  Frame<W> f;
  f.deck = s.deck;
  f.unused = saved_unused(s.packed);
  f.todo = static_cast<std::uint32_t>(s.packed >> 23 << 2) & 0x1fffffcu;
  f.steps = static_cast<std::int32_t>(s.packed >> 46 & 0x1fff);
  f.h = static_cast<std::int32_t>(s.packed >> 59);
  return f;
}

// Opens the choices of a node. Every free value may go on top except the blank's own start
// position: a longest deck has no card k at position k, since flipping its top k cards gives a
// deck one step longer.
template <int W>
PILES_TOPSWOPS_HOT void open_choices(Frame<W>& f) {
  f.todo = f.unused & ~(1u << (f.deck.w[0] & position_bits));
}

// Drops every choice when even the flip about to be made (steps + 1) and the longest game on
// the h cards above the fixed block cannot reach `target` (which only rises during the search).
template <int W>
PILES_TOPSWOPS_HOT void prune_choices(Frame<W>& f, const Problem& p, int target) {
  if (f.steps + 1 + p.bound[f.h] < target) f.todo = 0;
}

// Chooses card k for the blank on top and plays until a blank is on top again, giving the
// child node c (its choices still to be opened); false when the child cannot reach `target`.
// When the top card is h, the flip puts it at position h and the block grows, so the bound
// is checked at once: the earliest step with the smaller h gives the tightest bound, and a
// choice of k = h is judged after one flip. A shorter flip can grow the block too (the cards
// come into place in another order); h then stays larger than it could be, still a valid
// bound: looking for that after every choice's moves cost more time than the 0.2% of nodes it
// saved at n = 13. In the
// sorted variant a block out of order can never end sorted.
template <bool Vector = true, int W>
PILES_TOPSWOPS_HOT bool play_choice(const Frame<W>& f, int k, const Problem& p, int target,
                                    const Deck<W>& sorted, Frame<W>& c) {
  int h = f.h, top = k;
  // Knuth's quick look for k = h, before any flip: h and the run h-1, h-2, ... right under
  // the top settle in order, which is the common case of the block.
  if (k == h && f.steps + 1 + p.bound[h - settled_by_flip(f.deck, h)] < target) return false;
  Deck<W> chosen = f.deck;
  chosen.w[0] = (chosen.w[0] & ~0xffull) | static_cast<std::uint64_t>(k);
  Playing<W, Vector> deck(chosen);
  c.steps = f.steps;
  do {
    deck.flip_top();
    ++c.steps;
    if (top == h) {
      h = deck.fixed_block(p.n);
      if (c.steps + p.bound[h] < target) return false;
      if (p.sorted && unsettled(deck.deck(), sorted) > h) return false;
    }
    top = deck.top();
  } while (!is_blank(top));
  c.deck = deck.deck();
  c.h = h;
  c.unused = f.unused & ~(1u << k);
  return true;
}

// Writes the card chosen for the blank on top of f into the start deck, at the blank's start
// position.
template <int W>
PILES_HD void record_choice(Deck<W>& start, const Frame<W>& f, int k) {
  start.set(static_cast<int>(f.deck.w[0] & position_bits) - 1, k);
}

// Ends the game at this node: the blank on top takes card 1 and every other blank the value of
// the position it ends at. Fills the rest of `start` and returns the final deck.
template <int W>
PILES_HD Deck<W> settle_blanks(const Deck<W>& d, Deck<W>& start, int n) {
  Deck<W> final_deck = d;
  for (int i = 0; i < n; ++i) {
    const int byte = d.at(i);
    if (!is_blank(byte)) continue;
    start.set((byte & static_cast<int>(position_bits)) - 1, i + 1);
    final_deck.set(i, i + 1);
  }
  return final_deck;
}

// The root: every position blank, nothing chosen.
template <int W>
PILES_HD Frame<W> root_frame(int n) {
  Frame<W> f{};
  f.deck = blank_deck<W>(n);
  f.unused = ((1u << (n + 1)) - 1) & ~3u;
  f.h = n;
  return f;
}

// Replays the choices of a prefix (card values in the order the blanks came to the top) from
// the root; returns the node it leads to, with `start` holding the cards chosen so far.
template <int W>
PILES_HD Frame<W> replay(const Problem& p, const std::uint8_t* choices, int depth, Deck<W>& start) {
  const Deck<W> sorted = sorted_deck<W>(p.n);
  Frame<W> f = root_frame<W>(p.n);
  start = Deck<W>{};
  // The prefixes were made by expand_top, so every choice is alive; target 0 prunes nothing.
  for (int l = 0; l < depth; ++l) {
    record_choice(start, f, choices[l]);
    Frame<W> c;
    play_choice(f, choices[l], p, 0, sorted, c);
    f = c;
  }
  return f;
}

// A child just made at `level`: counts it, and tells whether it ends a game that reaches
// `target`: a leaf, or in the sorted variant any node whose known cards already sit in place
// (card 1 on top then ends the game in the sorted deck).
template <int W>
PILES_TOPSWOPS_HOT bool ends_game(const Problem& p, const Frame<W>& c, int level,
                                  const Deck<W>& sorted, int target, std::uint64_t* nodes) {
  ++nodes[level];
  return (level == p.n - 1 || p.sorted) && c.steps >= target &&
         (!p.sorted || known_in_place(c.deck, sorted));
}

// The cards chosen at stack levels base..level-1 added to `start`: the value chosen at a frame
// is the one the frame below it (or `unused_below`, f's) no longer has free.
template <int W>
PILES_HD Deck<W> stack_start(Deck<W> start, const SavedFrame<W>* stack, int base, int level,
                             std::uint32_t unused_below) {
  for (int l = base; l < level; ++l) {
    const std::uint32_t below = l + 1 < level ? saved_unused(stack[l + 1].packed) : unused_below;
    start.set(static_cast<int>(stack[l].deck.w[0] & position_bits) - 1,
              bits::trailing_zeros32(saved_unused(stack[l].packed) & ~below));
  }
  return start;
}

// A sink that wants every game of at least the target, not only the longest, says so with
// `static constexpr bool every_game = true`: the target then stays where it started.
template <class Sink>
inline constexpr bool keeps_target = requires {
  requires Sink::every_game;
};

// The search below one node at `level` (the node itself was counted by whoever made it).
// `target` starts at a lower bound on the answer and rises with every game found that reaches
// it (unless keeps_target<Sink>); ties are kept, so the sink's leaf(steps, start deck, final
// deck) sees every deck of the best length. nodes[l] counts the nodes made at level l. Depth first
// with an explicit stack, so the kernel runs it as is: the node on hand stays in registers, the
// frames above it are stored once on the way down. The start deck is written only for games found,
// from the choices kept in the stack. Vector: as Playing's.
template <bool Vector = true, int W, class Sink>
PILES_HD void search_below(const Problem& p, Frame<W> f, int level, const Deck<W>& prefix_start,
                           int target, std::uint64_t* nodes, Sink& sink) {
  const Deck<W> sorted = sorted_deck<W>(p.n);
  const int base = level, leaf_level = p.n - 1;
  SavedFrame<W> stack[max_n];
  // The game ending at `end`, reached through the stack, f (choice k) and maybe a grandchild
  // of f (`mid`, choice k2).
  auto report = [&](const Frame<W>& end, int k, const Frame<W>* mid, int k2) {
    Deck<W> start = stack_start(prefix_start, stack, base, level, f.unused);
    record_choice(start, f, k);
    if (mid) record_choice(start, *mid, k2);
    const Deck<W> final_deck = settle_blanks(end.deck, start, p.n);
    sink.leaf(end.steps, start, final_deck);
    if constexpr (!keeps_target<Sink>) target = end.steps;
  };
  open_choices(f);
  for (;;) {
    prune_choices(f, p, target);
    if (f.todo == 0) {
      if (level == base) return;
      f = restore(stack[--level]);
      continue;
    }
    const int k = bits::trailing_zeros32(f.todo);
    f.todo &= f.todo - 1;
    Frame<W> c;
    if (!play_choice<Vector>(f, k, p, target, sorted, c)) continue;
    if (ends_game(p, c, level + 1, sorted, target, nodes)) report(c, k, nullptr, 0);
    if (level + 1 == leaf_level) continue;
    if (level + 2 == leaf_level) {
      // One value is left for c's blank: play c's only child here rather than going down.
      open_choices(c);
      prune_choices(c, p, target);
      if (c.todo == 0) continue;
      const int last = bits::trailing_zeros32(c.todo);
      Frame<W> leaf;
      if (!play_choice<Vector>(c, last, p, target, sorted, leaf)) continue;
      if (ends_game(p, leaf, leaf_level, sorted, target, nodes)) report(leaf, k, &c, last);
      continue;
    }
    stack[level++] = save(f);
    f = c;
    open_choices(f);
  }
}

// The top of the tree, down to `depth`: counts its nodes, reports its games (sorted variant) to
// the sink, and hands every node at `depth` to emit(choices) in search order, `choices` holding
// the values chosen at levels 1..depth. Where Rises, `target` moves as search_below's: a game
// found raises it, emit may too, and each choice left is pruned at the target of its moment.
// Host side only (recursive).
template <bool Rises, int W, class Sink, class Emit>
void walk_top(const Problem& p, const Frame<W>& f, int level, int depth, const Deck<W>& start,
              int& target, std::uint64_t* nodes, Sink& sink, std::uint8_t* choices, Emit&& emit) {
  if (level == depth) {
    emit(static_cast<const std::uint8_t*>(choices));
    return;
  }
  const Deck<W> sorted = sorted_deck<W>(p.n);
  Frame<W> g = f;
  open_choices(g);
  for (;;) {
    prune_choices(g, p, target);
    if (g.todo == 0) return;
    const int k = bits::trailing_zeros32(g.todo);
    g.todo &= g.todo - 1;
    Frame<W> c;
    if (!play_choice(g, k, p, target, sorted, c)) continue;
    Deck<W> child_start = start;
    record_choice(child_start, g, k);
    if (ends_game(p, c, level + 1, sorted, target, nodes)) {
      Deck<W> full_start = child_start;
      const Deck<W> final_deck = settle_blanks(c.deck, full_start, p.n);
      sink.leaf(c.steps, full_start, final_deck);
      if constexpr (Rises) target = c.steps;
    }
    choices[level] = static_cast<std::uint8_t>(k);
    walk_top<Rises>(p, c, level + 1, depth, child_start, target, nodes, sink, choices, emit);
  }
}

// The same at a fixed target.
template <int W, class Sink, class Emit>
void expand_top(const Problem& p, const Frame<W>& f, int level, int depth, const Deck<W>& start,
                int target, std::uint64_t* nodes, Sink& sink, std::uint8_t* choices, Emit&& emit) {
  walk_top<false>(p, f, level, depth, start, target, nodes, sink, choices, emit);
}

}  // namespace piles::topswops
