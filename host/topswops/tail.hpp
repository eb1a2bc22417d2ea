#pragma once

#include <vector>

namespace piles::topswops {

// B. Chaffin's cutoff from the (n-1)-card search (benchaffin.com/topswops, 2026). Once card n
// reaches the bottom of an n-card deck it never moves again: the game goes on as the game of
// the n-1 cards above it, a deck E. If every n-card game passing through E with card n under
// it is shorter than t whenever E's own game has at least L steps, then a game of at least t
// steps has fewer than L steps left once card n lands; that bound replaces f(n-1) wherever
// card n alone is fixed at the bottom, and most prunings happen there. The longest n-card game
// through E (card n under it) is E's game plus the longest chain of backward moves from it.
struct Tail {
  int n = 0;     // the searches it serves, on n cards; 0: no tail
  int from = 0;  // every (n-1)-card deck whose game has at least `from` steps was looked at
  // Index L - from: the longest n-card game through a deck whose own game has L steps, -1 if
  // no deck has L steps.
  std::vector<int> longest;

  // An upper bound on the steps left once card n lands, in any game of at least `target` steps.
  int cap(int target) const {
    int c = from - 1;
    for (int i = 0; i < static_cast<int>(longest.size()); ++i)
      if (longest[i] >= target) c = from + i;
    return c;
  }
  bool operator==(const Tail&) const = default;
};

}  // namespace piles::topswops
