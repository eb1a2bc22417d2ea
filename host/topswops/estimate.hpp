#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
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
  // The whole search, or some chunks alone (estimate_part): those a shard runs, or those a
  // journal has not done. Their prefixes are counted in `prefixes`.
  enum class Part { whole, shard, left };
  Part part = Part::whole;
  std::size_t chunks_weighed = 0, prefixes = 0;

  double relative_error() const { return nodes > 0 ? standard_error / nodes : 0; }
};

// `samples` probes in every chunk, on `threads` threads; the same seed gives the same estimate.
// The backward search of games ending sorted (plan.backward) is sampled otherwise, since its
// tree is far more uneven: `samples` passes of stratified sampling (estimate_backward.cpp).
Estimate estimate_search(const Plan& plan, int target, int samples, int threads,
                         std::uint64_t seed = 1);

// The same estimate of some chunks alone (`part`: a shard's, a journal's chunks not done): the
// others and the levels above the prefixes weigh nothing, and the nodes, error and samples are
// theirs.
Estimate estimate_part(const Plan& plan, Estimate::Part part, const std::vector<int>& chunks,
                       int target, int samples, int threads, std::uint64_t seed = 1);

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
  ChunkEstimate& operator+=(const ChunkEstimate& other) {
    nodes += other.nodes;
    variance += other.variance;
    return *this;
  }
  double relative_error() const { return nodes > 0 ? std::sqrt(variance) / nodes : 0; }
};

// The same samples of some chunks alone (estimate_search's chunks, given the same target and
// seed): what a run whose target rose weighs its chunks left by.
std::vector<ChunkEstimate> estimate_chunks(const Plan& plan, const std::vector<int>& chunks,
                                           int target, int samples, int threads,
                                           std::uint64_t seed = 1);

// The chunks' weights in a run: each chunk's estimate at the highest target it was weighed at.
// The search's estimate weighs every chunk at its start target. A round that starts from a
// higher one has the chunks left weighed again at it, since a higher target prunes more (at
// n = 18 the tree from 191 is half the one from 178) and the chunks done took what they were
// weighed at: the share and the ETA then follow the smaller tree. Only where the chunks left
// weigh at least `min_nodes`: lighter ones are a few minutes of two CPU threads, where weighing
// them again would cost more than it tells (the backward search's passes made a sorted search
// of 14 cards take 3.3 s instead of 2.1).
class ChunkWeights {
 public:
  static constexpr double default_min_nodes = 1e10;

  ChunkWeights(const Plan& plan, const Estimate& estimate, double min_nodes = default_min_nodes);
  double operator[](int chunk) const { return nodes_.at(chunk); }
  // Nodes per prefix of the chunks weighed last: the whole search's, then the chunks left's.
  double per_prefix() const { return per_prefix_; }
  // The chunks `left` weighed again at `target` where it is above their last target and they
  // weigh enough, on `threads` threads; returns the line that says so, else none.
  std::optional<std::string> retarget(int target, const std::vector<int>& left, int threads);

 private:
  const Plan& plan_;
  std::vector<double> nodes_;
  int target_;
  double min_nodes_;
  double per_prefix_;
};

// Samples per chunk by default: probes, about 0.1 to 1 s of one thread at n = 16..18; passes
// of the backward search, about 4 s of one thread at n = 16, and 4 times as many from 17 cards
// on (about 36 s at 18), where a few strata hold most of the tree and 16 passes ran far below
// the 17- and 18-card searches' counts (results/bench/topswops_backward.md).
inline constexpr int default_probes_per_chunk = 32;
inline constexpr int default_passes_per_chunk = 16;
inline constexpr int heavy_passes_per_chunk = 64;
inline constexpr int heavy_passes_from_n = 17;
inline int default_samples_per_chunk(const Plan& plan) {
  if (!plan.backward) return default_probes_per_chunk;
  return plan.n >= heavy_passes_from_n ? heavy_passes_per_chunk : default_passes_per_chunk;
}

// A chunk of the backward search by `passes` passes (estimate_backward.cpp); adds its nodes by
// deepest home to per_level.
ChunkEstimate estimate_backward_chunk(const Plan& plan, int chunk, int target, int passes,
                                      std::uint64_t seed, double* per_level);

}  // namespace piles::topswops
