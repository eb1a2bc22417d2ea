#pragma once

#include <cstdint>
#include <cstring>

#include "core/deck.hpp"
#include "core/topswops.hpp"

// The longest Topswops games that end in the sorted deck, searched backward from it. A deck D
// has a predecessor by a flip of k (k >= 2) exactly when card k sits at position k: reversing
// the top k of D puts card k on top, so that deck's first move is that flip and leads to D. Play
// is deterministic, so every deck whose game ends sorted appears once in one tree below the
// sorted deck, at the depth of its game's length; the deepest nodes are the longest games.
// Everything here compiles for host and device and allocates nothing.
namespace piles::topswops::backward {

// The pruning rule, so that each can be measured against no pruning (results/bench). Each
// bounds the moves that can still follow a node D by the positions holding their own card,
// h1 > h2 > ... > hm (its "homes"), and f, the longest-game table.
enum class Prune : std::uint8_t {
  none,
  // At most f(h1) more moves. A move by k changes positions 1..k only, so no position below h1
  // holds its own card again and every later move is at most h1. The cards at positions
  // 1..h1, those larger than h1 relabelled onto the values of 1..h1 they displace, then play
  // an h1-card game that makes the same flips (each flip's top card is at most h1, so not
  // relabelled), and that game has at most f(h1) moves.
  home,
  // Also at most R1, where Ri = min(f(hi), R(i+1) + 1 + f(hi - 1)) and R(m+1) = 0: among the
  // moves at most hi, those before the first move by hi are at most h(i+1) (positions between
  // h(i+1) and hi do not change, so they hold no own card), so the same argument bounds them by
  // R(i+1); after that move no position from hi on in 1..hi holds its own card, so at most
  // f(hi - 1) more. Where f(h1) is not known (h1 = n) this is the only bound.
  split,
  // Also, where the move into D flipped more than h1 cards (card k > h1 on top), at most f(h1)
  // minus the length of the h1-card game of the relabelled top of D: the h1-card game of
  // `home` passes through that deck and goes on with its game (any relabelling will do; two
  // are tried). Checked only there: below such a node, while h1 stays, each node's h1-card
  // game runs through its parent's, one move longer, so the bound stays where it was.
  play,
};

// The split rule's Ri over the homes in one byte of the moves, as the map r -> min(cap, r + add)
// from the R of the homes below them: each home's step r -> min(f(h), r + 1 + f(h - 1)) is such
// a map, and so is their composition. A table of the 256 bytes at each of three places (every
// position of 24 cards) gives the bound in three lookups instead of a step per home, a chain
// of dependent steps that took a seventh of the CPU search at 15 cards.
struct SplitStep {
  std::int32_t cap, add;
};
inline constexpr int split_bytes = 3;
inline constexpr int split_entries = split_bytes * 256;

// Fills steps[256 * b + byte] for f = longest[0..n] (positions past n stay the identity).
PILES_HD inline void fill_split_steps(const std::int32_t* longest, int n, SplitStep* steps) {
  for (int b = 0; b < split_bytes; ++b)
    for (int byte = 0; byte < 256; ++byte) {
      SplitStep s{1 << 28, 0};  // the identity, its cap above any bound
      for (int i = 0; i < 8; ++i) {
        const int h = 8 * b + i + 1;
        if (!(byte >> i & 1) || h > n) continue;
        const std::int32_t step = 1 + longest[h - 1];
        s.cap = s.cap + step < longest[h] ? s.cap + step : longest[h];
        s.add += step;
      }
      steps[256 * b + byte] = s;
    }
}

struct Problem {
  int n;
  const std::int32_t* longest;  // longest[p]: an upper bound on f(p), for p = 0..n
  Prune prune;
  // Optional, read on the host only: the split rule's table for `longest` (split_entries steps).
  const SplitStep* split = nullptr;
};

// Positions 2..n (bit i - 1 for position i) holding their own card: the backward moves of d,
// held as words or in the machine's registers (Playing).
template <int W>
PILES_HD std::uint32_t homes(const Deck<W>& d, const Deck<W>& sorted, int n) {
  return same_cards(d, sorted, n) & ~1u;
}

template <int W, bool Vector>
PILES_HD std::uint32_t homes(const Playing<W, Vector>& d, const Playing<W, Vector>& sorted, int n) {
  return d.same_cards(sorted, n) & ~1u;
}

// The words of a deck held either way.
template <int W>
PILES_HD const Deck<W>& words(const Deck<W>& d) {
  return d;
}

template <int W, bool Vector>
PILES_HD Deck<W> words(const Playing<W, Vector>& d) {
  return d.deck();
}

// The deepest position holding its own card (0 for none).
PILES_HD inline int deepest(std::uint32_t homes) {
  return homes ? 64 - bits::leading_zeros(homes) : 0;
}

template <int W>
struct Node {
  Deck<W> deck;
  int depth;
};

template <int W>
PILES_HD Node<W> root(int n) {
  return {sorted_deck<W>(n), 0};
}

// Flips the top k cards: on the host the machine's fastest flip (Playing), else the words.
template <int W>
PILES_HD void flip(Deck<W>& d, int k) {
#if defined(__CUDA_ARCH__)
  flip_words(d, k);
#else
  Playing<W> playing(d);
  playing.flip(k);
  d = playing.deck();
#endif
}

// Moves to the child by a flip of k, one of the node's moves; returns the child's moves.
template <int W>
PILES_HD std::uint32_t descend(Node<W>& node, int k, const Deck<W>& sorted, int n) {
  flip(node.deck, k);
  ++node.depth;
  return homes(node.deck, sorted, n);
}

// An upper bound on the moves that can follow a node with these moves (homes), by the rule.
PILES_HD inline int remaining(const Problem& problem, std::uint32_t moves) {
  const std::int32_t* f = problem.longest;
  if (problem.prune == Prune::home) return f[deepest(moves)];
#if !defined(__CUDA_ARCH__)
  if (problem.split) {
    int r = 0;
    for (int b = 0; b < split_bytes; ++b) {
      const SplitStep& s = problem.split[256 * b + (moves >> 8 * b & 255)];
      r = r + s.add < s.cap ? r + s.add : s.cap;
    }
    return r;
  }
#endif
  // Ri from the shallowest home hm up to h1.
  int r = 0;
  for (std::uint32_t m = moves; m != 0; m &= m - 1) {
    const int h = bits::trailing_zeros(m) + 1;
    r = r + 1 + f[h - 1] < f[h] ? r + 1 + f[h - 1] : f[h];
  }
  return r;
}

// The lengths of the h-card games of the top h cards of d, those larger than h relabelled onto
// the values of 1..h missing there, in order of position: lengths[0] ascending, lengths[1]
// descending.
template <int W>
PILES_HD void relabelled_lengths(const Deck<W>& d, int h, int lengths[2]) {
  std::uint8_t up[8 * W] = {}, down[8 * W] = {};
  std::uint32_t present = 0;
  for (int i = 0; i < h; ++i) {
    up[i] = static_cast<std::uint8_t>(d.at(i));
    if (up[i] <= h) present |= 1u << up[i];
  }
  std::uint32_t low = ~present & ((2u << h) - 2), high = low;
  for (int i = 0; i < h; ++i) {
    down[i] = up[i];
    if (up[i] <= h) continue;
    up[i] = static_cast<std::uint8_t>(bits::trailing_zeros(low));
    low &= low - 1;
    const int v = 63 - bits::leading_zeros(high);
    down[i] = static_cast<std::uint8_t>(v);
    high &= ~(1u << v);
  }
  lengths[0] = lengths[1] = 0;
#if defined(__CUDA_ARCH__)
  for (; up[0] != 1; ++lengths[0]) deck::flip(up, up[0]);
  for (; down[0] != 1; ++lengths[1]) deck::flip(down, down[0]);
#else
  // Both games at once in the machine's registers (Playing): two chains of flips that do not
  // wait for each other. Played one after the other a byte at a time, they took a third of the
  // search's time.
  Deck<W> packed[2];
  std::memcpy(packed[0].w, up, sizeof packed[0].w);
  std::memcpy(packed[1].w, down, sizeof packed[1].w);
  Playing<W> a(packed[0]), b(packed[1]);
  for (bool a_on = a.top() != 1, b_on = b.top() != 1; a_on || b_on;) {
    if (a_on) {
      a.flip_top();
      ++lengths[0];
      a_on = a.top() != 1;
    }
    if (b_on) {
      b.flip_top();
      ++lengths[1];
      b_on = b.top() != 1;
    }
  }
#endif
}

// An upper bound on the moves that can follow a node (its deck held either way, its depth), by
// the rule (at least those to `target` when it cannot reach it): the costlier play bound only
// where the cheaper bounds reach the target. A search checks it once, on entering the node.
template <class Held>
PILES_HD int bound(const Problem& problem, const Held& deck, int depth, std::uint32_t moves,
                   int target) {
  int r = remaining(problem, moves);
  const int h = deepest(moves);
  if (problem.prune == Prune::play && deck.top() > h && depth + r >= target) {
    int lengths[2];
    relabelled_lengths(words(deck), h, lengths);
    const int longest = problem.longest[h] - lengths[0];
    const int other = problem.longest[h] - lengths[1];
    r = r < longest ? r : longest;
    r = r < other ? r : other;
  }
  return r;
}

template <int W>
PILES_HD int bound(const Problem& problem, const Node<W>& node, std::uint32_t moves, int target) {
  return bound(problem, node.deck, node.depth, moves, target);
}

// True when no game through the node can reach `target`.
template <class Held>
PILES_HD bool pruned(const Problem& problem, const Held& deck, int depth, std::uint32_t moves,
                     int target) {
  if (problem.prune == Prune::none || moves == 0) return false;
  return depth + bound(problem, deck, depth, moves, target) < target;
}

template <int W>
PILES_HD bool pruned(const Problem& problem, const Node<W>& node, std::uint32_t moves, int target) {
  return pruned(problem, node.deck, node.depth, moves, target);
}

// Where a search stands: at `node`, searching the subtree of its ancestor at `start_depth`
// (the part not yet searched), about to take `next`: 0 to enter the node (count it and choose
// its first move), -1 to choose the first move of a node already counted, else that move (one
// of the node's). A search that stops leaves its cursor where it stood; one from there counts
// the rest.
template <int W>
struct Cursor {
  Node<W> node;
  int start_depth;
  int next;
};

// The whole subtree of `node` (next = 0), or its moves from k on, the node itself counted
// elsewhere (next = k).
template <int W>
PILES_HD Cursor<W> cursor_at(const Node<W>& node, int next = 0) {
  return {node, node.depth, next};
}

// What a search's sink answers when it is polled, on entering each node. A sink that can
// answer `share` says so (Sink::shares) and takes the moves handed off (Sink::share).
enum class Poll : std::uint8_t {
  go,
  // Hand the moves still to come at the shallowest node that has some to sink.share(cursor):
  // they are searched elsewhere from that node's next move on, and this search ends below it.
  share,
  // End the search now, its cursor where it stands.
  stop,
};

// For Poll::share: walks back from `node` to the search's start at `start_depth` and hands the
// moves still to come at the shallowest node on the way that has some to sink.share. Returns
// the search's new start: that node's child on the way back (or the old start where nothing
// was left to hand off).
template <int W, class Sink>
PILES_HD int share(const Node<W>& node, int start_depth, const Deck<W>& sorted, int n, Sink& sink) {
  Node<W> at = node, shallowest = node;
  int next = 0;
  while (at.depth > start_depth) {
    const int back = at.deck.top();
    flip(at.deck, back);
    --at.depth;
    const std::uint32_t later = homes(at.deck, sorted, n) & ~((1u << back) - 1);
    if (later) {
      shallowest = at;
      next = bits::trailing_zeros(later) + 1;
    }
  }
  if (next == 0) return start_depth;
  sink.share(cursor_at(shallowest, next));
  return shallowest.depth + 1;
}

// The search from `at`, depth first, children by increasing k, at a fixed `target`: nodes
// counted by deepest home (nodes[p - 1], leaves in nodes[0]), every deck of at least `target`
// moves to sink.game(steps, deck). The target never rises inside a search, so what a subtree
// counts depends only on it and the target, however its parts were shared out or resumed.
// Stackless: a child goes back to its parent by a flip of its top card. Returns true when the
// search is done, false when the sink said stop (`at` then says where it stood).
// Vector = false holds the deck in words on the host too, as a GPU does, so that tests run the
// device's code on the CPU.
template <int W, bool Vector = true, class Sink>
PILES_HD bool search(const Problem& problem, Cursor<W>& at, int target, std::uint64_t* nodes,
                     Sink& sink) {
  const int n = problem.n;
  const Deck<W> sorted_words = sorted_deck<W>(n);
  // The deck in the machine's registers on the host: a flip and the positions holding their own
  // card are a few vector instructions there; words elsewhere.
  const Playing<W, Vector> sorted(sorted_words);
  Playing<W, Vector> deck(at.node.deck);
  int depth = at.node.depth;
  int start_depth = at.start_depth;
  std::uint32_t moves = homes(deck, sorted, n);
  // The node's first move unless it is pruned, 0 for none.
  const auto first = [&] {
    return moves && !pruned(problem, deck, depth, moves, target) ? bits::trailing_zeros(moves) + 1
                                                                 : 0;
  };
  bool entering = at.next == 0;
  int k = at.next < 0 ? first() : at.next;
  for (;;) {
    if (entering) {
      // On entering a node (deck and moves known).
      const int p = deepest(moves);
      ++nodes[p > 0 ? p - 1 : 0];
      if (depth >= target) sink.game(depth, deck.deck());
      switch (sink.poll()) {
        case Poll::go:
          break;
        case Poll::share:
          if constexpr (Sink::shares)
            start_depth = share(Node<W>{deck.deck(), depth}, start_depth, sorted_words, n, sink);
          break;
        case Poll::stop:
          at = {{deck.deck(), depth}, start_depth, -1};
          return false;
      }
      k = first();
    }
    // Back up until a node has a next move. A node entered unpruned stays so, the target being
    // fixed: its later moves need no second check.
    while (k == 0) {
      if (depth == start_depth) return true;
      const int back = deck.top();
      deck.flip_top();
      --depth;
      moves = homes(deck, sorted, n);
      const std::uint32_t later = moves & ~((1u << back) - 1);  // positions after back
      if (later) k = bits::trailing_zeros(later) + 1;
    }
    deck.flip(k);
    ++depth;
    moves = homes(deck, sorted, n);
    entering = true;
  }
}

// A lane's sink in a pass of searches (kernels/topswops_backward.hpp): every deck of at least
// the target to keep(steps, deck), and a stop after `left` nodes entered. It never shares.
template <int W, class Keep>
struct LaneSink {
  static constexpr bool shares = false;
  Keep& keep;
  std::uint64_t left;

  PILES_HD void game(int steps, const Deck<W>& deck) { keep(steps, deck); }
  PILES_HD Poll poll() { return --left == 0 ? Poll::stop : Poll::go; }
};

// A lane's turn: the search from `at` for at most `budget` (> 0) nodes entered. Returns true
// when it is done; else `at` says where it stood.
template <int W, bool Vector = true, class Keep>
PILES_HD bool search_for(const Problem& problem, Cursor<W>& at, int target, std::uint64_t budget,
                         std::uint64_t* nodes, Keep& keep) {
  LaneSink<W, Keep> sink{keep, budget};
  return search<W, Vector>(problem, at, target, nodes, sink);
}

}  // namespace piles::topswops::backward
