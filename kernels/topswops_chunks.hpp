#pragma once

// The host side that both Topswops kernels share, in plain C++ so that CPU tests run it: the
// chunk results assembled from what a launch leaves (per-chunk words, node counts, the game
// buffer), the run again of chunks whose games overflowed the buffer, and the chunks a search
// told to stop had finished.

#include <algorithm>
#include <cstdint>
#include <exception>
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

// Thrown by a launch_once whose stop check threw between two of its launches, in place of what
// the check threw: the results so far and the chunks finished (finished_chunks).
struct Stopped {
  std::vector<TopswopsChunkResult> results;
  std::vector<bool> finished;
  std::exception_ptr stop;
};

// The chunks finished between two launches: all their prefixes taken (prefixes are taken in
// order, the first `taken` of them), none of the lanes parked for the next launch on one of
// them (`parked_chunks`: those lanes' chunks), and their games not overflowing the buffer (they
// would be run again).
inline std::vector<bool> finished_chunks(const std::vector<std::uint64_t>& chunk_ends,
                                         std::uint64_t taken,
                                         const std::vector<std::uint32_t>& parked_chunks,
                                         const std::vector<bool>& overflowed) {
  std::vector<bool> finished(chunk_ends.size());
  for (std::size_t c = 0; c < chunk_ends.size(); ++c)
    finished[c] = chunk_ends[c] <= taken && !overflowed.at(c);
  for (std::uint32_t c : parked_chunks) finished.at(c) = false;
  return finished;
}

// Every chunk of `work` through launch_once(work, record_min, overflowed), which searches the
// chunks recording only games of at least record_min[c] in chunk c, and tells which chunks'
// games overflowed the buffer. Those chunks are searched again, recording only games of their
// best length in a buffer of at least their count: the search itself, and so its counts, are
// the same, and no game is lost however many a chunk has.
//
// stop.check is asked before the first launch and before each run again; where it throws, or
// launch_once throws Stopped, stop.keep is given the chunks finished by then (a chunk that
// overflowed only once run again) before the check's exception goes on.
template <class LaunchOnce>
std::vector<TopswopsChunkResult> search_chunks(const TopswopsWork& work, LaunchOnce&& launch_once,
                                               const TopswopsStop& stop = {}) {
  const int chunks = static_cast<int>(work.chunk_ends.size());
  if (chunks == 0 || work.chunk_ends.back() == 0) {
    std::vector<TopswopsChunkResult> empty(chunks);
    for (auto& r : empty) r.nodes.assign(work.n, 0);
    return empty;
  }
  const auto check = [&] {
    if (stop.check) stop.check();
  };
  const auto keep_and_stop = [&](const std::vector<TopswopsChunkResult>& results,
                                 const std::vector<bool>& finished, const std::exception_ptr& e) {
    if (stop.keep) stop.keep(results, finished);
    std::rethrow_exception(e);
  };
  check();
  std::vector<bool> overflowed;
  std::vector<TopswopsChunkResult> results;
  try {
    results = launch_once(work, std::vector<int>(chunks, work.target), overflowed);
  } catch (const Stopped& s) {
    keep_and_stop(s.results, s.finished, s.stop);
  }
  std::vector<bool> finished(chunks);
  for (int c = 0; c < chunks; ++c) finished[c] = !overflowed[c];
  for (int c = 0; c < chunks; ++c) {
    if (!overflowed[c]) continue;
    const std::uint64_t first = c ? work.chunk_ends[c - 1] : 0, last = work.chunk_ends[c];
    TopswopsWork one = work;
    one.choices.assign(work.choices.begin() + first * work.depth,
                       work.choices.begin() + last * work.depth);
    one.chunk_ends = {last - first};
    one.found_capacity = std::max(work.found_capacity, results[c].count);
    std::vector<bool> again;
    std::vector<TopswopsChunkResult> rerun;
    try {
      check();
    } catch (...) {
      keep_and_stop(results, finished, std::current_exception());
    }
    try {
      rerun = launch_once(one, std::vector<int>{results[c].best}, again);
    } catch (const Stopped& s) {
      keep_and_stop(results, finished, s.stop);
    }
    if (again[0])
      throw std::logic_error("Topswops chunk " + std::to_string(c) +
                             ": the GPU kept fewer longest games than it counted in a buffer "
                             "that holds them all");
    results[c].starts = std::move(rerun[0].starts);
    results[c].finals = std::move(rerun[0].finals);
    finished[c] = true;
  }
  return results;
}

}  // namespace piles::gpu::topswops_chunks
