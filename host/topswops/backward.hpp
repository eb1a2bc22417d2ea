#pragma once

// The backward search for the longest games ending sorted (core/topswops_backward.hpp) on the
// host: its plan, whose prefixes are paths of moves down from the sorted deck, and the search
// below a range of them. The job, journal and rounds are those of every Topswops plan (solve).

#include <optional>
#include <string>
#include <vector>

#include "core/topswops_backward.hpp"
#include "host/topswops/cpu_engine.hpp"
#include "host/topswops/partial.hpp"
#include "host/topswops/plan.hpp"

namespace piles::topswops {

const char* prune_name(backward::Prune prune);
// Throws UsageError unless `name` is a pruning rule's name.
backward::Prune parse_prune(const std::string& name);

// The sorted deck of n cards, the final deck of every game the backward search finds.
std::vector<int> sorted_cards(int n);

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
  return {plan.n, plan.bound.data(), *plan.backward,
          plan.split_steps.empty() ? nullptr : plan.split_steps.data()};
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

// The search below the plan's prefixes first..last-1 at `target`, on this thread.
Partial search_backward_prefixes(const Plan& plan, std::size_t first, std::size_t last, int target);

// run_chunks_cpu for a backward plan: the chunks' prefixes at `target` on `threads` threads,
// a busy search handing part of its subtree to a thread left idle (a prefix can hold a tenth of
// the whole search), the nodes shown as they go (`piece_done`, with prefixes 0 until a piece
// ends), `cancel` asked as pieces start and as they go. Returns how many times a search
// handed off part of its subtree.
std::size_t run_backward_chunks(const Plan& plan, const std::vector<int>& chunks, int target,
                                int threads, const ChunkDone& done,
                                const PieceDone& piece_done = {}, const Cancel& cancel = {});

}  // namespace piles::topswops
