#include "host/topswops/tail_job.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <mutex>

#include "core/topswops.hpp"
#include "host/common/checkpoint.hpp"
#include "host/common/error.hpp"
#include "host/common/json_integer.hpp"
#include "host/common/parallel.hpp"
#include "host/common/progress.hpp"
#include "host/topswops/cpu_engine.hpp"
#include "host/topswops/play.hpp"
#include "kernels/topswops_search.hpp"

namespace piles::topswops {
namespace {

// What a chunk (or the whole job) found; merging takes the larger entry.
struct Counts {
  std::vector<int> any, sorted;
  std::uint64_t games = 0, decks = 0;
  std::vector<std::uint64_t> nodes;

  void merge(const Counts& o) {
    for (std::size_t i = 0; i < any.size(); ++i) {
      any[i] = std::max(any[i], o.any[i]);
      sorted[i] = std::max(sorted[i], o.sorted[i]);
    }
    games += o.games;
    decks += o.decks;
    for (std::size_t l = 0; l < nodes.size(); ++l) nodes[l] += o.nodes[l];
  }
};

// Entries of Tail::longest: one per game length from `from` to the longest game on n-1 cards.
Counts empty_counts(const Plan& plan) {
  const int size = std::max(0, bound_for(plan.n, Final::any) - plan.start_target + 1);
  return {std::vector<int>(size, -1), std::vector<int>(size, -1), 0, 0,
          std::vector<std::uint64_t>(plan.n, 0)};
}

nlohmann::json to_json(const Counts& c) {
  return {{"any", c.any},
          {"sorted", c.sorted},
          {"games", c.games},
          {"decks", c.decks},
          {"nodes", c.nodes}};
}

Counts counts_from_json(const Plan& plan, const nlohmann::json& payload, const std::string& where) {
  Counts c = empty_counts(plan);
  try {
    const auto any = json_integers<int>(payload.at("any"));
    const auto sorted = json_integers<int>(payload.at("sorted"));
    const auto nodes = json_integers<std::uint64_t>(payload.at("nodes"));
    if (any.size() != c.any.size() || sorted.size() != c.sorted.size() ||
        nodes.size() != c.nodes.size())
      throw UsageError(fmt::format("{}: a tail chunk of the wrong size", where));
    c.any = any;
    c.sorted = sorted;
    c.nodes = nodes;
    c.games = json_integer<std::uint64_t>(payload.at("games"));
    c.decks = json_integer<std::uint64_t>(payload.at("decks"));
  } catch (const nlohmann::json::exception& e) {
    throw UsageError(fmt::format("{}: malformed tail chunk ({})", where, e.what()));
  }
  return c;
}

// Every game the search lists has at least `from` steps: it and the decks along it, each with
// card n put under it, go into the counts.
template <int W>
struct TailSink {
  static constexpr bool every_game = true;
  int m, from;
  Counts& counts;

