#include "host/babylon/solver.hpp"

#include <stdexcept>
#include <vector>

namespace piles::babylon {
namespace {

// Depth-first negamax for one thread over the shared memos.
class Search {
 public:
  Search(Memo<Bits>& narrow, Memo<Bits256>& wide) : narrow_(narrow), wide_(wide) {
    children_.reserve(4096);
  }

  // The position's value; `r` is reduce(p).
  bool wins(const Position& p, const Reduced& r) {
    if (r.known >= 0) return r.known == 1;
    if (r.bits <= key_bits<Bits>) {
      const Bits key = pack<Bits>(p, r.dead);
      const int known = narrow_.find(key);
      return known >= 0 ? known == 1 : expand(key);
    }
    const Bits256 key = pack<Bits256>(p, r.dead);
    const int known = wide_.find(key);
    return known >= 0 ? known == 1 : expand(key);
  }

  std::uint64_t searched() const { return searched_; }

 private:
  struct Child {
    Bits256 key;  // a narrow key sits in key.lo
    bool narrow;
    int score;
  };

  Memo<Bits>& memo(const Bits&) { return narrow_; }
  Memo<Bits256>& memo(const Bits256&) { return wide_; }

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
    if (r.bits <= key_bits<Bits>) {
      const Bits key = pack<Bits>(child, r.dead);
      const int known = narrow_.find(key);
      if (known < 0) push_ordered(base, {Bits256(key), true, score(m)});
      return known;
    }
    const Bits256 key = pack<Bits256>(child, r.dead);
    const int known = wide_.find(key);
    if (known < 0) push_ordered(base, {key, false, score(m)});
    return known;
  }

  template <class Key>
  bool expand(const Key& key) {
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
    // Siblings have the same number of stacks and descendants fewer, so a child the first pass
    // did not find has (barring another thread or a rare dead-stack coincidence) still not
    // been solved: search it without asking the memo again.
    for (std::size_t i = base; !win && i < children_.size(); ++i) {
      const Child child = children_[i];  // the vector may grow below
      win = !(child.narrow ? expand(child.key.lo) : expand(child.key));
    }
    children_.resize(base);
    memo(key).insert(key, win);
    ++searched_;
    return win;
  }

  Memo<Bits>& narrow_;
  Memo<Bits256>& wide_;
  std::vector<Child> children_;
  std::uint64_t searched_ = 0;
};

}  // namespace

Solver::Solver(int threads) : threads_(threads), narrow_(threads > 1), wide_(threads > 1) {}

bool Solver::mover_wins(const Position& p, std::uint64_t& searched) {
  const Reduced r = reduce(p);
  if (r.known < 0 && r.bits > key_bits<Bits256>)
    throw std::invalid_argument("babylon: position too large for a 256-bit key");
  Search search(narrow_, wide_);
  const bool win = search.wins(p, r);
  searched += search.searched();
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
