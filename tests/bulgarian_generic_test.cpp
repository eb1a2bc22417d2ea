// The generic forward engine: equal to the backward and forward engines on the plain game, to
// the plain game for Multiplayer with one player, and to a plain brute force (every state
// followed to its cycle) for Carolina, Multiplayer and Austrian solitaire.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <vector>

#include "core/bulgarian_variants.hpp"
#include "host/bulgarian/analysis.hpp"
#include "host/bulgarian/variant_analysis.hpp"
#include "host/bulgarian/variants.hpp"
#include "host/common/error.hpp"
#include "tests/support/run_piles.hpp"
#include "tests/support/targets.hpp"

namespace piles::bulgarian {
namespace {

using State = std::vector<int>;
using piles::testing::run_piles;

using piles::testing::cpu;

// What analyze reports, found the slow way: the successor of every state in a map, a state is
// on a cycle when it comes back to itself, its depth is the moves to the first such state.
struct Brute {
  std::uint64_t states = 0, cycles = 0, garden_of_eden = 0;
  std::map<int, std::uint64_t> cycle_lengths;
  std::vector<std::uint64_t> histogram;
};

Brute brute_force(const std::vector<State>& all, const std::function<State(const State&)>& move) {
  std::map<State, State> succ;
  std::map<State, int> predecessors;
  for (const State& s : all) {
    succ[s] = move(s);
    ++predecessors[succ[s]];
  }
  Brute b;
  b.states = all.size();
  std::map<State, int> cycle_length;
  for (const State& s : all) {
    State t = succ.at(s);
    for (std::size_t steps = 1; steps <= all.size(); ++steps, t = succ.at(t))
      if (t == s) {
        cycle_length[s] = static_cast<int>(steps);
        break;
      }
  }
  for (const auto& [s, length] : cycle_length) b.cycle_lengths[length] += 1;
  for (auto& [length, count] : b.cycle_lengths) {
    count /= length;
    b.cycles += count;
  }
  for (const State& s : all) {
    b.garden_of_eden += predecessors.count(s) == 0;
    std::size_t depth = 0;
    for (State t = s; !cycle_length.count(t); t = succ.at(t)) ++depth;
    if (b.histogram.size() <= depth) b.histogram.resize(depth + 1);
    ++b.histogram[depth];
  }
  return b;
}

void expect_equal(const Analysis& a, const Brute& b) {
  EXPECT_EQ(a.partitions, b.states);
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.cycle_lengths, b.cycle_lengths);
  EXPECT_EQ(a.garden_of_eden, b.garden_of_eden);
  EXPECT_EQ(a.transient_histogram, b.histogram);
}

std::vector<State> compositions(int n) {
  std::vector<State> all;
  for (std::uint64_t mask = 0; mask < std::uint64_t{1} << (n - 1); ++mask) {
    State c = {1};
    for (int i = 0; i + 1 < n; ++i) {
      if (mask >> i & 1)
        c.push_back(1);
      else
        ++c.back();
    }
    all.push_back(c);
  }
  return all;
}

// Partitions of n into parts of at most max_part, largest first.
void partitions(int n, int max_part, State& prefix, std::vector<State>& out) {
  if (n == 0) out.push_back(prefix);
  for (int v = std::min(n, max_part); v >= 1; --v) {
    prefix.push_back(v);
    partitions(n - v, v, prefix, out);
    prefix.pop_back();
  }
}

std::vector<State> partitions(int n, int max_part) {
  std::vector<State> out;
  State prefix;
  partitions(n, max_part, prefix, out);
  return out;
}

TEST(BulgarianGeneric, EqualsBackwardAndForwardOnThePlainGame) {
  for (int n = 1; n <= 60; ++n) {
    SCOPED_TRACE(n);
    const Analysis g = analyze(n, Engine::generic, cpu());
    EXPECT_EQ(g.engine, Engine::generic);
    EXPECT_TRUE(g.same_structure(analyze(n, Engine::backward, cpu())));
    EXPECT_TRUE(g.same_structure(analyze(n, Engine::forward, cpu())));
  }
}

TEST(BulgarianGeneric, OneThreadOrMany) {
  const Analysis one = analyze_variant(14, parse_variant("carolina"), cpu(1));
  EXPECT_TRUE(one.same_structure(analyze_variant(14, parse_variant("carolina"), cpu(3))));
}

TEST(BulgarianGeneric, MultiplayerWithOnePlayerIsThePlainGame) {
  const Variant one = parse_variant("multiplayer:1");
  for (int n = 1; n <= 40; ++n) {
    SCOPED_TRACE(n);
    const Analysis m = analyze_variant(n, one, cpu());
    EXPECT_EQ(m.variant, "multiplayer:1");
    EXPECT_TRUE(m.same_structure(analyze(n, Engine::backward, cpu())));
  }
}

TEST(BulgarianGeneric, CarolinaMatchesBruteForce) {
  for (int n = 1; n <= 12; ++n) {
    SCOPED_TRACE(n);
    expect_equal(analyze_variant(n, parse_variant("carolina"), cpu()),
                 brute_force(compositions(n), [](const State& s) {
                   State out(s.size() + 1);
                   out.resize(carolina_move(s.data(), static_cast<int>(s.size()), out.data()));
                   return out;
                 }));
  }
}

TEST(BulgarianGeneric, MultiplayerMatchesBruteForce) {
  // Two and three players; a state is each player's number of piles, then the piles.
  for (const int players : {2, 3})
    for (int n = 1; n <= 9; ++n) {
      SCOPED_TRACE(::testing::Message() << players << " players, n = " << n);
      std::vector<State> all;
      std::function<void(int, int, State, State)> deal = [&](int p, int left, State lens,
                                                             State parts) {
        if (p == players) {
          if (left == 0) {
            lens.insert(lens.end(), parts.begin(), parts.end());
            all.push_back(lens);
          }
          return;
        }
        for (int cards = 0; cards <= left; ++cards)
          for (const State& hand : partitions(cards, cards)) {
            State l = lens, q = parts;
            l.push_back(static_cast<int>(hand.size()));
            q.insert(q.end(), hand.begin(), hand.end());
            deal(p + 1, left - cards, l, q);
          }
      };
      deal(0, n, {}, {});
      expect_equal(analyze_variant(n, parse_variant(fmt::format("multiplayer:{}", players)), cpu()),
                   brute_force(all, [&](const State& s) {
                     State out(s.size() + players);
                     multiplayer_move(s.data() + players, s.data(), players, out.data() + players,
                                      out.data());
                     int piles = 0;
                     for (int p = 0; p < players; ++p) piles += out[p];
                     out.resize(players + piles);
                     return out;
                   }));
    }
}

TEST(BulgarianGeneric, AustrianMatchesBruteForce) {
  for (const int limit : {1, 2, 3, 5})
    for (int n = 1; n <= 14; ++n) {
      SCOPED_TRACE(::testing::Message() << "L = " << limit << ", n = " << n);
      std::vector<State> all;
      for (int bank = 0; bank < limit && bank <= n; ++bank)
        for (State piles : partitions(n - bank, limit)) {
          piles.insert(piles.begin(), bank);
          all.push_back(piles);
        }
      expect_equal(analyze_variant(n, parse_variant(fmt::format("austrian:{}", limit)), cpu()),
                   brute_force(all, [&](const State& s) {
                     int bank = s[0];
                     const int len = static_cast<int>(s.size()) - 1;
                     State out(2 + len + (bank + len) / limit);
                     out.resize(1 + austrian_move(s.data() + 1, len, limit, bank, out.data() + 1));
                     out[0] = bank;
                     return out;
                   }));
    }
}

TEST(BulgarianGeneric, RefusesWhatItCannotRank) {
  EXPECT_THROW(analyze_variant(5, parse_variant("montreal"), cpu()), UsageError);
  EXPECT_THROW(analyze_variant(34, parse_variant("carolina"), cpu()), UsageError);
  EXPECT_THROW(analyze_variant(128, parse_variant("austrian:3"), cpu()), UsageError);
  EXPECT_THROW(analyze_variant(120, parse_variant("multiplayer:2"), cpu()), UsageError);
}

TEST(BulgarianGenericCli, AnalyzeVariantJson) {
  const auto r = run_piles("bulgarian analyze 10 --variant carolina --json --threads 2");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = r.json();
  for (const char* key : {"n", "partitions", "cycles", "cycle_lengths", "max_transient",
                          "max_transient_count", "garden_of_eden", "transient_histogram",
                          "conjecture_holds", "engine", "backend", "seconds", "variant"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["variant"], "carolina");
  EXPECT_EQ(j["partitions"], 512);
  EXPECT_EQ(j["engine"], "generic");
  EXPECT_TRUE(j["conjecture_holds"].is_null());
  const auto plain = run_piles("bulgarian analyze 12 --engine generic --json");
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_FALSE(plain.json().contains("variant"));
  EXPECT_EQ(plain.json()["conjecture_holds"], true);
}

TEST(BulgarianGenericCli, BadAnalyzeVariants) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"analyze 10 --variant montreal", "--variant montreal: the rows of n cards are no finite"},
      {"analyze 34 --variant carolina", "'34' is out of range (1..33)"},
      {"analyze 10 --variant carolina --engine backward",
       "--engine backward: --variant carolina runs the generic engine"},
      {"analyze 10 --variant austrian:3 --checkpoint x.jnl",
       "--variant austrian:3: --checkpoint, --shard"},
      {"analyze 100 --variant multiplayer:3", "beyond 32-bit ranks"},
      {"analyze 10 --variant austrian", "needs a parameter"},
  };
  for (const auto& [args, named] : cases)
    EXPECT_TRUE(piles::testing::is_usage_error(run_piles("bulgarian " + args), named)) << args;
}

}  // namespace
}  // namespace piles::bulgarian
