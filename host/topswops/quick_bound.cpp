#include "host/topswops/quick_bound.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>

#include "core/topswops.hpp"
#include "host/common/error.hpp"
#include "host/common/parallel.hpp"
#include "host/topswops/grow.hpp"
#include "host/topswops/play.hpp"

namespace piles::topswops {
namespace {

using Clock = std::chrono::steady_clock;

// The first round's beam width is 2^first_width_log; widths double every round up to the cap,
// which keeps a forward beam's buffers (the larger) near 250 MB.
constexpr int first_width_log = 10;
constexpr int max_width_log = 20;

// A deck on the way back from the final deck: position i holds card cards[i], or 0 while that
// card is not fixed yet (any final: the cards under card 1 are chosen as moves need them).
// `free` has bit v for every card v not placed yet.
struct Node {
  std::array<std::uint8_t, max_n> cards;
  std::uint32_t free;
};

// A child of a beam node: the predecessor of beam[parent] by a flip of k, ranked by key (its
// score above random bits that break ties).
struct Candidate {
  std::uint64_t key;
  std::uint32_t parent;
  std::uint32_t k;
};

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

bool can_undo(const Node& d, int k) {
  const int card = d.cards[k - 1];
  return card == k || (card == 0 && (d.free >> k & 1));
}

// The predecessor of d by a flip of k (can_undo(d, k)): card k put in place if it was not, then
// the top k cards reversed.
Node undo(const Node& d, int k) {
  Node p = d;
  p.cards[k - 1] = static_cast<std::uint8_t>(k);
  p.free &= ~(1u << k);
  std::reverse(p.cards.begin(), p.cards.begin() + k);
  return p;
}

// The beam keeps the decks with the most ways to go on: their backward moves, plus the cards
// still open (each can be fixed where a later move needs it; sorted finals have none). Counting
// the open cards found f(14..16) several times sooner (results/bench/quick_bound.md).
int score(const Node& d, int n) {
  int count = std::popcount(d.free);
  for (int k = 2; k <= n; ++k) count += can_undo(d, k);
  return count;
}

// The start deck of a game found: cards not fixed yet go to the open positions in order (no
// move ever read them, so the game is the same).
std::vector<int> start_deck(const Node& d, int n) {
  std::vector<int> deck(d.cards.begin(), d.cards.begin() + n);
  std::uint32_t free = d.free;
  for (int& card : deck)
    if (card == 0) {
      card = bits::trailing_zeros32(free);
      free &= free - 1;
    }
  return deck;
}

// The root of the backward search: the sorted deck, or card 1 on top of open positions.
Node final_deck(int n, Final final) {
  Node root{};
  root.cards[0] = 1;
  if (final == Final::sorted) {
    for (int i = 0; i < n; ++i) root.cards[i] = static_cast<std::uint8_t>(i + 1);
  } else {
    root.free = ((1u << (n + 1)) - 1) & ~3u;
  }
  return root;
}

// When a beam ends early: the search's deadline passed, a beam reached stop_at, or the caller
// asked to stop (its --time-limit, a SIGTERM).
struct Halt {
  Clock::time_point deadline;
  std::atomic<bool>& stop;
  const Cancel& cancel;
  std::atomic<bool>& was_cancelled;

