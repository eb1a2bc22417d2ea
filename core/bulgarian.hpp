#pragma once

// Bulgarian solitaire rules and steps shared by the CPU engines and the kernels: the move, the
// predecessor-forest walker of the backward engine, Brandt's cycle partitions, the
// per-partition steps of the forward engine, the Griggs-Ho formula and the stochastic move with
// its counter-based RNG.

#include <cstdint>

#include "core/hd.hpp"
#include "core/partition.hpp"

namespace piles::bulgarian {

using partition::part_t;

// ---------------------------------------------------------------------------------------------
// The move B.

// One card from each of the len non-increasing piles, emptied piles vanish, and a new pile of
// `fresh` cards (none when fresh is 0) takes its place in the order. `out` needs room for
// len + 1 parts. Returns the new number of parts.
template <class Part>
PILES_HD inline int take_one_each(const Part* parts, int len, Part fresh, Part* out) {
  int o = 0;
  bool placed = fresh == 0;
  for (int i = 0; i < len; ++i) {
    const Part v = static_cast<Part>(parts[i] - 1);
    if (v == 0) break;  // non-increasing: every later pile is empty too
    if (!placed && fresh >= v) {
      out[o++] = fresh;
      placed = true;
    }
    out[o++] = v;
  }
  if (!placed) out[o++] = fresh;
  return o;
}

// The Bulgarian solitaire move: one card from each of the len piles forms a new pile of len;
// emptied piles vanish. `out` needs room for len + 1 parts. Returns the new number of parts.
// Part is part_t wherever partitions are ranked, and wider where a trace has more cards.
template <class Part>
PILES_HD inline int move(const Part* parts, int len, Part* out) {
  return take_one_each(parts, len, static_cast<Part>(len), out);
}

// ---------------------------------------------------------------------------------------------
// Triangular numbers, Brandt's cycle partitions, the Griggs-Ho formula.

PILES_HD constexpr int triangular(int k) {
  return k * (k + 1) / 2;
}

// Brandt's k: the largest k with T_k <= n, so n = T_k + r with 0 <= r <= k.
PILES_HD constexpr int brandt_k(int n) {
  int k = 0;
  while (triangular(k + 1) <= n) ++k;
  return k;
}

// The cycle partition (k+e_0, k-1+e_1, ..., 1+e_{k-1}, e_k) for e = bits of `mask` (bit i is
// e_i), zero parts dropped. `parts` needs room for k + 1 entries. Returns the number of parts.
PILES_HD inline int cycle_partition(int k, std::uint64_t mask, part_t* parts) {
  int len = 0;
  for (int i = 0; i <= k; ++i) {
    const int v = k - i + static_cast<int>(mask >> i & 1);
    if (v > 0) parts[len++] = static_cast<part_t>(v);
  }
  return len;
}

// Whether non-increasing parts are one of those cycle partitions: part i is k - i or k - i + 1
// for i = 0..k (a missing part is 0), and there are no more.
PILES_HD inline bool on_cycle(const part_t* parts, int len, int k) {
  if (len > k + 1) return false;
  for (int i = 0; i <= k; ++i) {
    const int excess = (i < len ? parts[i] : 0) - (k - i);
    if (excess != 0 && excess != 1) return false;
  }
  return true;
}

// A move turns e into (e_k, e_0, ..., e_{k-1}); so the cycle predecessor of e's partition
// belongs to (e_1, ..., e_k, e_0) and has k + e_0 parts. That is the one predecessor a walk
// from the cycle must not take again.
PILES_HD constexpr int cycle_predecessor_parts(int k, std::uint64_t mask) {
  return k + static_cast<int>(mask & 1);
}

// Next mask with the same number of ones (Gosper's hack); masks of r ones in k+1 bits run from
// (1 << r) - 1 to the first mask at or above 1 << (k+1).
PILES_HD inline std::uint64_t next_same_popcount(std::uint64_t x) {
  const std::uint64_t low = x & (~x + 1);
  const std::uint64_t ripple = x + low;
  return ripple | (((x ^ ripple) >> 2) / low);
}

// Griggs and Ho's conjectured longest transient: k is the smallest with n <= T_k and
// r = n - T_{k-1}.
PILES_HD constexpr int griggs_ho(int n) {
  int k = 1;
  while (triangular(k) < n) ++k;
  const int r = n - triangular(k - 1);
  const int low = (k - 1) / 2, high = (k + 1) / 2;
  if (r < low) return (k - 1) * (k - r - 2);
  if (r == low || r == high) return n - k + 1;
  return (r - 2) * k + r;
}

// ---------------------------------------------------------------------------------------------
// Backward engine: a depth-first walk of the predecessor forest.
//
// A partition is kept as its distinct parts ("groups", largest first) in a small ring. A
// predecessor adds 1 to every part but one, so a part is stored as key = depth - value: the
// increment of all parts is then just depth + 1. Predecessors of μ (t parts) come from its
// distinct parts v >= t - 1: remove one v, add 1 to the others, append v - t + 1 ones; that
// predecessor has v parts. The candidates are the largest groups, so removing and re-inserting
// a part only touches the head of the ring. Going back up is one forward move, and the child's
// number of parts says which candidate led to it, so the walk needs no stack at all.

// Distinct parts of a partition of n <= partition::max_n number at most 28, so 32 slots hold
// every partition the walker meets.
inline constexpr int ring_size = 32;
inline constexpr int ring_mask = ring_size - 1;

struct ForestNode {
  std::int16_t key[ring_size];   // depth - part value, increasing from head to tail
  std::int16_t mult[ring_size];  // how many parts have that value
  std::int32_t head = 0;         // slot of the largest part (positions are taken & ring_mask)
  std::int32_t tail = 0;         // one past the slot of the smallest part
  std::int32_t depth = 0;        // moves from this node to its cycle
  std::int32_t parts = 0;        // number of parts

