#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kernels/topswops_search.hpp"

namespace piles::topswops {

// A start deck and the deck its game ends in.
struct FoundGame {
  std::vector<int> deck, final_deck;
  auto operator<=>(const FoundGame&) const = default;
};

// What a piece of the search found: the longest game that reached its target, every deck of
// that length (count exact, list capped at max_decks), and its nodes per level. Merging is
// associative and commutative, so chunks may finish in any order on any engine or machine.
struct Partial {
  static constexpr std::size_t max_decks = 10000;

  int best = -1;  // -1: no game reached the target
  std::uint64_t count = 0;
  std::vector<FoundGame> decks;  // sorted, at most max_decks
  std::vector<std::uint64_t> nodes;

  // A game of `steps` steps that reached the target.
  void add(int steps, FoundGame game);
  void merge(const Partial& other);
  std::uint64_t total_nodes() const;
  bool decks_truncated() const { return decks.size() < count; }
  bool operator==(const Partial&) const = default;
};

// A device's chunk result as a Partial.
Partial partial_of(const gpu::TopswopsChunkResult& result);

// The journal payload of one chunk (the job driver adds the target and the time).
nlohmann::json partial_to_json(const Partial& partial);
// Inverse of partial_to_json; throws UsageError (naming `where`) on a malformed payload.
Partial partial_from_json(const nlohmann::json& payload, int n, const std::string& where);

}  // namespace piles::topswops
