#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/deck.hpp"
#include "core/topswops.hpp"
#include "host/common/parallel.hpp"
#include "host/topswops/cpu_engine.hpp"
#include "host/topswops/game_sink.hpp"
#include "host/topswops/plan.hpp"
#include "host/topswops/play.hpp"
#include "host/topswops/published.hpp"
#include "host/topswops/tail_job.hpp"
#include "tests/support/targets.hpp"
#include "tests/support/topswops.hpp"

namespace ts = piles::topswops;
namespace published = piles::topswops::published;

namespace {

// A partial deck as the search sees it: known cards and blanks (blank_bit | start position).
template <int W>
ts::Deck<W> pack(const std::vector<int>& bytes) {
  ts::Deck<W> d{};
  for (std::size_t i = 0; i < bytes.size(); ++i) d.set(static_cast<int>(i), bytes[i]);
  return d;
}

template <int W>
std::vector<int> unpack(const ts::Deck<W>& d, int n) {
  std::vector<int> out(n);
  for (int i = 0; i < n; ++i) out[i] = d.at(i);
  return out;
}

// A random partial deck of n cards: card 1 is always blank, others blank with probability 1/2.
std::vector<int> random_partial(int n, std::mt19937& rng) {
  std::vector<int> cards(n);
  std::iota(cards.begin(), cards.end(), 1);
  std::shuffle(cards.begin(), cards.end(), rng);
  for (int i = 0; i < n; ++i)
    if (cards[i] == 1 || rng() % 2) cards[i] = static_cast<int>(ts::blank_bit) | (i + 1);
  return cards;
}

template <int W>
void check_flip_against_bytes(int n) {
  std::mt19937 rng(n);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<int> cards = random_partial(n, rng);
    for (int k = 2; k <= n; ++k) {
      // A flip of k whatever the top holds (the backward search's).
      std::vector<std::uint8_t> any_top(cards.begin(), cards.end());
      piles::deck::flip(any_top.data(), k);
      ts::Playing<W> by_k(pack<W>(cards));
      by_k.flip(k);
      ASSERT_EQ(unpack(by_k.deck(), n), std::vector<int>(any_top.begin(), any_top.end()))
          << "n " << n << " k " << k;
      cards[0] = k;  // a flip is of the top card's length
      std::vector<std::uint8_t> bytes(cards.begin(), cards.end());
      piles::deck::flip(bytes.data(), k);
      ts::Playing<W> playing(pack<W>(cards));
      playing.flip_top();
      const ts::Deck<W> d = playing.deck();
      ts::Deck<W> words = pack<W>(cards);
      ts::flip_words(words, k);  // the portable one, where the machine has its own
      ASSERT_EQ(unpack(d, n), std::vector<int>(bytes.begin(), bytes.end()))
          << "n " << n << " k " << k;
      ASSERT_EQ(unpack(words, n), unpack(d, n)) << "n " << n << " k " << k;
      for (int i = n; i < 8 * W; ++i) ASSERT_EQ(d.at(i), 0) << "bytes past the deck stay zero";
      ts::Deck<W> shifted = pack<W>(cards);  // the GPU's
      if constexpr (W == 2)
        ts::flip_two_words_by_shifts(shifted, k);
      else
        ts::flip_three_words_by_shifts(shifted, k);
      for (int j = 0; j < W; ++j) ASSERT_EQ(shifted.w[j], d.w[j]) << "n " << n << " k " << k;
      if constexpr (W == 2) {  // the lean GPU kernel's, by byte permutes
        ts::Deck<W> permuted = pack<W>(cards);
        ts::flip_two_words_by_permutes(permuted, ts::flip_selectors(k));
        for (int j = 0; j < W; ++j) ASSERT_EQ(permuted.w[j], d.w[j]) << "n " << n << " k " << k;
      }
    }
  }
}

// Straightforward versions of the packed helpers.
int unsettled_plain(const std::vector<int>& c) {
  int h = static_cast<int>(c.size());
  while (c[h - 1] == h) --h;
  return h;
}

