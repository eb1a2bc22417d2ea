#pragma once

#include <cstdint>
#include <vector>

#include "host/topswops/plan.hpp"

namespace piles::topswops {

// The size of a search before it runs, by Knuth's random probes ("Estimating the efficiency of
// backtrack programs", Math. Comp. 29, 1975): a probe walks from a node to a leaf of the same
// pruned tree, taking one of the children that survive pruning at random; the product of the
// children counts along the way, summed over its levels, is an unbiased estimate of the nodes
// below. Here the levels above the plan's prefixes are known exactly (plan.top), and each chunk
// is probed from prefixes drawn at random from it (stratified: the chunk's estimate is its
// prefix count times the mean of its probes), so the estimate also weighs the chunks.
//
// The tree is the one a search at a fixed `target` makes. A real run raises its target as it
// finds longer games, and prunes more: from a target below f(n) the estimate is too high.
struct Estimate {
  int target = 0;
  double nodes = 0;               // the whole search
  double standard_error = 0;      // of `nodes`
  std::vector<double> chunks;     // per chunk of the plan (chunk 0 without the top levels)
  std::vector<double> per_level;  // n entries
  std::uint64_t probes = 0;       // Knuth's probes, or passes of stratified sampling (`stratified`)
  bool stratified = false;
  double seconds = 0;

  double relative_error() const { return nodes > 0 ? standard_error / nodes : 0; }
};

// `samples` probes in every chunk, on `threads` threads; the same seed gives the same estimate.
// The backward search of games ending sorted (plan.backward) is sampled otherwise, since its
// tree is far more uneven: `samples` passes of stratified sampling (estimate_backward.cpp).
Estimate estimate_search(const Plan& plan, int target, int samples, int threads,
                         std::uint64_t seed = 1);

// One chunk's share of an estimate: its nodes and their variance.
struct ChunkEstimate {
  double nodes = 0, variance = 0;

  // From `count` samples (their sum and sum of squares) whose mean times `scale` estimates the
  // chunk's nodes; the variance is that of the mean, scaled.
  static ChunkEstimate of_samples(double sum, double squares, int count, double scale) {
    const double mean = sum / count;
    const double variance = count > 1 ? (squares - count * mean * mean) / (count - 1) : 0;
    return {scale * mean, scale * scale * (variance > 0 ? variance : 0) / count};
  }
};

// The same samples of some chunks alone (estimate_search's chunks, given the same target and
// seed): what a run whose target rose weighs its chunks left by.
std::vector<ChunkEstimate> estimate_chunks(const Plan& plan, const std::vector<int>& chunks,
                                           int target, int samples, int threads,
                                           std::uint64_t seed = 1);

// Samples per chunk by default: probes, about 0.1 to 1 s of one thread at n = 16..18; passes
// of the backward search, about 3 to 9 s of one thread at n = 16..18.
inline constexpr int default_probes_per_chunk = 32;
inline constexpr int default_passes_per_chunk = 16;
inline int default_samples_per_chunk(const Plan& plan) {
  return plan.backward ? default_passes_per_chunk : default_probes_per_chunk;
}

// A chunk of the backward search by `passes` passes (estimate_backward.cpp); adds its nodes by
// deepest home to per_level.
ChunkEstimate estimate_backward_chunk(const Plan& plan, int chunk, int target, int passes,
                                      std::uint64_t seed, double* per_level);

}  // namespace piles::topswops
