#include "host/babylon/solver.hpp"

#include <stdexcept>
#include <vector>

namespace piles::babylon {
namespace {

// Depth-first negamax for one thread over a shared memo.
template <class Key>
class Search {
 public:
  explicit Search(Memo<Key>& memo) : memo_(memo) { children_.reserve(4096); }

  bool wins(const Key& key) {
    const int known = memo_.find(key);
    return known >= 0 ? known == 1 : expand(key);
  }

  std::uint64_t searched() const { return searched_; }

 private:
  struct Child {
    Key key;
    int score;
  };

  // A move that builds a tall stack is tried first (cross-colour before same-colour among
  // equals): in Babylon that finds a winning move soonest. Measured on the two-colour table
  // to 46 chips: about 12x fewer positions than generation order.
  static int score(const Move& m) { return 2 * m.height() + (m.top_colour != m.bottom_colour); }

  void push_ordered(std::size_t base, const Key& key, int score) {
    children_.push_back({key, score});
    std::size_t i = children_.size() - 1;
    for (; i > base && children_[i - 1].score <= score; --i) children_[i] = children_[i - 1];
    children_[i] = {key, score};
  }

  bool expand(const Key& key) {
    Position p = decode(key);
    const std::size_t base = children_.size();
    bool win = false;
    // First pass: a child that is lost for the opponent, by rule or already in the memo, ends
    // the search at once; the others are kept in order for the second pass.
    for_each_move(p, [&](const Move& m) {
      if (win) return;
      apply(p, m);
      const Encoded<Key> child = encode<Key>(p);
      undo(p, m);
      const int known = child.known >= 0 ? child.known : memo_.find(child.key);
      if (known == 0) win = true;
      if (known < 0) push_ordered(base, child.key, score(m));
    });
    for (std::size_t i = base; !win && i < children_.size(); ++i) {
      const Key child = children_[i].key;  // the vector may grow below
      win = !wins(child);
    }
    children_.resize(base);
    memo_.insert(key, win);
    ++searched_;
    return win;
  }

  Memo<Key>& memo_;
  std::vector<Child> children_;
  std::uint64_t searched_ = 0;
};

template <class Key>
bool solve(Memo<Key>& memo, const Position& p, std::uint64_t& searched) {
  const Encoded<Key> e = encode<Key>(p);
  if (e.known >= 0) return e.known == 1;
  Search<Key> search(memo);
  const bool win = search.wins(e.key);
  searched += search.searched();
  return win;
}

}  // namespace

bool fits_narrow_key(int chips, int colours) {
  return start_key_bits(chips, colours) <= key_bits<Bits>;
}

Solver::Solver(int chips, int colours, int threads) : threads_(threads) {
  if (fits_narrow_key(chips, colours))
    narrow_ = std::make_unique<Memo<Bits>>(threads > 1);
  else
    wide_ = std::make_unique<Memo<Bits256>>(threads > 1);
}

bool Solver::mover_wins(const Position& p, std::uint64_t& searched) {
  if (narrow_ && !fits_narrow_key(p.chips(), p.colours))
    throw std::invalid_argument("babylon: position too large for this solver's keys");
  return narrow_ ? solve(*narrow_, p, searched) : solve(*wide_, p, searched);
}

bool Solver::mover_wins(const Position& p) {
  std::uint64_t searched = 0;
  return mover_wins(p, searched);
}

std::uint64_t Solver::memo_states() const {
  return narrow_ ? narrow_->size() : wide_->size();
}

std::uint64_t Solver::memo_bytes() const {
  return narrow_ ? narrow_->bytes() : wide_->bytes();
}

}  // namespace piles::babylon
