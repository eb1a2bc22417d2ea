#include "host/babylon/solver.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <vector>

#include "host/common/progress.hpp"

namespace piles::babylon {

// The keys one thread is expanding, one slot per key length: every move shortens the key, so
// a line of play holds at most one key of each length. Other threads read the slots only as a
// hint (relaxed, word by word): a torn read costs at most a search done twice.
struct Solver::Path {
  static constexpr int words = 4;
  std::atomic<std::uint64_t> slot[key_bits<Bits256> + 1][words];
};

namespace {

void words_of(const Bits& key, std::uint64_t* w) {
  w[0] = static_cast<std::uint64_t>(key);
  w[1] = static_cast<std::uint64_t>(key >> 64);
  w[2] = w[3] = 0;
}

void words_of(const Bits256& key, std::uint64_t* w) {
  words_of(key.lo, w);
  words_of(key.hi, w + 2);
}

// Depth-first negamax for one thread over the shared memos. With other threads on the same
// memo it follows ABDADA (Weill, 1996): a child that another thread is expanding right now is
// put off until the other children are done, by which time it is usually in the memo.
class Search {
 public:
  Search(Memo<Bits>& narrow, Memo<Bits256>& wide, Solver::Path* paths, int threads, int self,
         Progress* progress, const Cancel& cancel)
      : narrow_(narrow),
        wide_(wide),
        paths_(paths),
        threads_(threads),
        self_(self),
        progress_(progress),
        cancel_(cancel) {
    children_.reserve(4096);
  }

  // The position's value; `r` is reduce(p).
  bool wins(const Position& p, const Reduced& r) {
    if (r.known >= 0) return r.known == 1;
    if (r.bits <= key_bits<Bits>) return wins(pack<Bits>(p, r.dead), r.bits);
    return wins(pack<Bits256>(p, r.dead), r.bits);
  }

  std::uint64_t searched() const { return searched_; }
  // The positions searched that the progress has not been told of yet.
  std::uint64_t unreported() const { return searched_ % progress_states; }

 private:
  struct Child {
    Bits256 key;  // a narrow key sits in key.lo
    int bits;     // key length; up to key_bits<Bits> the key is narrow
    int score;
    bool deferred;
  };

  Memo<Bits>& memo(const Bits&) { return narrow_; }
  Memo<Bits256>& memo(const Bits256&) { return wide_; }

  template <class Key>
  bool wins(const Key& key, int bits) {
    const int known = memo(key).find(key);
    return known >= 0 ? known == 1 : expand(key, bits);
  }

  bool wins(const Child& c) {
    return c.bits <= key_bits<Bits> ? wins(c.key.lo, c.bits) : wins(c.key, c.bits);
  }

  bool expand(const Child& c) {
    return c.bits <= key_bits<Bits> ? expand(c.key.lo, c.bits) : expand(c.key, c.bits);
  }

  // A move that builds a tall stack is tried first (cross-colour before same-colour among
  // equals): in Babylon that finds a winning move soonest. Measured on the two-colour table
  // to 40 chips: 0.40 million positions against 8.9 million in generation order.
  static int score(const Move& m) { return 2 * m.height() + (m.top_colour != m.bottom_colour); }

  void push_ordered(std::size_t base, const Child& child) {
    children_.push_back(child);
    std::size_t i = children_.size() - 1;
    for (; i > base && children_[i - 1].score <= child.score; --i) children_[i] = children_[i - 1];
    children_[i] = child;
  }

  // The child's value when the rules or the memo know it (-1 otherwise, and then the child
  // is queued for the second pass).
  int probe(const Position& child, const Move& m, std::size_t base) {
    const Reduced r = reduce(child);
    if (r.known >= 0) return r.known;
    int known;
    Bits256 key;
    if (r.bits <= key_bits<Bits>) {
      key = pack<Bits>(child, r.dead);
      known = narrow_.find(key.lo);
    } else {
      key = pack<Bits256>(child, r.dead);
      known = wide_.find(key);
    }
    if (known < 0) push_ordered(base, {key, r.bits, score(m), false});
    return known;
  }

  template <class Key>
  void publish(int bits, const Key& key) {
    if (threads_ == 1) return;
    std::uint64_t w[Solver::Path::words];
    words_of(key, w);
    for (int i = 0; i < Solver::Path::words; ++i)
      paths_[self_].slot[bits][i].store(w[i], std::memory_order_relaxed);
  }

