#include "host/topswops/backward.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <numeric>

#include "host/common/error.hpp"
#include "host/topswops/published.hpp"
#include "kernels/topswops_search.hpp"

namespace piles::topswops {
namespace {

// Enough prefixes for CPU threads to balance uneven subtrees, and a cap on their length.
constexpr std::size_t wanted_prefixes = 1 << 16;
constexpr int max_prefix_depth = 48;

// Every deck of at least the target into a Partial, as the start of a game ending sorted; it
// never shares its search.
struct SortedSink {
  int n;
  Partial& partial;
  std::vector<int> sorted = sorted_cards(n);

  template <int W>
  void game(int steps, const Deck<W>& deck) {
    if (steps >= partial.best) partial.add(steps, {to_cards(deck, n), sorted});
  }
  static constexpr bool shares = false;
  backward::Poll poll() const { return backward::Poll::go; }
};

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
    if (backward::pruned(problem, node, moves, plan.start_target)) return;
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
  SortedSink sink{plan.n, partial};
  for (std::size_t i = first; i < last; ++i) {
    backward::Cursor<W> at = backward::cursor_at(prefix_node<W>(plan, i));
    backward::search(problem, at, target, nodes, sink);
  }
  partial.nodes.assign(nodes, nodes + plan.n);
  return partial;
}

// A search polls its team every this many nodes (about a third of a millisecond of a thread),
// so an idle thread soon gets work, and every `report_every` polls it shows its nodes and asks
// whether to stop (about a tenth of a second).
constexpr std::uint64_t poll_every = 1 << 14;
constexpr std::uint64_t report_every = 1 << 8;

// Threads searching a slice's chunks: their prefixes in order, then what busy searches hand
// off to threads left idle (Poll::share), so that no heavy prefix keeps one thread working
// while the others wait. Every piece searches at the slice's target, so a chunk's counts are
// the same however it was shared out.
template <int W>
class Team {
 public:
  Team(const Plan& plan, const std::vector<int>& chunks, int target, const ChunkDone& done,
       const PieceDone& piece_done, const Cancel& cancel)
      : plan_(plan),
        problem_(backward_problem(plan)),
        chunks_(chunks),
        target_(target),
        done_(done),
        piece_done_(piece_done),
        cancel_(cancel),
        state_(chunks.size()) {
    for (std::size_t s = 0; s < chunks.size(); ++s) {
      const std::size_t first = plan.chunk_begin(chunks[s]);
      const std::size_t last = first + plan.chunk_prefixes(chunks[s]);
      state_[s].partial.nodes.assign(plan.n, 0);
      state_[s].pieces_left = last - first;
      for (std::size_t p = first; p < last; ++p) prefixes_.push_back({s, p});
      if (first == last) done(chunks[s], state_[s].partial, 0);
    }
  }

  // One thread's part: pieces until none is left or the team stops.
  void work() {
    for (;;) {
      Piece piece;
      {
        std::unique_lock lock(mutex_);
        while (!stop_ && handed_.empty() && next_ == prefixes_.size() && busy_ > 0) {
          ++idle_;
          wake_.wait(lock);
          --idle_;
        }
        if (stop_ || (handed_.empty() && next_ == prefixes_.size())) return;
        if (cancelled(cancel_)) {
          halt();
          return;
        }
        if (!handed_.empty()) {
          piece = handed_.back();
          handed_.pop_back();
          handed_count_ = handed_.size();
        } else {
          const auto [slot, prefix] = prefixes_[next_++];
          piece = {slot, backward::cursor_at(prefix_node<W>(plan_, prefix))};
        }
        ++busy_;
      }
      run(piece);
    }
  }

  // After every thread's work: rethrows a thread's failure, or throws Cancelled where the team
  // stopped with chunks unfinished.
  void finish() const {
    if (failure_) std::rethrow_exception(failure_);
    if (stop_) throw Cancelled();
  }
  std::size_t handed_off() const { return handed_off_; }

 private:
  // A prefix's subtree or the moves a search handed off.
  struct Piece {
    std::size_t slot = 0;
    backward::Cursor<W> at{};
  };

  struct ChunkState {
    Partial partial;
    std::size_t pieces_left = 0;
    double seconds = 0;
  };

  // A piece's sink: its games, and the team's answers when the search polls.
  struct Sink : SortedSink {
    static constexpr bool shares = true;
    Team& team;
    std::size_t slot;
    std::uint64_t entered = 0, reported = 0;

    backward::Poll poll() {
      if (++entered % poll_every != 0) return backward::Poll::go;
      if (entered % (poll_every * report_every) == 0) {
        team.report(entered - reported);
        reported = entered;
        if (team.stopping()) return backward::Poll::stop;
      }
      return team.wants_work() ? backward::Poll::share : backward::Poll::go;
    }
    void share(const backward::Cursor<W>& at) { team.hand_off(slot, at); }
  };

