#include "host/topswops/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <tuple>
#include <utility>

#include "host/common/error.hpp"
#include "host/topswops/backward.hpp"
#include "host/topswops/game_sink.hpp"
#include "host/topswops/published.hpp"

namespace piles::topswops {
namespace {

// Below this many prefixes (before pruning) the GPU could not keep its threads busy.
constexpr double wanted_prefixes = 1 << 20;

// Small searches get fewer chunks, each worth a journal line.
constexpr std::size_t min_chunk_prefixes = 16;

int choose_depth(int n) {
  int depth = 0;
  double prefixes = 1;
  while (prefixes < wanted_prefixes && depth < n - 1 - min_levels_below)
    prefixes *= n - 1 - depth++;
  return depth;
}

const int* known_values(Final final, std::size_t& size) {
  size = final == Final::sorted ? published::longest_sorted.size() : published::longest.size();
  return final == Final::sorted ? published::longest_sorted.data() : published::longest.data();
}

template <int W>
void expand(Plan& plan) {
  const std::vector<std::int32_t> table = plan.bounds_at(plan.start_target);
  const Problem problem = plan.problem(table);
  Deck<W> start;
  const Frame<W> root = replay<W>(problem, nullptr, 0, start);
  plan.top.nodes.assign(plan.n, 0);
  plan.top.nodes[0] = 1;
  GameSink<W> sink{plan.n, plan.top};
  std::uint8_t choices[max_n];
  expand_top(problem, root, 0, plan.depth, start, plan.start_target, plan.top.nodes.data(), sink,
             choices, [&](const std::uint8_t* path) {
               plan.choices.insert(plan.choices.end(), path, path + plan.depth);
               ++plan.prefix_count;
             });
}

}  // namespace

const char* final_name(Final final) {
  return final == Final::sorted ? "sorted" : "any";
}

int fibonacci_bound(int h) {
  std::int64_t a = 1, b = 1;  // F(1), F(2)
  for (int i = 2; i <= h; ++i) std::tie(a, b) = std::pair{b, a + b};
  return static_cast<int>(b - 1);
}

int bound_for(int h, Final final) {
  std::size_t known = 0;
  const int* values = known_values(final, known);
  if (static_cast<std::size_t>(h) < known) return values[h];
  if (static_cast<std::size_t>(h) < published::longest.size()) return published::longest[h];
  return fibonacci_bound(h);
}

int Plan::round_of(int chunk) const {
  for (int r = 0; r < warmup; ++r)
    if (chunk + 1 < (2 << r)) return r;
  return warmup;
}

std::vector<int> Plan::chunks_of_round(int round) const {
  const int first = (1 << round) - 1;
  const int last = round < warmup ? (2 << round) - 1 : chunk_count;
  std::vector<int> chunks;
  for (int c = first; c < std::min(last, chunk_count); ++c) chunks.push_back(c);
  return chunks;
}

std::vector<std::int32_t> Plan::bounds_at(int target) const {
  std::vector<std::int32_t> table = bound;
  if (tail.n != 0) table[n - 1] = std::min(table[n - 1], tail.cap(target));
  return table;
}

nlohmann::json Plan::identity() const {
  nlohmann::json id = {{"game", "topswops"},
                       {"n", n},
                       {"final", final_name(final)},
                       {"start_target", start_target},
                       {"depth", depth},
                       {"prefixes", prefix_count},
                       {"chunks", chunk_count},
                       {"warmup_rounds", warmup}};
  // The backward search's bound is the longest games of fewer cards; the forward one's, a bound
  // per depth. nlohmann::json sorts its keys, so the order here leaves identities as they were.
  const std::vector<std::int32_t> levels(bound.begin(), bound.end() - 1);
  if (backward) {
    id["search"] = fmt::format("backward-sorted/{}", backward_revision);
    id["prune"] = prune_name(*backward);
    id["longest"] = levels;
  } else {
    id["search"] = "knuth-forward/2";
    id["bound"] = levels;
  }
  // Plans without a tail keep the identity of the journals written before tails existed.
  if (tail.n != 0) id["tail"] = {{"from", tail.from}, {"longest", tail.longest}};
  if (!start_deck.empty()) id["start_deck"] = start_deck;
  if (!start_cut_by.empty()) id["quick_search_cut_by"] = start_cut_by;
  if (!start_grown_from.empty()) id["start_grown_from"] = start_grown_from;
  return id;
}

std::string Plan::options() const {
  std::string text;
  if (backward) text += fmt::format(" --engine backward --prune {}", prune_name(*backward));
  if (const std::optional<int> b = told_bound()) text += fmt::format(" --bound {}", *b);
  if (tail.n != 0)
    text += fmt::format(" --tail <the journals of topswops tail {} --from {}>", n, tail.from);
  return text;
}

int chunk_count_for(std::size_t prefixes) {
  return static_cast<int>(std::clamp<std::size_t>(prefixes / min_chunk_prefixes, 1, max_chunks));
}

namespace {

// The most rounds of 1, 2, 4, ... chunks that leave the last at least twice the one before, and
// never fewer than warmup_rounds: a plan of up to 510 chunks stays as it was.
int rounds_doubling_over(int chunks) {
  return std::max(warmup_rounds, static_cast<int>(std::bit_width(chunks + 1u)) - 2);
}

}  // namespace

Plan make_plan(int n, Final final, std::optional<int> bound, Tail tail, std::optional<int> warmup) {
  if (n < 1 || n > max_n) throw UsageError(fmt::format("n: {} is out of range (1..{})", n, max_n));
  if (bound && *bound < 0) throw UsageError(fmt::format("--bound: {} is negative", *bound));
  if (tail.n != 0 && tail.n != n)
    throw UsageError(fmt::format("--tail: the tail serves n = {}, not n = {}", tail.n, n));
  Plan plan;
  plan.n = n;
  plan.final = final;
  plan.tail = std::move(tail);
  plan.warmup = warmup.value_or(bound ? 0 : warmup_rounds);
  std::size_t known = 0;
  const int* values = known_values(final, known);
  plan.start_target = bound ? *bound : values[std::min<std::size_t>(n - 1, known - 1)];
  for (int h = 0; h < n; ++h) plan.bound.push_back(bound_for(h, final));
  plan.bound.push_back(fibonacci_bound(n));
  if (n == 1) {
    // The root is already a leaf: the one deck, no steps, in one chunk.
    if (plan.warmup == doubling_rounds) plan.warmup = rounds_doubling_over(plan.chunk_count);
    plan.top.nodes = {1};
    if (plan.start_target <= 0) plan.top.add(0, {{1}, {1}});
    return plan;
  }
  plan.depth = choose_depth(n);
  if (words_for(n) == 2)
    expand<2>(plan);
  else
    expand<3>(plan);
  plan.chunk_count = chunk_count_for(plan.prefix_count);
  if (plan.warmup == doubling_rounds) plan.warmup = rounds_doubling_over(plan.chunk_count);
  return plan;
}

}  // namespace piles::topswops