// The smallest h with positions h+1..n holding cards h+1..n in any order, by definition.
int fixed_block_plain(const std::vector<int>& c) {
  const int n = static_cast<int>(c.size());
  for (int h = 0;; ++h) {
    bool fixed = true;
    for (int p = h; p < n; ++p) fixed = fixed && !(c[p] & ts::blank_bit) && c[p] > h;
    if (fixed) return h;
  }
}

bool in_place_plain(const std::vector<int>& c) {
  for (std::size_t i = 0; i < c.size(); ++i)
    if (!(c[i] & ts::blank_bit) && c[i] != static_cast<int>(i) + 1) return false;
  return true;
}

// One sequential search from the root, as Knuth's program runs it.
template <int W, bool Vector = true>
piles::testing::LongestGames<W> search_from_root(int n, bool sorted,
                                                 const std::vector<std::int32_t>& bound, int target,
                                                 std::vector<std::uint64_t>* nodes_out = nullptr) {
  const ts::Problem p{n, sorted, bound.data()};
  ts::Deck<W> start;
  const ts::Frame<W> root = ts::replay<W>(p, nullptr, 0, start);
  std::uint64_t nodes[ts::max_n] = {1};
  piles::testing::LongestGames<W> sink{n};
  if (n == 1)
    sink.leaf(0, ts::sorted_deck<W>(1), ts::sorted_deck<W>(1));
  else
    ts::search_below<Vector>(p, root, 0, start, target, nodes, sink);
  if (nodes_out) nodes_out->assign(nodes, nodes + n);
  return sink;
}

std::vector<std::int32_t> table(const int* values, int n) {
  std::vector<std::int32_t> t(values, values + n);
  t.push_back(ts::no_bound);
  return t;
}

struct BruteForce {
  int best = -1;
  std::set<std::pair<std::vector<int>, std::vector<int>>> decks;
};

// Every one of the n! decks played to the end.
BruteForce brute_force(int n, bool sorted_only) {
  std::vector<int> deck(n);
  std::iota(deck.begin(), deck.end(), 1);
  BruteForce r;
  do {
    const auto game = ts::play(deck);
    if (sorted_only && !game.ends_sorted) continue;
    if (game.steps > r.best) r.decks.clear(), r.best = game.steps;
    if (game.steps == r.best) r.decks.insert({deck, game.trace.back()});
  } while (std::next_permutation(deck.begin(), deck.end()));
  return r;
}

}  // namespace

TEST(TopswopsCore, PackedFlipMatchesByteFlip) {
  for (int n : {2, 5, 8, 9, 15, 16}) check_flip_against_bytes<2>(n);
  for (int n : {2, 7, 16, 17, 20, 23, 24}) check_flip_against_bytes<3>(n);
}

TEST(TopswopsCore, PackedHelpersMatchPlainOnes) {
  std::mt19937 rng(7);
  for (int n : {3, 9, 16, 17, 24}) {
    const ts::Deck<3> sorted = ts::sorted_deck<3>(n);
    for (int trial = 0; trial < 500; ++trial) {
      // A partial deck of m cards on top of the cards m+1..n in order.
      const int m = 1 + static_cast<int>(rng() % n);
      std::vector<int> c = random_partial(m, rng);
      for (int v = m + 1; v <= n; ++v) c.push_back(v);
      ASSERT_EQ(ts::unsettled(pack<3>(c), sorted), unsettled_plain(c));
      ASSERT_EQ(ts::known_in_place(pack<3>(c), sorted), in_place_plain(c));
      ASSERT_EQ(ts::Playing<3>(pack<3>(c)).fixed_block(n), fixed_block_plain(c));
      // The same cards m+1..n in a random order, with blanks among the cards above them.
      std::shuffle(c.begin() + m, c.end(), rng);
      ASSERT_EQ(ts::Playing<3>(pack<3>(c)).fixed_block(n), fixed_block_plain(c));
      if (n > 16) continue;
      // Two words: the machine's version (vector registers on x86) and the GPU's.
      ASSERT_EQ(ts::Playing<2>(pack<2>(c)).fixed_block(n), fixed_block_plain(c));
      ASSERT_EQ(ts::fixed_block_words(pack<2>(c), n), fixed_block_plain(c));
      ASSERT_EQ(ts::fixed_block_cover(pack<2>(c)), fixed_block_plain(c));
    }
  }
}

