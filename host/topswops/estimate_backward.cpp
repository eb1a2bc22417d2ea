#include <algorithm>
#include <bit>
#include <cmath>
#include <random>
#include <vector>

#include "core/topswops_backward.hpp"
#include "host/topswops/backward.hpp"
#include "host/topswops/estimate.hpp"

namespace piles::topswops {
namespace {

// The backward tree is far too uneven for Knuth's probes (a deck with card n at the bottom
// heads the whole (n-1)-card tree, a deck just below a flip of n a few nodes), so it is sampled
// level by level instead, by P. C. Chen's heuristic sampling ("Heuristic sampling: a method
// for predicting the performance of tree searching programs", SIAM J. Comput. 21, 1992): the
// nodes of a level fall into strata by what bounds their subtrees, and each stratum keeps one
// of its nodes, drawn in proportion to their weights, standing for all of them with their
// weights summed. Each level's sum of weights is an unbiased estimate of its nodes.
template <int W>
struct Sampled {
  backward::Node<W> node;
  std::uint32_t moves;
  double weight;
};

// What a subtree's size follows: the positions holding their own card (its moves, and what
// its pruning bound is made of), and how far that bound reaches past the target.
std::uint64_t stratum(std::uint32_t moves, int depth, int bound, int target) {
  const int slack = std::clamp(depth + bound - target, 0, 255);
  return static_cast<std::uint64_t>(moves) << 8 | static_cast<std::uint64_t>(slack);
}

// The strata met on one level: each key's slot in the level's kept nodes, by open addressing
// in a table reused from level to level and pass to pass (a node map allocated for each level
// took a fifth of the estimate's time).
class Strata {
 public:
  // Empties the table for at most `most` keys.
  void clear(std::size_t most) {
    std::size_t size = 16;
    while (size < 2 * most) size *= 2;
    slots_.assign(size, Slot{});
    shift_ = 64 - std::countr_zero(size);
  }
  // The index kept for `key`, or `fresh` where the key is new (then kept for it).
  std::size_t find_or_add(std::uint64_t key, std::size_t fresh) {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = (key * 0x9e3779b97f4a7c15ull) >> shift_;; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.index == empty) {
        slot = {key, fresh};
        return fresh;
      }
      if (slot.key == key) return slot.index;
    }
  }

 private:
  static constexpr std::size_t empty = ~std::size_t{0};
  struct Slot {
    std::uint64_t key = 0;
    std::size_t index = empty;
  };
  std::vector<Slot> slots_;
  int shift_ = 60;
};

// A pass's levels and strata, kept from pass to pass for their memory.
template <int W>
struct Scratch {
  std::vector<Sampled<W>> level, next;
  Strata strata;
};

// One pass below the prefixes first..last-1 at a fixed target: its nodes by deepest home into
// `levels` (added), and their sum.
template <int W>
double sample_pass(const Plan& plan, std::size_t first, std::size_t last, int target,
                   std::mt19937_64& random, double* levels, Scratch<W>& scratch) {
  const backward::Problem problem = backward_problem(plan);
  const Deck<W> sorted = sorted_deck<W>(plan.n);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  // Plain references: clang before 16 cannot capture structured bindings in a lambda.
  auto& level = scratch.level;
  auto& next = scratch.next;
  Strata& strata = scratch.strata;
  next.clear();
  strata.clear(last - first);
  double total = 0;
  // Counts a node of weight w and, unless the search stops there, keeps it in its stratum.
  const auto add = [&](const backward::Node<W>& node, std::uint32_t moves, double w) {
    const int p = backward::deepest(moves);
    levels[p > 0 ? p - 1 : 0] += w;
    total += w;
    if (moves == 0) return;
    const int most = problem.prune == backward::Prune::none
                         ? target
                         : backward::bound(problem, node, moves, target);
    if (node.depth + most < target) return;
    const std::size_t at =
        strata.find_or_add(stratum(moves, node.depth, most, target), next.size());
    if (at == next.size()) {
      next.push_back({node, moves, w});
      return;
    }
    Sampled<W>& kept = next[at];
    kept.weight += w;
    if (uniform(random) * kept.weight < w) {
      kept.node = node;
      kept.moves = moves;
    }
  };
  for (std::size_t i = first; i < last; ++i) {
    std::uint32_t moves = 0;
    const backward::Node<W> node = prefix_node<W>(plan, i, &moves);
    add(node, moves, 1.0);
  }
  while (!next.empty()) {
    std::swap(level, next);
    next.clear();
    std::size_t children = 0;
    for (const Sampled<W>& s : level) children += std::popcount(s.moves);
    strata.clear(children);
    for (const Sampled<W>& s : level)
      for (std::uint32_t m = s.moves; m != 0; m &= m - 1) {
        backward::Node<W> child = s.node;
        const std::uint32_t moves =
            backward::descend(child, bits::trailing_zeros(m) + 1, sorted, plan.n);
        add(child, moves, s.weight);
      }
  }
  return total;
}

template <int W>
ChunkEstimate estimate_chunk(const Plan& plan, int chunk, int target, int passes,
                             std::uint64_t seed, double* per_level) {
  const std::size_t first = plan.chunk_begin(chunk), last = first + plan.chunk_prefixes(chunk);
  if (first == last || passes <= 0) return {};
  std::mt19937_64 random(seed * 0x9e3779b97f4a7c15ull + static_cast<std::uint64_t>(chunk));
  std::vector<double> levels(plan.n, 0.0);
  Scratch<W> scratch;
  double sum = 0, squares = 0;
  for (int i = 0; i < passes; ++i) {
    const double x = sample_pass<W>(plan, first, last, target, random, levels.data(), scratch);
    sum += x;
    squares += x * x;
  }
  for (int l = 0; l < plan.n; ++l) per_level[l] += levels[l] / passes;
  return ChunkEstimate::of_samples(sum, squares, passes, 1.0);
}

}  // namespace

ChunkEstimate estimate_backward_chunk(const Plan& plan, int chunk, int target, int passes,
                                      std::uint64_t seed, double* per_level) {
  return words_for(plan.n) == 2 ? estimate_chunk<2>(plan, chunk, target, passes, seed, per_level)
                                : estimate_chunk<3>(plan, chunk, target, passes, seed, per_level);
}

}  // namespace piles::topswops
