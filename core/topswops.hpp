#pragma once

#include <cstdint>

#include "core/hd.hpp"

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
// bytes below them are kept.
template <int W>
PILES_HD void flip(Deck<W>& d, int k);

template <>
PILES_TOPSWOPS_HOT void flip<2>(Deck<2>& d, int k) {
  using u128 = unsigned __int128;
  const unsigned s = 8 * (16 - k);
  const u128 x = static_cast<u128>(d.w[1]) << 64 | d.w[0];
  const u128 rev = static_cast<u128>(bits::byte_swap(d.w[0])) << 64 | bits::byte_swap(d.w[1]);
  const u128 keep = ~(~static_cast<u128>(0) >> s);
  const u128 out = rev >> s | (x & keep);
  d.w[0] = static_cast<std::uint64_t>(out);
  d.w[1] = static_cast<std::uint64_t>(out >> 64);
}

template <>
PILES_TOPSWOPS_HOT void flip<3>(Deck<3>& d, int k) {
  const std::uint64_t r0 = bits::byte_swap(d.w[2]), r1 = bits::byte_swap(d.w[1]),
                      r2 = bits::byte_swap(d.w[0]);
  const unsigned s = 8 * (24 - k), q = s >> 6, r = s & 63;
  // Word j of rev >> s is funnel(rev[j+q+1], rev[j+q]); selects, not indexing, so that the
  // GPU keeps everything in registers.
  const std::uint64_t f0 = bits::funnel_right(r1, r0, r), f1 = bits::funnel_right(r2, r1, r),
                      f2 = bits::funnel_right(0, r2, r);
  const std::uint64_t o0 = q == 0 ? f0 : q == 1 ? f1 : f2;
  const std::uint64_t o1 = q == 0 ? f1 : q == 1 ? f2 : 0;
  const std::uint64_t o2 = q == 0 ? f2 : 0;
  d.w[0] = o0 | (d.w[0] & ~bits::low_bytes(k, 0));
  d.w[1] = o1 | (d.w[1] & ~bits::low_bytes(k, 1));
  d.w[2] = o2 | (d.w[2] & ~bits::low_bytes(k, 2));
}

// Knuth's h: the largest position (1-based) whose card is not settled, i.e. not equal to the
// position. Positions above it hold their own cards and never move again (every flip is at
// most h long). There is always a blank, so some position is unsettled.
template <int W>
PILES_TOPSWOPS_HOT int unsettled(const Deck<W>& d, const Deck<W>& sorted) {
  int h = 0;
  for (int j = 0; j < W; ++j) {
    const std::uint64_t x = d.w[j] ^ sorted.w[j];
    if (x) h = 8 * j + (63 - bits::leading_zeros(x)) / 8 + 1;
  }
  return h;
}

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
// steps played so far, the largest unsettled position h, Knuth's bound on the longest game
// through a child (through the child k = h, and through any other child), and, while the
// search is below it, the value chosen for its blank.
template <int W>
struct Frame {
  Deck<W> deck;
  std::uint32_t unused;  // bit v: value v (2..n) not chosen yet
  std::uint32_t todo;    // bit v: value v still to try at this node
  std::int32_t steps;
  std::int32_t unsettled;
  std::int32_t reach_h, reach_other;
  std::int32_t chosen;
};

// A frame as kept on the stack while the search is below it: the deck and one word holding
// the rest (values shifted down by 2, since 0 and 1 are never chosen; steps below 8192, far
// above any game on 24 cards: f(21) = 282); h and the bounds are cheaper to recompute than to
// store, and half the size matters on the GPU, where the stack lives in local memory.
template <int W>
struct SavedFrame {
  Deck<W> deck;
  std::uint64_t packed;  // unused >> 2 | todo >> 2 << 23 | steps << 46 | chosen << 59
};

