#pragma once

#include "core/topswops.hpp"
#include "host/topswops/partial.hpp"
#include "kernels/topswops_search.hpp"

namespace piles::topswops {

// The CPU side's sink for search_below: every game reaching the target goes into a Partial.
template <int W>
struct GameSink {
  int n;
  Partial& partial;

  void leaf(int steps, const Deck<W>& start, const Deck<W>& final_deck) {
    if (steps >= partial.best) partial.add(steps, {to_cards(start, n), to_cards(final_deck, n)});
  }
};

}  // namespace piles::topswops
