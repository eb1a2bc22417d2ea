#include "host/topswops/partial.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "host/common/error.hpp"
#include "host/common/json_integer.hpp"

namespace piles::topswops {

void Partial::add(int steps, FoundGame game) {
  if (steps < best) return;
  if (steps > best) {
    best = steps;
    count = 0;
    decks.clear();
  }
  ++count;
  // Keep the first max_decks in order, so that a capped list does not depend on the order in
  // which the games were found.
  decks.insert(std::lower_bound(decks.begin(), decks.end(), game), std::move(game));
  if (decks.size() > max_decks) decks.pop_back();
}

Partial partial_of(const gpu::TopswopsChunkResult& result) {
  Partial p;
  p.nodes = result.nodes;
  for (std::size_t i = 0; i < result.starts.size(); ++i)
    p.add(result.best, {result.starts[i], result.finals[i]});
  p.best = result.best;
  p.count = result.count;
  return p;
}

void Partial::merge(const Partial& other) {
  if (other.nodes.size() > nodes.size()) nodes.resize(other.nodes.size());
  for (std::size_t l = 0; l < other.nodes.size(); ++l) nodes[l] += other.nodes[l];
  if (other.best < best || other.best < 0) return;
  if (other.best > best) {
    best = other.best;
    count = 0;
    decks.clear();
  }
  count += other.count;
  std::vector<FoundGame> merged;
  merged.reserve(decks.size() + other.decks.size());
  std::merge(decks.begin(), decks.end(), other.decks.begin(), other.decks.end(),
             std::back_inserter(merged));
  if (merged.size() > max_decks) merged.resize(max_decks);
  decks = std::move(merged);
}

std::uint64_t Partial::total_nodes() const {
  return std::accumulate(nodes.begin(), nodes.end(), std::uint64_t{0});
}

nlohmann::json partial_to_json(const Partial& partial) {
  nlohmann::json decks = nlohmann::json::array();
  for (const FoundGame& g : partial.decks)
    decks.push_back({{"deck", g.deck}, {"final", g.final_deck}});
  return {
      {"best", partial.best}, {"count", partial.count}, {"decks", decks}, {"nodes", partial.nodes}};
}

namespace {

std::vector<int> read_deck(const nlohmann::json& j, int n, const std::string& where) {
  auto deck = json_integers<int>(j);
  std::vector<int> sorted = deck;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> expected(n);
  std::iota(expected.begin(), expected.end(), 1);
  if (sorted != expected)
    throw UsageError(fmt::format("{}: a deck is not a permutation of 1..{}", where, n));
  return deck;
}

}  // namespace

Partial partial_from_json(const nlohmann::json& payload, int n, const std::string& where) {
  Partial r;
  try {
    r.best = json_integer<int>(payload.at("best"));
    r.count = json_integer<std::uint64_t>(payload.at("count"));
    r.nodes = json_integers<std::uint64_t>(payload.at("nodes"));
    for (const auto& g : payload.at("decks"))
      r.decks.push_back({read_deck(g.at("deck"), n, where), read_deck(g.at("final"), n, where)});
  } catch (const nlohmann::json::exception& e) {
    throw UsageError(fmt::format("{}: malformed chunk result ({})", where, e.what()));
  }
  if (static_cast<int>(r.nodes.size()) != n || r.decks.size() > r.count ||
      r.decks.size() > Partial::max_decks || (r.best < 0 && r.count > 0) ||
      !std::is_sorted(r.decks.begin(), r.decks.end()))
    throw UsageError(fmt::format("{}: inconsistent chunk result", where));
  return r;
}

}  // namespace piles::topswops