// Sets the bounds of a node from its deck, steps and h.
template <int W>
PILES_TOPSWOPS_HOT void set_reach(Frame<W>& f, const Problem& p) {
  const int h = f.unsettled;
  f.reach_other = f.steps + 1 + p.bound[h];
  f.reach_h = f.todo >> h & 1 ? f.steps + 1 + p.bound[h - settled_by_flip(f.deck, h)] : 0;
}

template <int W>
PILES_TOPSWOPS_HOT SavedFrame<W> save(const Frame<W>& f) {
  return {f.deck, std::uint64_t{f.unused} >> 2 | std::uint64_t{f.todo} >> 2 << 23 |
                      static_cast<std::uint64_t>(f.steps) << 46 |
                      static_cast<std::uint64_t>(f.chosen) << 59};
}

template <int W>
PILES_TOPSWOPS_HOT Frame<W> restore(const SavedFrame<W>& s, const Problem& p,
                                    const Deck<W>& sorted) {
  Frame<W> f;
  f.deck = s.deck;
  f.unused = static_cast<std::uint32_t>(s.packed << 2) & 0x1fffffcu;
  f.todo = static_cast<std::uint32_t>(s.packed >> 23 << 2) & 0x1fffffcu;
  f.steps = static_cast<std::int32_t>(s.packed >> 46 & 0x1fff);
  f.chosen = static_cast<std::int32_t>(s.packed >> 59);
  f.unsettled = unsettled(f.deck, sorted);
  set_reach(f, p);
  return f;
}

// Opens the choices of a node. Every free value may go on top except the blank's own start
// position: a longest deck has no card k at position k, since flipping its top k cards gives a
// deck one step longer. Knuth's bound: after the flip about to be made (steps + 1) at most
// bound[h] more steps follow; choosing k = h settles h and the run h-1, h-2, ... below the
// top, leaving only h - settled positions to play with.
template <int W>
PILES_TOPSWOPS_HOT void open_choices(Frame<W>& f, const Problem& p) {
  f.todo = f.unused & ~(1u << (f.deck.w[0] & position_bits));
  set_reach(f, p);
}

// Drops the choices that cannot reach `target` (which only rises during the search).
template <int W>
PILES_TOPSWOPS_HOT void prune_choices(Frame<W>& f, int target) {
  const std::uint32_t h_bit = 1u << f.unsettled;
  if (f.reach_h < target) f.todo &= ~h_bit;
  if (f.reach_other < target) f.todo &= h_bit;
}

// Chooses card k for the blank on top and plays until a blank is on top again: the child
// node (its choices still to be opened).
template <int W>
PILES_TOPSWOPS_HOT Frame<W> play_choice(const Frame<W>& f, int k, const Deck<W>& sorted) {
  Frame<W> c;
  c.deck = f.deck;
  c.deck.w[0] = (c.deck.w[0] & ~0xffull) | static_cast<std::uint64_t>(k);
  c.steps = f.steps;
  int top = k;
  do {
    flip(c.deck, top);
    ++c.steps;
    top = c.deck.top();
  } while (!is_blank(top));
  c.unused = f.unused & ~(1u << k);
  c.unsettled = unsettled(c.deck, sorted);
  return c;
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
  f.unsettled = n;
  return f;
}