  void leaf(int steps, const Deck<W>& start, const Deck<W>& final_deck) {
    std::vector<int> cards = to_cards(start, m);
    cards.push_back(m + 1);
    const std::vector<int> final_cards = to_cards(final_deck, m);
    const bool ends_sorted = std::is_sorted(final_cards.begin(), final_cards.end());
    ++counts.games;
    for (int left = steps; left >= from; --left) {
      const int longest = left + longest_backward(cards);
      int& any = counts.any.at(left - from);
      any = std::max(any, longest);
      if (ends_sorted) {
        int& sorted = counts.sorted.at(left - from);
        sorted = std::max(sorted, longest);
      }
      ++counts.decks;
      std::reverse(cards.begin(), cards.begin() + cards[0]);
    }
  }
};

// One chunk, in pieces of piece_prefixes: before each it asks `cancel`, and throws Cancelled
// once that says so.
template <int W>
Counts search_chunk(const Plan& plan, int chunk, const Cancel& cancel) {
  const Problem problem = plan.problem(plan.bound);
  Counts counts = empty_counts(plan);
  TailSink<W> sink{plan.n, plan.start_target, counts};
  const std::size_t last = plan.chunk_begin(chunk + 1);
  for (std::size_t first = plan.chunk_begin(chunk); first < last; first += piece_prefixes) {
    if (cancelled(cancel)) throw Cancelled();
    search_prefix_range<W>(plan, problem, first, std::min(last, first + piece_prefixes),
                           plan.start_target, counts.nodes.data(), sink);
  }
  if (chunk == 0)
    for (std::size_t l = 0; l < plan.top.nodes.size(); ++l) counts.nodes[l] += plan.top.nodes[l];
  return counts;
}

nlohmann::json start_json(const TailStart& s) {
  return {{"from", s.from}, {"deck", s.deck}, {"steps", s.steps}, {"landed", s.landed}};
}

job::Job make_tail_job(const Plan& plan, int n, const TailStart& start) {
  job::Job j;
  j.identity = {{"game", "topswops"},
                {"search", "tail/1"},
                {"n", n},
                {"start", start_json(start)},
                {"bound", std::vector<std::int32_t>(plan.bound.begin(), plan.bound.end())},
                {"depth", plan.depth},
                {"prefixes", plan.prefix_count},
                {"chunks", plan.chunk_count}};
  j.chunk_count = static_cast<job::Chunk>(plan.chunk_count);
  j.rounds.emplace_back();
  for (int c = 0; c < plan.chunk_count; ++c) j.rounds.back().push_back(static_cast<job::Chunk>(c));
  j.start_target = plan.start_target;
  j.weight = [&plan](job::Chunk c) { return plan.chunk_prefixes(static_cast<int>(c)); };
  j.slice_floor = [](const RunTarget& run) {
    return static_cast<std::uint64_t>(run.threads) * piece_prefixes;
  };
  j.label = fmt::format("topswops tail n={}", n);
  // The share done in prefixes, the rate in the nodes the answer counts.
  j.unit = "nodes";
  j.measure = [](const nlohmann::json& payload) {
    std::uint64_t nodes = 0;
    for (const std::uint64_t level : json_integers<std::uint64_t>(payload.at("nodes")))
      nodes += level;
    return nodes;
  };
  j.check = [&plan](job::Chunk, const nlohmann::json& payload, const std::string& where) {
    counts_from_json(plan, payload, where);
  };
  j.run = [&plan](const std::vector<job::Chunk>& chunks, int, const RunTarget& run,
                  const job::ChunkDone& done, const UnitsDone&, const Cancel& cancel) {
    std::mutex mutex;
    const auto search = words_for(plan.n) == 2 ? search_chunk<2> : search_chunk<3>;
    parallel_for_each(static_cast<int>(chunks.size()), run.threads, [&](int i) {
      const auto begin = std::chrono::steady_clock::now();
      const Counts counts = search(plan, static_cast<int>(chunks[i]), cancel);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
      const std::lock_guard lock(mutex);
      done(chunks[i], to_json(counts), seconds);
    });
  };
  return j;
}

void check_tail_n(int n) {
  if (n < 3 || n > max_n)
    throw UsageError(fmt::format("n: {} is out of range for a tail (3..{})", n, max_n));
}

Plan tail_plan(int n, int from) {
  const int most = bound_for(n - 1, Final::any);
  if (from < 1 || from > most)
    throw UsageError(fmt::format("--from: {} is out of range (1..{}, the longest game on {} cards)",
                                 from, most, n - 1));
  return make_plan(n - 1, Final::any, from, {}, warmup_rounds);
}

TailResult make_result(const Plan& plan, int n, const TailStart& start,
                       const job::Outcome& outcome) {
  Counts total = empty_counts(plan);
  for (const auto& [chunk, record] : outcome.records)
    total.merge(counts_from_json(plan, record.payload, "chunk"));
  TailResult r;
  r.n = n;
  r.start = start;
  r.any = total.any;
  r.sorted = total.sorted;
  r.games = total.games;
  r.decks = total.decks;
  r.nodes = total.nodes;
  r.run = outcome.status;
  r.seconds = outcome.seconds;
  return r;
}

}  // namespace

int longest_backward(std::vector<int>& cards) {
  int longest = 0;
  for (int k = 2; k <= static_cast<int>(cards.size()); ++k) {
    if (cards[k - 1] != k) continue;
    std::reverse(cards.begin(), cards.begin() + k);
    longest = std::max(longest, 1 + longest_backward(cards));
    std::reverse(cards.begin(), cards.begin() + k);
  }
  return longest;
}

namespace {

// The n and start that a tail's journal names; UsageError when it is not a tail's.
void read_tail_identity(const std::string& file, int& n, TailStart& start) {
  job::read_identity(file, "topswops", [&](const nlohmann::json& p) {
    if (p.at("search") != "tail/1")
      throw UsageError(fmt::format("{}: not the journal of a tail (made by topswops tail)", file));
    n = json_integer<int>(p.at("n"));
    const nlohmann::json& s = p.at("start");
    start = {json_integer<int>(s.at("from")), json_integers<int>(s.at("deck")),
             json_integer<int>(s.at("steps")), json_integer<int>(s.at("landed"))};
  });
}

// A run resumed from its journal takes the start written there rather than searching chunk 0
// of the n-card search again (minutes from n = 17 on, at every restart of a batch job).
std::optional<TailStart> journal_start(const std::string& checkpoint, int n) {
  if (!journal_begun(checkpoint)) return std::nullopt;
  int journal_n = 0;
  TailStart start;
  read_tail_identity(checkpoint, journal_n, start);
  if (journal_n != n)
    throw UsageError(fmt::format("{}: the journal is of the tail for n = {}, not n = {}",
                                 checkpoint, journal_n, n));
  return start;
}

}  // namespace

TailStart choose_tail_start(int n, int threads, const ProgressStyle& style) {
  check_tail_n(n);
  const Plan plan = make_plan(n, Final::any, std::nullopt);
  Partial first;
  Progress progress(
      fmt::format("topswops tail n={}: its start, chunk 0 of the {}-card search", n, n),
      plan.chunk_prefixes(0), "prefixes", 0, style);
  run_chunks_cpu(
      plan, {0}, plan.start_target, threads, [&](int, const Partial& p, double) { first = p; },
      [&](std::size_t prefixes, std::uint64_t) { progress.add(prefixes); });
  progress.finish();
  const int floor = (3 * bound_for(n - 1, Final::any) + 3) / 4;
  if (first.decks.empty()) return {floor, {}, 0, 0};
  const Game game = play(first.decks.front().deck);
  for (int t = 0; t <= game.steps; ++t)
    if (game.trace[t][n - 1] == n)
      return {std::max(floor, game.steps - t), game.start, game.steps, t};
  return {floor, game.start, game.steps, 0};
}

TailResult run_tail(const TailOptions& options, const RunTarget& target) {
  check_tail_n(options.n);
  job::check_options(options.run);
  TailStart start;
  if (options.from)
    start = {*options.from, {}, 0, 0};
  else if (const auto journaled = journal_start(options.run.checkpoint, options.n))
    start = *journaled;
  else
    start = choose_tail_start(options.n, target.threads, job::progress_style(options.run));
  const Plan plan = tail_plan(options.n, start.from);
  TailResult r = make_result(plan, options.n, start,
                             job::run(make_tail_job(plan, options.n, start), options.run, target));
  r.target = target;
  return r;
}

namespace {

// What a tail's journal names: its n, its start and the plan its job runs on.
struct TailJournal {
  int n = 0;
  TailStart start;
  Plan plan;
};

TailJournal tail_journal(const std::string& journal) {
  TailJournal t;
  read_tail_identity(journal, t.n, t.start);
  check_tail_n(t.n);
  t.plan = tail_plan(t.n, t.start.from);
  return t;
}

}  // namespace

TailResult read_tail(const std::vector<std::string>& journals) {
  if (journals.empty()) throw UsageError("--tail: no journal files given");
  const TailJournal t = tail_journal(journals.front());
  TailResult r =
      make_result(t.plan, t.n, t.start, job::merge(make_tail_job(t.plan, t.n, t.start), journals));
  r.target.device = "merge";
  return r;
}

job::Survey survey_tail(const std::string& journal) {
  const TailJournal t = tail_journal(journal);
  return job::survey(make_tail_job(t.plan, t.n, t.start), journal);
}

}  // namespace piles::topswops
