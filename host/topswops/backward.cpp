#include "host/topswops/backward.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "host/common/error.hpp"
#include "host/topswops/published.hpp"
#include "kernels/topswops_search.hpp"

namespace piles::topswops {
namespace {

// Enough prefixes for CPU threads to balance uneven subtrees, and a cap on their length.
constexpr std::size_t wanted_prefixes = 1 << 16;
constexpr int max_prefix_depth = 48;

// Every deck of at least the target into a Partial, as the start of a game ending sorted.
struct SortedSink {
  int n;
  Partial& partial;
  std::vector<int> sorted;

  template <int W>
  void game(int steps, const Deck<W>& deck) {
    if (steps >= partial.best) partial.add(steps, {to_cards(deck, n), sorted});
  }
};

std::vector<int> sorted_cards(int n) {
  std::vector<int> cards(n);
  std::iota(cards.begin(), cards.end(), 1);
  return cards;
}

// The levels above the prefixes, pruned at the start target: counts the nodes at `depth` (the
// prefixes), and with `plan_top` records them and the nodes above them in the plan.
template <int W>
struct TopWalk {
  Plan& plan;
  int depth;
  bool plan_top;
  backward::Problem problem = backward_problem(plan);
  Deck<W> sorted = sorted_deck<W>(plan.n);
  std::size_t prefixes = 0;
  std::uint8_t path[max_prefix_depth] = {};

  void walk(const backward::Node<W>& node, std::uint32_t moves) {
    if (node.depth == depth) {
      ++prefixes;
      if (plan_top) plan.choices.insert(plan.choices.end(), path, path + depth);
      return;
    }
    const int p = backward::deepest(moves);
    if (plan_top) {
      ++plan.top.nodes[p > 0 ? p - 1 : 0];
      if (node.depth >= plan.start_target)
        plan.top.add(node.depth, {to_cards(node.deck, plan.n), sorted_cards(plan.n)});
    }
    if (backward::pruned(problem, node, moves, plan.start_target, true)) return;
    for (std::uint32_t m = moves; m != 0; m &= m - 1) {
      backward::Node<W> child = node;
      path[node.depth] = static_cast<std::uint8_t>(bits::trailing_zeros(m) + 1);
      walk(child, backward::descend(child, path[node.depth], sorted, plan.n));
    }
  }
};

template <int W>
std::size_t walk_top(Plan& plan, int depth, bool plan_top) {
  TopWalk<W> walk{plan, depth, plan_top};
  const backward::Node<W> root = backward::root<W>(plan.n);
  walk.walk(root, backward::homes(root.deck, walk.sorted, plan.n));
  return walk.prefixes;
}

// The shallowest level with enough prefixes (or none left below it), then the plan's top.
template <int W>
void expand(Plan& plan) {
  plan.depth = 1;
  for (std::size_t count = walk_top<W>(plan, 1, false);
       count > 0 && count < wanted_prefixes && plan.depth < max_prefix_depth;)
    count = walk_top<W>(plan, ++plan.depth, false);
  plan.top.nodes.assign(plan.n, 0);
  plan.prefix_count = walk_top<W>(plan, plan.depth, true);
}

template <int W>
Partial search_prefixes(const Plan& plan, std::size_t first, std::size_t last, int target) {
  const backward::Problem problem = backward_problem(plan);
  Partial partial;
  std::uint64_t nodes[max_n] = {};
  SortedSink sink{plan.n, partial, sorted_cards(plan.n)};
  for (std::size_t i = first; i < last; ++i)
    backward::search(problem, prefix_node<W>(plan, i), target, nodes, sink);
  partial.nodes.assign(nodes, nodes + plan.n);
  return partial;
}

}  // namespace

const char* prune_name(backward::Prune prune) {
  switch (prune) {
    case backward::Prune::none:
      return "none";
    case backward::Prune::home:
      return "home";
    case backward::Prune::split:
      return "split";
    case backward::Prune::play:
      break;
  }
  return "play";
}

backward::Prune parse_prune(const std::string& name) {
  for (auto prune : {backward::Prune::none, backward::Prune::home, backward::Prune::split,
                     backward::Prune::play})
    if (name == prune_name(prune)) return prune;
  throw UsageError(fmt::format("prune: '{}' is not none, home, split or play", name));
}

void check_backward_final(Final final) {
  if (final != Final::sorted)
    throw UsageError(
        "--engine backward: it searches back from the sorted deck, so only games ending sorted "
        "(add --final sorted)");
}

Plan make_backward_plan(int n, std::optional<int> bound, backward::Prune prune,
                        std::optional<int> warmup) {
  if (n < 1 || n > max_n) throw UsageError(fmt::format("n: {} is out of range (1..{})", n, max_n));
  if (bound && *bound < 0) throw UsageError(fmt::format("--bound: {} is negative", *bound));
  Plan plan;
  plan.n = n;
  plan.final = Final::sorted;
  plan.backward = prune;
  plan.warmup = warmup.value_or(bound ? 0 : warmup_rounds);
  const auto& known = published::longest_sorted;
  plan.start_target = bound ? *bound : known[std::min<std::size_t>(n - 1, known.size() - 1)];
  for (int p = 0; p < n; ++p) plan.bound.push_back(bound_for(p, Final::any));
  plan.bound.push_back(fibonacci_bound(n));
  if (words_for(n) == 2)
    expand<2>(plan);
  else
    expand<3>(plan);
  plan.chunk_count = chunk_count_for(plan.prefix_count);
  return plan;
}

Partial search_backward_prefixes(const Plan& plan, std::size_t first, std::size_t last,
                                 int target) {
  return words_for(plan.n) == 2 ? search_prefixes<2>(plan, first, last, target)
                                : search_prefixes<3>(plan, first, last, target);
}

}  // namespace piles::topswops