// The GPU's block by intervals, on every kind of deck: blanks anywhere or none (the whole
// deck can be a block then), every n a word holds, sorted runs at the bottom or not.
TEST(TopswopsCore, FixedBlockByIntervalsMatchesTheDefinition) {
  std::mt19937 rng(11);
  for (int n = 1; n <= ts::max_n; ++n) {
    for (int trial = 0; trial < 400; ++trial) {
      std::vector<int> c(n);
      std::iota(c.begin(), c.end(), 1);
      const int kept = static_cast<int>(rng() % (n + 1));  // cards n-kept+1..n in place
      std::shuffle(c.begin(), c.end() - kept, rng);
      const unsigned blank_in_8 = trial % 3 == 0 ? 0 : rng() % 8;
      for (int i = 0; i < n; ++i)
        if (rng() % 8 < blank_in_8) c[i] = static_cast<int>(ts::blank_bit) | (i + 1);
      ASSERT_EQ(ts::fixed_block_cover(pack<3>(c)), fixed_block_plain(c)) << "n " << n;
      if (n <= 16) ASSERT_EQ(ts::fixed_block_cover(pack<2>(c)), fixed_block_plain(c)) << "n " << n;
    }
  }
}

TEST(TopswopsCore, LongestGamesMatchPublishedValues) {
  for (int n = 1; n <= 12; ++n) {
    const auto r = search_from_root<2>(n, false, table(published::longest.data(), n),
                                       published::longest[n - 1]);
    EXPECT_EQ(r.best, published::longest[n]) << "n = " << n;
    EXPECT_EQ(static_cast<int>(r.decks.size()), published::longest_count[n]) << "n = " << n;
    for (const auto& [deck, final_deck] : r.decks) {
      const auto game = ts::play(deck);
      EXPECT_EQ(game.steps, r.best);
      EXPECT_EQ(game.trace.back(), final_deck);
    }
  }
}

TEST(TopswopsCore, SortedVariantMatchesPublishedValues) {
  for (int n = 1; n <= 12; ++n) {
    const auto r = search_from_root<2>(n, true, table(published::longest_sorted.data(), n),
                                       published::longest_sorted[n - 1]);
    EXPECT_EQ(r.best, published::longest_sorted[n]) << "n = " << n;
    EXPECT_EQ(static_cast<int>(r.decks.size()), published::longest_sorted_count[n]) << "n = " << n;
    for (const auto& [deck, final_deck] : r.decks) EXPECT_TRUE(ts::play(deck).ends_sorted);
  }
}

TEST(TopswopsCore, PrunedSearchAgreesWithEveryDeckPlayed) {
  for (int n = 1; n <= 9; ++n) {
    for (bool sorted : {false, true}) {
      const BruteForce all = brute_force(n, sorted);
      const int* values = sorted ? published::longest_sorted.data() : published::longest.data();
      const auto r = search_from_root<2>(n, sorted, table(values, n), 0);
      EXPECT_EQ(r.best, all.best) << "n = " << n << (sorted ? " sorted" : "");
      EXPECT_EQ(r.decks, all.decks) << "n = " << n << (sorted ? " sorted" : "");
    }
  }
}

TEST(TopswopsCore, OwnSmallerResultsAsBoundsGiveTheSameValues) {
  // The pruning table built from the search's own answers for fewer cards, not the
  // published one: the published values come out.
  std::vector<int> own = {0};
  for (int n = 1; n <= 11; ++n) {
    const auto r = search_from_root<2>(n, false, table(own.data(), n), own.back());
    own.push_back(r.best);
    EXPECT_EQ(r.best, published::longest[n]) << "n = " << n;
  }
}