  bool now() const {
    if (stop.load(std::memory_order_relaxed) || Clock::now() >= deadline) return true;
    if (!cancelled(cancel)) return false;
    was_cancelled = true;
    return true;
  }
};

struct BeamResult {
  std::vector<int> deck;
  int steps = 0;
  double seconds = 0;
};

// One beam of `width` from the final deck (sorted, or card 1 on top and the rest open), level by
// level until no deck has a predecessor or `halt` says so.
BeamResult run_beam(int n, Final final, std::size_t width, std::uint64_t seed,
                    Clock::time_point start, const Halt& halt) {
  const Node root = final_deck(n, final);
  std::vector<Node> beam{root}, next;
  std::vector<Candidate> candidates;
  BeamResult result{start_deck(root, n), 0, 0};
  beam.reserve(width);
  next.reserve(width);
  candidates.reserve(2 * width + max_n);
  const auto by_key = [](const Candidate& a, const Candidate& b) { return a.key > b.key; };
  // Keeps the `width` best candidates once there are twice as many, so memory stays bounded.
  const auto trim = [&] {
    std::nth_element(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(width),
                     candidates.end(), by_key);
    candidates.resize(width);
  };
  for (int level = 1; !halt.now(); ++level) {
    candidates.clear();
    for (std::uint32_t i = 0; i < beam.size(); ++i)
      for (int k = 2; k <= n; ++k) {
        if (!can_undo(beam[i], k)) continue;
        const Node p = undo(beam[i], k);
        const std::uint64_t noise =
            mix(seed ^ mix(static_cast<std::uint64_t>(level) << 40 ^ std::uint64_t{i} << 8 ^ k)) >>
            32;
        candidates.push_back({static_cast<std::uint64_t>(score(p, n)) << 32 | noise, i,
                              static_cast<std::uint32_t>(k)});
        if (candidates.size() >= 2 * width) trim();
      }
    if (candidates.empty()) break;
    if (candidates.size() > width) trim();
    next.clear();
    for (const Candidate& c : candidates) next.push_back(undo(beam[c.parent], c.k));
    beam.swap(next);
    result = {start_deck(beam.front(), n), level,
              std::chrono::duration<double>(Clock::now() - start).count()};
  }
  return result;
}

// Forward beam over Knuth's tree (core/topswops.hpp): level l holds the `width` nodes with l
// cards chosen that played the most steps, each pruned against `target` as the exact search
// prunes; a leaf is a whole game.
template <int W>
BeamResult run_forward_beam(int n, Final final, std::size_t width, std::uint64_t seed, int target,
                            Clock::time_point start, const Halt& halt) {
  std::vector<std::int32_t> table;
  for (int h = 0; h < n; ++h) table.push_back(bound_for(h, final));
  table.push_back(fibonacci_bound(n));
  const Problem p{n, final == Final::sorted, table.data()};
  const Deck<W> sorted = sorted_deck<W>(n);
  struct Item {
    std::uint64_t key;
    Frame<W> frame;
    Deck<W> start;
  };
  std::vector<Item> beam{{0, root_frame<W>(n), Deck<W>{}}}, next;
  BeamResult result;
  const auto by_key = [](const Item& a, const Item& b) { return a.key > b.key; };
  const auto trim = [&] {
    std::nth_element(next.begin(), next.begin() + static_cast<std::ptrdiff_t>(width), next.end(),
                     by_key);
    next.resize(width);
  };
  std::uint64_t nodes[max_n] = {};
  for (int level = 0; level < n - 1 && !beam.empty(); ++level) {
    if (halt.now()) break;
    next.clear();
    for (std::size_t i = 0; i < beam.size(); ++i) {
      Frame<W> f = beam[i].frame;
      open_choices(f);
      prune_choices(f, p, target);
      while (f.todo) {
        const int k = bits::trailing_zeros32(f.todo);
        f.todo &= f.todo - 1;
        Item c{};
        if (!play_choice(f, k, p, target, sorted, c.frame)) continue;
        c.start = beam[i].start;
        record_choice(c.start, f, k);
        if (ends_game(p, c.frame, level + 1, sorted, target, nodes) &&
            c.frame.steps > result.steps) {
          Deck<W> full = c.start;
          settle_blanks(c.frame.deck, full, n);
          result.deck.assign(n, 0);
          for (int j = 0; j < n; ++j) result.deck[j] = full.at(j);
          result.steps = c.frame.steps;
          result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
          target = result.steps + 1;
        }
        const std::uint64_t noise =
            mix(seed ^ mix(static_cast<std::uint64_t>(level) << 40 ^ i << 8 ^ k)) >> 40;
        c.key = static_cast<std::uint64_t>(c.frame.steps) << 24 | noise;
        next.push_back(c);
        if (next.size() >= 2 * width) trim();
      }
    }
    if (next.size() > width) trim();
    beam.swap(next);
  }
  return result;
}

// The longest game grown from the published trunks, one trunk a thread at a time.
LongGame grow_published(int n, Final final, int threads, Clock::time_point start,
                        const Halt& halt) {
  std::vector<std::vector<int>> trunks = published_longest_decks(n - 1);
  if (final == Final::sorted)
    std::erase_if(trunks, [](const std::vector<int>& deck) { return !play(deck).ends_sorted; });
  std::vector<GrownGame> grown(trunks.size());
  std::vector<double> seconds(trunks.size());
  parallel_for_each(static_cast<int>(trunks.size()), threads, [&](int i) {
    grown[i] = grow_game(trunks[i], grow_budget, [&] { return halt.now(); });
    seconds[i] = std::chrono::duration<double>(Clock::now() - start).count();
  });
  LongGame best;
  for (std::size_t i = 0; i < trunks.size(); ++i)
    if (grown[i].steps > best.steps)
      best = {grown[i].deck, grown[i].steps, seconds[i], false, trunks[i]};
  return best;
}

}  // namespace

LongGame find_long_game(const QuickBoundOptions& options) {
  const int n = options.n;
  if (n < 1 || n > max_n) throw UsageError(fmt::format("n: {} is out of range (1..{})", n, max_n));
  if (options.threads < 1)
    throw UsageError(fmt::format("threads: {} (at least 1)", options.threads));
  if (!(options.seconds >= 0))
    throw UsageError(fmt::format("seconds: {} is negative", options.seconds));
  if (options.max_rounds < 0)
    throw UsageError(fmt::format("max_rounds: {} is negative", options.max_rounds));
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(std::min(options.seconds, 1e9)));
  std::atomic<bool> stop{false}, was_cancelled{false};
  const Halt halt{deadline, stop, options.cancel, was_cancelled};
  LongGame best;
  best.deck = start_deck(final_deck(n, options.final), n);
  if (options.grow) {
    LongGame grown = grow_published(n, options.final, options.threads, start, halt);
    if (grown.steps > best.steps) best = std::move(grown);
    if (options.stop_at && best.steps >= *options.stop_at) stop = true;
  }
  for (int round = 0; !halt.now() && (options.max_rounds == 0 || round < options.max_rounds);
       ++round) {
    const std::size_t width = std::size_t{1} << std::min(first_width_log + round, max_width_log);
    std::vector<BeamResult> results(options.threads);
    parallel_for_each(options.threads, options.threads, [&](int t) {
      const std::uint64_t seed =
          mix(options.seed ^ mix(static_cast<std::uint64_t>(round) << 32 | t));
      const int target = best.steps + 1;
      if ((round * options.threads + t) % 2 == 1)
        results[t] = run_beam(n, options.final, width, seed, start, halt);
      else if (words_for(n) == 2)
        results[t] = run_forward_beam<2>(n, options.final, width, seed, target, start, halt);
      else
        results[t] = run_forward_beam<3>(n, options.final, width, seed, target, start, halt);
      if (options.stop_at && results[t].steps >= *options.stop_at) stop = true;
    });
    const int before = best.steps;
    for (const BeamResult& r : results)
      if (r.steps > best.steps) best = {r.deck, r.steps, r.seconds, false, {}};
    if (halt.now()) break;
    if (options.stall_floor && best.steps == before &&
        std::chrono::duration<double>(Clock::now() - start).count() >= *options.stall_floor)
      break;
  }
  best.cancelled = was_cancelled;
  return best;
}

}  // namespace piles::topswops