// Replays the choices of a prefix (card values in the order the blanks came to the top) from
// the root; returns the node it leads to, with `start` holding the cards chosen so far.
template <int W>
PILES_HD Frame<W> replay(const Problem& p, const std::uint8_t* choices, int depth, Deck<W>& start) {
  const Deck<W> sorted = sorted_deck<W>(p.n);
  Frame<W> f = root_frame<W>(p.n);
  start = Deck<W>{};
  for (int l = 0; l < depth; ++l) {
    record_choice(start, f, choices[l]);
    f = play_choice(f, choices[l], sorted);
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

// The search below one node at `level` (the node itself was counted by whoever made it).
// `target` starts at a lower bound on the answer and rises with every game found that reaches
// it; ties are kept, so the sink's leaf(steps, start deck, final deck) sees every deck of the
// best length. nodes[l] counts the nodes made at level l. Depth first with an explicit stack,
// so the kernel runs it as is: the node on hand stays in registers, the frames above it are
// stored once on the way down. The start deck is written only for games found, from the
// choices kept in the stack.
template <int W, class Sink>
PILES_HD void search_below(const Problem& p, Frame<W> f, int level, const Deck<W>& prefix_start,
                           int target, std::uint64_t* nodes, Sink& sink) {
  const Deck<W> sorted = sorted_deck<W>(p.n);
  const int base = level, leaf_level = p.n - 1;
  SavedFrame<W> stack[max_n];
  // The game ending at `end`, reached through the stack, f (choice k) and maybe a grandchild
  // of f (`mid`, choice k2).
  auto report = [&](const Frame<W>& end, int k, const Frame<W>* mid, int k2) {
    Deck<W> start = prefix_start;
    for (int l = base; l < level; ++l)
      start.set(static_cast<int>(stack[l].deck.w[0] & position_bits) - 1,
                static_cast<int>(stack[l].packed >> 59));
    record_choice(start, f, k);
    if (mid) record_choice(start, *mid, k2);
    const Deck<W> final_deck = settle_blanks(end.deck, start, p.n);
    sink.leaf(end.steps, start, final_deck);
    target = end.steps;
  };
  open_choices(f, p);
  for (;;) {
    prune_choices(f, target);
    if (f.todo == 0) {
      if (level == base) return;
      f = restore(stack[--level], p, sorted);
      continue;
    }
    const int k = bits::trailing_zeros32(f.todo);
    f.todo &= f.todo - 1;
    Frame<W> c = play_choice(f, k, sorted);
    if (ends_game(p, c, level + 1, sorted, target, nodes)) report(c, k, nullptr, 0);
    if (level + 1 == leaf_level) continue;
    if (level + 2 == leaf_level) {
      // One value is left for c's blank: play c's only child here rather than going down.
      open_choices(c, p);
      prune_choices(c, target);
      if (c.todo == 0) continue;
      const int last = bits::trailing_zeros32(c.todo);
      const Frame<W> leaf = play_choice(c, last, sorted);
      if (ends_game(p, leaf, leaf_level, sorted, target, nodes)) report(leaf, k, &c, last);
      continue;
    }
    f.chosen = k;
    stack[level++] = save(f);
    f = c;
    open_choices(f, p);
  }
}

// The top of the tree, down to `depth`, at a fixed target: counts its nodes, reports its games
// (sorted variant) to the sink, and hands every node at `depth` to emit(choices) in search
// order, `choices` holding the values chosen at levels 1..depth. Host side only (recursive).
template <int W, class Sink, class Emit>
void expand_top(const Problem& p, const Frame<W>& f, int level, int depth, const Deck<W>& start,
                int target, std::uint64_t* nodes, Sink& sink, std::uint8_t* choices, Emit&& emit) {
  if (level == depth) {
    emit(static_cast<const std::uint8_t*>(choices));
    return;
  }
  const Deck<W> sorted = sorted_deck<W>(p.n);
  Frame<W> g = f;
  open_choices(g, p);
  prune_choices(g, target);
  while (g.todo) {
    const int k = bits::trailing_zeros32(g.todo);
    g.todo &= g.todo - 1;
    Deck<W> child_start = start;
    record_choice(child_start, g, k);
    const Frame<W> c = play_choice(g, k, sorted);
    if (ends_game(p, c, level + 1, sorted, target, nodes)) {
      Deck<W> full_start = child_start;
      const Deck<W> final_deck = settle_blanks(c.deck, full_start, p.n);
      sink.leaf(c.steps, full_start, final_deck);
    }
    choices[level] = static_cast<std::uint8_t>(k);
    expand_top(p, c, level + 1, depth, child_start, target, nodes, sink, choices, emit);
  }
}

}  // namespace piles::topswops
