#pragma once

#include <algorithm>
#include <map>
#include <set>
#include <thread>
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

// The chunks' partials from the CPU engine on every core, at least two threads (a chunk of
// 17 cards is 0.9e9 nodes): what every other engine must give.
inline TopswopsChunks cpu_chunks(const topswops::Plan& plan, const std::vector<int>& chunks,
                                 int target) {
  TopswopsChunks out;
  const int threads = static_cast<int>(std::max(2u, std::thread::hardware_concurrency()));
  topswops::run_chunks_cpu(
      plan, chunks, target, threads,
      [&](int chunk, const topswops::Partial& p, double) { out.emplace(chunk, p); });
  return out;
}

}  // namespace piles::testing
