#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace piles::nim {

// Calls visit(parts) for every way to extend `parts` by at most `slots` non-increasing parts,
// each <= cap, summing to `rest`; `parts` is restored afterwards. A pile i splits into 2..k
// piles exactly as each_split(i, i - 1, k, ...) lists.
template <class Visit>
void each_split(int rest, int cap, std::int64_t slots, std::vector<int>& parts, Visit&& visit) {
  if (rest == 0) {
    visit(static_cast<const std::vector<int>&>(parts));
    return;
  }
  if (slots < (rest + cap - 1) / cap) return;  // even parts of size cap cannot fill rest
  for (int part = std::min(rest, cap); part >= 1; --part) {
    parts.push_back(part);
    each_split(rest - part, part, slots - 1, parts, visit);
    parts.pop_back();
  }
}

}  // namespace piles::nim