TEST(TopswopsCore, ThreeWordDeckSearchesLikeTwoWordDeck) {
  for (int n : {7, 10, 11}) {
    const auto bound = table(published::longest.data(), n);
    std::vector<std::uint64_t> nodes2, nodes3;
    const auto a = search_from_root<2>(n, false, bound, published::longest[n - 1], &nodes2);
    const auto b = search_from_root<3>(n, false, bound, published::longest[n - 1], &nodes3);
    EXPECT_EQ(a.best, b.best);
    EXPECT_EQ(a.decks, b.decks);
    EXPECT_EQ(nodes2, nodes3);
  }
}

// PILES_CPU_PATH=portable: the packed words where the machine has its vector register.
TEST(TopswopsCore, PortablePathSearchesLikeTheVectorPath) {
  for (bool sorted : {false, true})
    for (int n = 4; n <= 12; ++n) {
      const int* values = sorted ? published::longest_sorted.data() : published::longest.data();
      const auto bound = table(values, n);
      std::vector<std::uint64_t> vector_nodes, portable_nodes;
      const auto a = search_from_root<2, true>(n, sorted, bound, values[n - 1], &vector_nodes);
      const auto b = search_from_root<2, false>(n, sorted, bound, values[n - 1], &portable_nodes);
      EXPECT_EQ(a.best, values[n]) << "n = " << n;
      EXPECT_EQ(a.best, b.best) << "n = " << n;
      EXPECT_EQ(a.decks, b.decks) << "n = " << n;
      EXPECT_EQ(vector_nodes, portable_nodes) << "n = " << n;
    }
}

// The same, chunk by chunk as the engine runs them (so any shard and any merge of chunks
// agrees too): both finals, n = 8..13, plans with and without a tail, every chunk's partial
// (best, count, decks and nodes per level) equal on the two paths.
TEST(TopswopsCore, PortablePathGivesEveryChunkOfThePlans) {
  auto expect_same_chunks = [](const ts::Plan& plan, const std::string& what) {
    const std::vector<std::int32_t> table = plan.bounds_at(plan.start_target);
    const ts::Problem problem = plan.problem(table);
    std::vector<ts::Partial> vector_path(plan.chunk_count), portable_path(plan.chunk_count);
    auto search = [&]<bool Vector>(int chunk, ts::Partial& partial) {
      std::uint64_t nodes[ts::max_n] = {};
      ts::GameSink<2> sink{plan.n, partial};
      ts::search_prefixes_on<Vector, 2>(plan, problem, plan.chunk_begin(chunk),
                                        plan.chunk_begin(chunk + 1), plan.start_target, nodes,
                                        sink);
      partial.nodes.assign(nodes, nodes + plan.n);
    };
    piles::parallel_for_each(plan.chunk_count, 2, [&](int chunk) {
      search.template operator()<true>(chunk, vector_path[chunk]);
      search.template operator()<false>(chunk, portable_path[chunk]);
    });
    std::uint64_t nodes = 0;
    for (int chunk = 0; chunk < plan.chunk_count; ++chunk) {
      ASSERT_EQ(vector_path[chunk], portable_path[chunk]) << what << ", chunk " << chunk;
      nodes += vector_path[chunk].total_nodes();
    }
    EXPECT_GT(nodes, 0u) << what;
  };
  for (ts::Final final : {ts::Final::any, ts::Final::sorted})
    for (int n = 8; n <= (final == ts::Final::any ? 13 : 12); ++n)
      expect_same_chunks(ts::make_plan(n, final, std::nullopt), "n = " + std::to_string(n));
  for (int n : {11, 12}) {
    ts::TailOptions o;
    o.n = n;
    o.run.quiet = true;
    const ts::TailResult tail = ts::run_tail(o, piles::testing::cpu(2));
    for (ts::Final final : {ts::Final::any, ts::Final::sorted})
      expect_same_chunks(ts::make_plan(n, final, std::nullopt, tail.tail(final)),
                         "tailed n = " + std::to_string(n));
  }
}

