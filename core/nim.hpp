#pragma once

// Scatterstone Nim's rule, shared by the Grundy-value check and the direct game search: a move
// splits one pile into p non-empty piles, 2 <= p <= k; a player with no move loses.

#include <cstdint>

#include "core/hd.hpp"

namespace piles::nim {

// Calls visit(parts, length) for every way to extend parts[0..len) by at most `slots`
// non-increasing parts, each <= cap, summing to `rest`; `parts` needs room for len + rest
// entries. A pile i splits into 2..k piles exactly as each_split(i, i - 1, k, parts, 0, ...)
// lists.
template <class Visit>
PILES_HD void each_split(int rest, int cap, std::int64_t slots, int* parts, int len,
                         Visit&& visit) {
  if (rest == 0) {
    visit(static_cast<const int*>(parts), len);
    return;
  }
  if (slots < (rest + cap - 1) / cap) return;  // even parts of size cap cannot fill rest
  if (slots == 1) {  // the last pile takes the rest: no loop over sizes that cannot end
    parts[len] = rest;
    visit(static_cast<const int*>(parts), len + 1);
    return;
  }
  for (int part = rest < cap ? rest : cap; part >= 1; --part) {
    parts[len] = part;
    each_split(rest - part, part, slots - 1, parts, len + 1, visit);
  }
}

}  // namespace piles::nim