  PILES_HD int value(int g) const { return depth - key[g & ring_mask]; }
  // Group g (head <= g < tail) is a candidate when its part may be removed.
  PILES_HD bool is_candidate(int g) const { return g < tail && value(g) >= parts - 1; }
  // Garden of Eden: no predecessor, i.e. largest part <= parts - 2.
  PILES_HD bool is_leaf() const { return !is_candidate(head); }

  // Whether taking the single largest part v of a partition of `count` parts, whose next
  // distinct part is `second` (0: none), makes a leaf: that predecessor has v parts, the others
  // one larger and v - count + 1 ones, and is a leaf when its largest is below v - 1.
  PILES_HD static bool leaf_below(int v, int count, int second) {
    const int largest = second > 0 ? second + 1 : v - count + 1 > 0 ? 1 : 0;
    return largest < v - 1;
  }

  // Whether the predecessor made from candidate group g is a leaf, without making it. Unless g
  // is the head holding a single part, the head's part stays and exceeds v: never a leaf.
  PILES_HD bool child_is_leaf(int g) const {
    if (g != head || mult[head & ring_mask] != 1) return false;
    return leaf_below(value(g), parts, head + 1 < tail ? value(head + 1) : 0);
  }

  // Whether the predecessor made from candidate group g has exactly one predecessor, a leaf (a
  // "twig": about a quarter of the partitions, each holding one leaf), without making either.
  // The child has v = value(g) parts: this node's others, one larger, then v - parts + 1 ones.
  // Its candidates are its parts of at least v - 1, so it has one when its largest part w1
  // reaches v - 1 and its second largest w2 does not; that candidate's child is a leaf by
  // child_is_leaf's rule (leaf_below), read off the child's first two groups.
  PILES_HD bool child_is_twig(int g) const {
    const int v = value(g), ones = v - parts + 1;
    // The child's first group is this node's head, unless g is the head holding one part.
    int h = head;
    if (h == g && mult[h & ring_mask] == 1) ++h;
    int w1 = 1, w1_mult = ones, w2 = 0;
    if (h < tail) {
      w1 = value(h) + 1;
      w1_mult = mult[h & ring_mask] - (h == g);
      int h2 = h + 1;
      if (h2 == g && mult[h2 & ring_mask] == 1) ++h2;
      w2 = h2 < tail ? value(h2) + 1 : ones > 0 ? 1 : 0;
    }
    if (w1_mult != 1 || w1 < v - 1 || (w2 > 0 && w2 >= v - 1)) return false;  // w2 = 0: none
    return leaf_below(w1, v, w2);
  }

