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
  std::uint64_t probes = 0;
  double seconds = 0;

  double relative_error() const { return nodes > 0 ? standard_error / nodes : 0; }
};

// `probes_per_chunk` probes in every chunk, on `threads` threads; the same seed gives the same
// estimate.
Estimate estimate_search(const Plan& plan, int target, int probes_per_chunk, int threads,
                         std::uint64_t seed = 1);

// Probes per chunk by default: about 0.1 to 1 s of one thread at n = 16..18.
inline constexpr int default_probes_per_chunk = 32;

}  // namespace piles::topswops
