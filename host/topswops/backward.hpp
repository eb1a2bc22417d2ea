#pragma once

// The backward search for the longest games ending sorted (core/topswops_backward.hpp) on the
// host: its plan, whose prefixes are paths of moves down from the sorted deck, and the search
// below a range of them. The job, journal and rounds are those of every Topswops plan (solve).

#include <optional>
#include <string>

#include "core/topswops_backward.hpp"
#include "host/topswops/partial.hpp"
#include "host/topswops/plan.hpp"

namespace piles::topswops {

const char* prune_name(backward::Prune prune);
// Throws UsageError unless `name` is a pruning rule's name.
backward::Prune parse_prune(const std::string& name);

// Throws UsageError unless the games end sorted, the only ones the backward search finds.
void check_backward_final(Final final);

// The plan of a backward search: the start target is --bound L, else the published value for
// n - 1 (a lower bound: card n under such a deck plays the same game); the table bound[p] is
// the published f(p) for p < n where known, else Knuth's Fibonacci bound. Throws UsageError for
// n outside 1..max_n or a negative bound.
// Its warm-up rounds as make_plan's.
Plan make_backward_plan(int n, std::optional<int> bound, backward::Prune prune,
                        std::optional<int> warmup = std::nullopt);

// The pruning problem of a backward plan; it points into the plan.
inline backward::Problem backward_problem(const Plan& plan) {
  return {plan.n, plan.bound.data(), *plan.backward};
}

// The node of a backward plan's prefix i, and its moves where `moves` is given.
template <int W>
backward::Node<W> prefix_node(const Plan& plan, std::size_t i, std::uint32_t* moves = nullptr) {
  const Deck<W> sorted = sorted_deck<W>(plan.n);
  backward::Node<W> node = backward::root<W>(plan.n);
  std::uint32_t m = 0;
  for (int j = 0; j < plan.depth; ++j)
    m = backward::descend(node, plan.choices[i * plan.depth + j], sorted, plan.n);
  if (moves) *moves = m;
  return node;
}

// The search below the plan's prefixes first..last-1, each from `target`.
Partial search_backward_prefixes(const Plan& plan, std::size_t first, std::size_t last, int target);

}  // namespace piles::topswops
