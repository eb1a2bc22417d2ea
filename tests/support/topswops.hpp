#pragma once

#include <map>
#include <set>
#include <utility>
#include <vector>

#include "core/topswops.hpp"
#include "host/topswops/cpu_engine.hpp"
#include "kernels/topswops_search.hpp"

namespace piles::testing {

// The longest games a search reports (a search_below sink), every deck of that length.
template <int W>
struct LongestGames {
  int n;
  int best = -1;
  std::set<std::pair<std::vector<int>, std::vector<int>>> decks;

  void leaf(int steps, const topswops::Deck<W>& start, const topswops::Deck<W>& final_deck) {
    if (steps < best) return;
    if (steps > best) decks.clear();
    best = steps;
    decks.insert({topswops::to_cards(start, n), topswops::to_cards(final_deck, n)});
  }
};

using TopswopsChunks = std::map<int, topswops::Partial>;

// The chunks' partials from the CPU engine on two threads: what every other engine must give.
inline TopswopsChunks cpu_chunks(const topswops::Plan& plan, const std::vector<int>& chunks,
                                 int target) {
  TopswopsChunks out;
  topswops::run_chunks_cpu(
      plan, chunks, target, 2,
      [&](int chunk, const topswops::Partial& p, double) { out.emplace(chunk, p); });
  return out;
}

}  // namespace piles::testing