  bool busy_elsewhere(const Child& c) const {
    std::uint64_t w[Solver::Path::words];
    if (c.bits <= key_bits<Bits>)
      words_of(c.key.lo, w);
    else
      words_of(c.key, w);
    for (int t = 0; t < threads_; ++t) {
      if (t == self_) continue;
      bool same = true;
      for (int i = 0; i < Solver::Path::words && same; ++i)
        same = paths_[t].slot[c.bits][i].load(std::memory_order_relaxed) == w[i];
      if (same) return true;
    }
    return false;
  }

  template <class Key>
  bool expand(const Key& key, int bits) {
    publish(bits, key);
    Position p = decode(key);
    const std::size_t base = children_.size();
    bool win = false;
    // First pass: a child that is lost for the opponent, by rule or already in the memo, ends
    // the search at once; the others are queued in order for the second pass.
    for_each_move(p, [&](const Move& m) {
      if (win) return;
      apply(p, m);
      win = probe(p, m, base) == 0;
      undo(p, m);
    });
    // Second pass. Alone, a child the first pass did not find is still unsolved (siblings have
    // the same number of stacks and descendants fewer, so none solved another; only a rare
    // dead-stack coincidence could), and it is searched without asking the memo again. With
    // other threads the memo is asked, and children they are busy with wait for a third pass.
    for (std::size_t i = base; !win && i < children_.size(); ++i) {
      const Child child = children_[i];  // the vector may grow below
      if (threads_ == 1) {
        win = !expand(child);
      } else if (i > base && busy_elsewhere(child)) {
        children_[i].deferred = true;
      } else {
        win = !wins(child);
      }
    }
    for (std::size_t i = base; !win && i < children_.size(); ++i)
      if (children_[i].deferred) win = !wins(Child(children_[i]));
    children_.resize(base);
    memo(key).insert(key, win);
    publish(bits, Key{0});
    // Every few milliseconds: the progress, and whether to stop (the memo holds only
    // positions solved whole, so a search abandoned here leaves it sound).
    if (++searched_ % progress_states == 0) {
      if (progress_) progress_->add(progress_states);
      if (cancelled(cancel_)) throw Cancelled();
    }
    return win;
  }

  Memo<Bits>& narrow_;
  Memo<Bits256>& wide_;
  Solver::Path* paths_;
  int threads_, self_;
  Progress* progress_;
  const Cancel& cancel_;
  std::vector<Child> children_;
  std::uint64_t searched_ = 0;
  static constexpr std::uint64_t progress_states = 4096;  // told to the progress at a time
};

}  // namespace

Solver::Solver(int threads)
    : threads_(threads),
      narrow_(threads > 1),
      wide_(threads > 1),
      paths_(std::make_unique<Path[]>(static_cast<std::size_t>(threads))) {}

Solver::~Solver() = default;

bool Solver::mover_wins(const Position& p, std::uint64_t& searched, const Cancel& cancel) {
  const Reduced r = reduce(p);
  if (r.known < 0 && r.bits > key_bits<Bits256>)
    throw std::invalid_argument("babylon: position too large for a 256-bit key");
  // Inside a parallel region each thread has its own path; outside, thread 0's.
  const int self = std::min(omp_get_thread_num(), threads_ - 1);
  Search search(narrow_, wide_, paths_.get(), threads_, self, progress_, cancel);
  bool win = false;
  try {
    win = search.wins(p, r);
  } catch (const Cancelled&) {
    // The keys this thread was expanding are no longer being expanded.
    for (auto& slot : paths_[self].slot)
      for (auto& word : slot) word.store(0, std::memory_order_relaxed);
    throw;
  }
  searched += search.searched();
  if (progress_) progress_->add(search.unreported());
  return win;
}

bool Solver::mover_wins(const Position& p) {
  std::uint64_t searched = 0;
  return mover_wins(p, searched);
}

std::uint64_t Solver::memo_states() const {
  return narrow_.size() + wide_.size();
}

std::uint64_t Solver::wide_states() const {
  return wide_.size();
}

std::uint64_t Solver::memo_bytes() const {
  return narrow_.bytes() + wide_.bytes();
}

}  // namespace piles::babylon