  // From non-increasing parts, at the given depth.
  PILES_HD void assign(const part_t* p, int len, int at_depth) {
    head = tail = 0;
    depth = at_depth;
    parts = len;
    for (int i = 0; i < len; ++i) {
      if (i > 0 && p[i] == p[i - 1]) {
        ++mult[(tail - 1) & ring_mask];
        continue;
      }
      key[tail & ring_mask] = static_cast<std::int16_t>(depth - p[i]);
      mult[tail & ring_mask] = 1;
      ++tail;
    }
  }

  // Writes the parts, largest first; returns how many.
  PILES_HD int to_parts(part_t* p) const {
    int len = 0;
    for (int g = head; g < tail; ++g)
      for (int m = 0; m < mult[g & ring_mask]; ++m) p[len++] = static_cast<part_t>(value(g));
    return len;
  }

  // Move to the predecessor made from candidate group g.
  PILES_HD void descend(int g) {
    const int v = value(g);
    if (--mult[g & ring_mask] == 0) {
      for (int i = g; i > head; --i) {
        key[i & ring_mask] = key[(i - 1) & ring_mask];
        mult[i & ring_mask] = mult[(i - 1) & ring_mask];
      }
      ++head;
    }
    ++depth;
    const int ones = v - parts + 1;
    if (ones > 0) {
      key[tail & ring_mask] = static_cast<std::int16_t>(depth - 1);
      mult[tail & ring_mask] = static_cast<std::int16_t>(ones);
      ++tail;
    }
    parts = v;
  }

  // One forward move back to the parent; returns the group of the part the move re-created,
  // which is the candidate that led here.
  PILES_HD int ascend() {
    const int v = parts;
    int ones = 0;
    if (value(tail - 1) == 1) ones = mult[--tail & ring_mask];
    --depth;
    parts = v - ones + 1;
    int g = head;
    while (g < tail && value(g) > v) ++g;
    if (g < tail && value(g) == v) {
      ++mult[g & ring_mask];
      return g;
    }
    for (int i = head; i < g; ++i) {
      key[(i - 1) & ring_mask] = key[i & ring_mask];
      mult[(i - 1) & ring_mask] = mult[i & ring_mask];
    }
    --head;
    key[(g - 1) & ring_mask] = static_cast<std::int16_t>(depth - v);
    mult[(g - 1) & ring_mask] = 1;
    return g - 1;
  }
};

// A walk through the subtree below a forest node, resumable: it stops after a budget of moves
// and goes on later, on any thread or device, from the same few words.
struct ForestWalker {
  ForestNode node;         // where the walk stands
  std::int32_t base = 0;   // depth of the subtree's root; the walk ends when it is back there
  std::int32_t next = 0;   // next candidate group to try at `node`
  std::int32_t fresh = 1;  // the root is not visited yet