// From 17 cards on the vector path keeps a deck in two registers. Below single prefixes of 17
// cards (from 110: games found) and 18 (from 191) it searches node for node as the portable
// path does, and the prefix whose choices agree with f(18)'s one deck (Kimura et al.) gives
// that deck in 191 steps.
TEST(TopswopsCore, TwoRegisterDecksSearchLikeThePortablePath) {
  const std::vector<int> f18 = {6, 14, 9, 2, 15, 8, 1, 3, 4, 12, 18, 5, 10, 13, 16, 17, 11, 7};
  auto search = [&]<bool Vector>(const ts::Plan& plan, std::size_t prefix) {
    const std::vector<std::int32_t> table = plan.bounds_at(plan.start_target);
    ts::Partial partial;
    std::uint64_t nodes[ts::max_n] = {};
    ts::GameSink<3> sink{plan.n, partial};
    ts::search_prefixes_on<Vector, 3>(plan, plan.problem(table), prefix, prefix + 1,
                                      plan.start_target, nodes, sink);
    partial.nodes.assign(nodes, nodes + plan.n);
    return partial;
  };
  const ts::Plan plan17 = ts::make_plan(17, ts::Final::any, 110);
  for (int chunk : {1000, 3000}) {
    const std::size_t prefix = plan17.chunk_begin(chunk);
    const ts::Partial vector_path = search.template operator()<true>(plan17, prefix);
    EXPECT_GE(vector_path.best, 110) << "chunk " << chunk;
    EXPECT_EQ(vector_path, search.template operator()<false>(plan17, prefix)) << "chunk " << chunk;
  }

  const ts::Plan plan18 = ts::make_plan(18, ts::Final::any, 191);
  const std::vector<std::int32_t> table = plan18.bounds_at(191);
  std::size_t holding = plan18.prefix_count;
  for (std::size_t i = 0; i < plan18.prefix_count && holding == plan18.prefix_count; ++i) {
    ts::Deck<3> start;
    ts::replay<3>(plan18.problem(table), plan18.choices.data() + i * plan18.depth, plan18.depth,
                  start);
    bool agrees = true;
    for (int j = 0; j < 18; ++j) agrees &= start.at(j) == 0 || start.at(j) == f18[j];
    if (agrees) holding = i;
  }
  ASSERT_LT(holding, plan18.prefix_count);
  const ts::Partial vector_path = search.template operator()<true>(plan18, holding);
  EXPECT_EQ(vector_path, search.template operator()<false>(plan18, holding));
  EXPECT_EQ(vector_path.best, 191);
  ASSERT_EQ(vector_path.decks.size(), 1u);
  EXPECT_EQ(vector_path.decks[0].deck, f18);
}

TEST(TopswopsCore, NodesPerLevelAtMostKnuthsProgram) {
  // Knuth's topswops-fwd with its table entry for 12 cards at f(12) = 65 visits these nodes
  // per level. Every node it prunes is pruned here too (its settled run at the bottom is one
  // case of a block in any order, checked no later than at the node), the order of search
  // is the same, so no level may hold more.
  const std::vector<std::uint64_t> knuth = {1,      10,     90,      680,     4363,    23787,
                                            107228, 385312, 1049111, 2147014, 3376218, 2900165};
  std::vector<std::uint64_t> nodes;
  const auto r = search_from_root<2>(12, false, table(published::longest.data(), 12), 65, &nodes);
  EXPECT_EQ(r.best, 65);
  ASSERT_EQ(nodes.size(), knuth.size());
  for (std::size_t l = 0; l < knuth.size(); ++l) EXPECT_LE(nodes[l], knuth[l]) << "level " << l;
}