  // Called under the lock.
  void halt() {
    stop_ = true;
    wake_.notify_all();
  }
  bool wants_work() const {
    return idle_.load(std::memory_order_relaxed) > handed_count_.load(std::memory_order_relaxed);
  }
  bool stopping() {
    if (!stop_ && cancelled(cancel_)) {
      const std::lock_guard lock(mutex_);
      halt();
    }
    return stop_;
  }
  void report(std::uint64_t nodes) {
    const std::lock_guard lock(mutex_);
    if (piece_done_) piece_done_(0, nodes);
  }
  void hand_off(std::size_t slot, const backward::Cursor<W>& at) {
    const std::lock_guard lock(mutex_);
    handed_.push_back({slot, at});
    handed_count_ = handed_.size();
    ++handed_off_;
    ++state_[slot].pieces_left;
    wake_.notify_one();
  }

  void run(const Piece& piece) {
    const auto start = std::chrono::steady_clock::now();
    Partial partial;
    std::uint64_t nodes[max_n] = {};
    Sink sink{{plan_.n, partial}, *this, piece.slot};
    bool whole = false;
    std::exception_ptr failure;
    backward::Cursor<W> at = piece.at;
    try {
      whole = backward::search(problem_, at, target_, nodes, sink);
    } catch (...) {
      failure = std::current_exception();
    }
    partial.nodes.assign(nodes, nodes + plan_.n);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::lock_guard lock(mutex_);
    --busy_;
    wake_.notify_all();
    if (failure && !failure_) failure_ = failure;
    if (!whole) {
      halt();
      return;
    }
    ChunkState& chunk = state_[piece.slot];
    chunk.partial.merge(partial);
    chunk.seconds += seconds;
    if (piece_done_) piece_done_(piece.at.next == 0 ? 1 : 0, sink.entered - sink.reported);
    if (--chunk.pieces_left == 0) done_(chunks_[piece.slot], chunk.partial, chunk.seconds);
  }

  const Plan& plan_;
  const backward::Problem problem_;
  const std::vector<int>& chunks_;
  const int target_;
  const ChunkDone& done_;
  const PieceDone& piece_done_;
  const Cancel& cancel_;
  std::vector<ChunkState> state_;
  std::vector<std::pair<std::size_t, std::size_t>> prefixes_;  // (chunk slot, prefix)
  std::size_t next_ = 0;
  std::vector<Piece> handed_;  // last in, first out: the chunk begun goes on first
  int busy_ = 0;
  std::size_t handed_off_ = 0;
  std::exception_ptr failure_;
  std::mutex mutex_;
  std::condition_variable wake_;
  // Changed under the lock, read by polling searches without it.
  std::atomic<std::size_t> idle_ = 0;
  std::atomic<std::size_t> handed_count_ = 0;
  std::atomic<bool> stop_ = false;
};

template <int W>
std::size_t run_team(const Plan& plan, const std::vector<int>& chunks, int target, int threads,
                     const ChunkDone& done, const PieceDone& piece_done, const Cancel& cancel) {
  Team<W> team(plan, chunks, target, done, piece_done, cancel);
#pragma omp parallel num_threads(std::max(threads, 1))
  team.work();
  team.finish();
  return team.handed_off();
}

}  // namespace

std::vector<int> sorted_cards(int n) {
  std::vector<int> cards(n);
  std::iota(cards.begin(), cards.end(), 1);
  return cards;
}

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
  plan.split_steps.resize(backward::split_entries);
  backward::fill_split_steps(plan.bound.data(), n, plan.split_steps.data());
  if (words_for(n) == 2)
    expand<2>(plan);
  else
    expand<3>(plan);
  plan.chunk_count = chunk_count_for(plan.prefix_count);
  return plan;
}

std::size_t run_backward_chunks(const Plan& plan, const std::vector<int>& chunks, int target,
                                int threads, const ChunkDone& done, const PieceDone& piece_done,
                                const Cancel& cancel) {
  return words_for(plan.n) == 2
             ? run_team<2>(plan, chunks, target, threads, done, piece_done, cancel)
             : run_team<3>(plan, chunks, target, threads, done, piece_done, cancel);
}

Partial search_backward_prefixes(const Plan& plan, std::size_t first, std::size_t last,
                                 int target) {
  return words_for(plan.n) == 2 ? search_prefixes<2>(plan, first, last, target)
                                : search_prefixes<3>(plan, first, last, target);
}

}  // namespace piles::topswops