  PILES_HD static ForestWalker at(const ForestNode& root) {
    ForestWalker w;
    w.node = root;
    w.base = root.depth;
    w.next = root.head;
    return w;
  }
};

// Goes on with the walk for at most `budget` descents, calling visit(depth, is_leaf) once per
// partition. Returns true when the subtree is done (then w.node is its root again).
// LeavesInPlace: a child that is a leaf (child_is_leaf) is visited from its parent, not descended
// into and climbed back from; almost half the partitions are leaves. So is a twig
// (child_is_twig) and its leaf. Either counts as one descent.
template <bool LeavesInPlace = false, class Visit>
PILES_HD bool walk_forest(ForestWalker& w, std::uint64_t budget, Visit&& visit) {
  ForestNode& node = w.node;
  if (w.fresh) {
    visit(node.depth, node.is_leaf());
    w.fresh = 0;
  }
  int g = w.next;
  for (;;) {
    if (node.is_candidate(g)) {
      if (budget-- == 0) {
        w.next = g;
        return false;
      }
      if constexpr (LeavesInPlace) {
        if (node.child_is_leaf(g)) {
          visit(node.depth + 1, true);
          ++g;
          continue;
        }
        if (node.child_is_twig(g)) {
          visit(node.depth + 1, false);
          visit(node.depth + 2, true);
          ++g;
          continue;
        }
      }
      node.descend(g);
      visit(node.depth, node.is_leaf());
      g = node.head;
    } else if (node.depth == w.base) {
      w.next = g;
      return true;
    } else {
      g = node.ascend() + 1;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Forward engine: one step per partition, on 32-bit ranks up to n = 127 (p(127) < 2^32 <
// p(128)) and 64-bit ranks beyond, as far as memory holds the arrays.

inline constexpr int forward_max_n = 127;
inline constexpr int forward_wide_max_n = 255;
inline constexpr std::uint16_t unknown_depth = 0xFFFF;

// Rank of B(λ) for the partition λ of rank r.
template <class Rank = std::uint32_t>
PILES_HD inline Rank successor_rank(partition::CountView table, std::uint64_t r) {
  constexpr int max_n = sizeof(Rank) >= 8 ? forward_wide_max_n : forward_max_n;
  part_t parts[max_n + 1];
  part_t next[max_n + 2];
  const int len = partition::unrank(table, r, parts);
  const int next_len = bulgarian::move(parts, len, next);
  return static_cast<Rank>(partition::rank(table, next, next_len));
}

// Level-synchronous depth: a partition of unknown depth whose successor sits at level - 1 is at
// `level`.
PILES_HD constexpr bool joins_level(std::uint16_t own, std::uint16_t successor, int level) {
  return own == unknown_depth && successor == level - 1;
}

// ---------------------------------------------------------------------------------------------
// Stochastic variant: every pile gives a card independently with probability p.

// SplitMix64's finalizer: a bijective mix of 64 bits.
PILES_HD constexpr std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBULL;
  x ^= x >> 31;
  return x;
}

// Counter-based random bits, SplitMix64 style: each chain gets its own key from (seed, chain),
// and the word for (step, pile) is the mix of key + counter * golden ratio. No state, so every
// chain can be run by any thread on either backend and draws the same numbers.
inline constexpr std::uint64_t golden_gamma = 0x9E3779B97F4A7C15ULL;

PILES_HD constexpr std::uint64_t chain_key(std::uint64_t seed, std::uint64_t chain) {
  return mix64(mix64(seed + golden_gamma) + chain * golden_gamma);
}

// pile < 512 (piles never exceed partition::max_n), so distinct (step, pile) pairs give
// distinct counters.
PILES_HD constexpr std::uint64_t counter_random(std::uint64_t key, std::uint64_t step,
                                                std::uint64_t pile) {
  return mix64(key + (step * 512 + pile) * golden_gamma);
}

// One stochastic move on non-increasing parts (in place; room for len + 1 parts): pile i gives
// a card when the top 53 bits of its random word are below `threshold` = p * 2^53, which is
// exact for every double p, and p = 1 is the plain game. Returns the new length.
template <class Part>
PILES_HD inline int stochastic_move(Part* parts, int len, std::uint64_t threshold,
                                    std::uint64_t key, std::uint64_t step) {
  int taken = 0, out = 0;
  for (int i = 0; i < len; ++i) {
    Part v = parts[i];
    if ((counter_random(key, step, static_cast<std::uint64_t>(i)) >> 11) < threshold) {
      --v;
      ++taken;
    }
    if (v > 0) parts[out++] = v;
  }
  if (taken == 0) return out;
  // Taking a card keeps the order except among equal piles, so an insertion sort is short.
  for (int i = 1; i < out; ++i) {
    const Part v = parts[i];
    int j = i;
    while (j > 0 && parts[j - 1] < v) {
      parts[j] = parts[j - 1];
      --j;
    }
    parts[j] = v;
  }
  int j = out;
  while (j > 0 && parts[j - 1] < taken) {
    parts[j] = parts[j - 1];
    --j;
  }
  parts[j] = static_cast<Part>(taken);
  return out + 1;
}

}  // namespace piles::bulgarian
