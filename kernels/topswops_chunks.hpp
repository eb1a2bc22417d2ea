#pragma once

// The host side that both Topswops kernels share, in plain C++ so that CPU tests run it: the
// chunk results assembled from what a launch leaves (per-chunk words, node counts, the game
// buffer), and the run again of chunks whose games overflowed the buffer.

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/topswops_found.hpp"
#include "kernels/topswops_search.hpp"

namespace piles::gpu::topswops_chunks {

// The chunks' results from their words (found::with_game), their nodes (max_n levels each) and
// the games the buffer kept; per chunk, whether its games overflowed the buffer (fewer kept
// than counted).
template <int W>
std::vector<TopswopsChunkResult> assemble(const std::vector<unsigned long long>& words,
                                          const std::vector<unsigned long long>& nodes,
                                          const std::vector<topswops::found::Game<W>>& games, int n,
                                          std::vector<bool>& overflowed) {
  const std::size_t chunks = words.size();
  std::vector<TopswopsChunkResult> results(chunks);
  for (std::size_t c = 0; c < chunks; ++c) {
    results[c].best = topswops::found::best_of(words[c]);
    results[c].count = topswops::found::count_of(words[c]);
    results[c].nodes.assign(nodes.begin() + c * topswops::max_n,
                            nodes.begin() + c * topswops::max_n + n);
  }
  for (const auto& g : games) {
    TopswopsChunkResult& r = results.at(g.chunk);
    if (g.steps != r.best) continue;
    r.starts.push_back(topswops::to_cards(g.start, n));
    r.finals.push_back(topswops::to_cards(g.final_deck, n));
  }
  overflowed.assign(chunks, false);
  for (std::size_t c = 0; c < chunks; ++c)
    overflowed[c] = results[c].starts.size() < results[c].count;
  return results;
}

// Every chunk of `work` through launch_once(work, record_min, overflowed), which searches the
// chunks recording only games of at least record_min[c] in chunk c, and tells which chunks'
// games overflowed the buffer. Those chunks are searched again, recording only games of their
// best length in a buffer of at least their count: the search itself, and so its counts, are
// the same, and no game is lost however many a chunk has.
template <class LaunchOnce>
std::vector<TopswopsChunkResult> search_chunks(const TopswopsWork& work, LaunchOnce&& launch_once) {
  const int chunks = static_cast<int>(work.chunk_ends.size());
  if (chunks == 0 || work.chunk_ends.back() == 0) {
    std::vector<TopswopsChunkResult> empty(chunks);
    for (auto& r : empty) r.nodes.assign(work.n, 0);
    return empty;
  }
  std::vector<bool> overflowed;
  auto results = launch_once(work, std::vector<int>(chunks, work.target), overflowed);
  for (int c = 0; c < chunks; ++c) {
    if (!overflowed[c]) continue;
    const std::uint64_t first = c ? work.chunk_ends[c - 1] : 0, last = work.chunk_ends[c];
    TopswopsWork one = work;
    one.choices.assign(work.choices.begin() + first * work.depth,
                       work.choices.begin() + last * work.depth);
    one.chunk_ends = {last - first};
    one.found_capacity = std::max(work.found_capacity, results[c].count);
    std::vector<bool> again;
    auto rerun = launch_once(one, std::vector<int>{results[c].best}, again);
    if (again[0])
      throw std::logic_error("Topswops chunk " + std::to_string(c) +
                             ": the GPU kept fewer longest games than it counted in a buffer "
                             "that holds them all");
    results[c].starts = std::move(rerun[0].starts);
    results[c].finals = std::move(rerun[0].finals);
  }
  return results;
}

}  // namespace piles::gpu::topswops_chunks
