#pragma once

#include <cstdint>
#include <memory>

#include "core/babylon.hpp"
#include "host/babylon/memo.hpp"
#include "host/common/slices.hpp"

namespace piles {
class Progress;
}

namespace piles::babylon {

// Negamax with a memo over canonical positions. One solver serves many starts: positions
// recur across starts, and every answer stays in the memo. A position whose key fits 127 bits
// (every position of up to 62 chips in two colours, and most positions deep in larger games)
// is kept under a 128-bit key, the others under 256-bit keys. mover_wins() may be called from
// several threads at once when the solver was made for more than one thread.
class Solver {
 public:
  explicit Solver(int threads);
  ~Solver();
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  // Does the player to move win with perfect play? Adds the positions it searched to
  // `searched` (positions found in the memo cost nothing). The position must fit a 256-bit
  // key: 2 * chips + colours <= 255.
  // `cancel` is asked every few thousand positions; once it says so the call throws Cancelled
  // (the memo keeps only positions solved whole, and serves the next call as before).
  bool mover_wins(const Position& p, std::uint64_t& searched, const Cancel& cancel = {});
  bool mover_wins(const Position& p);

  int threads() const { return threads_; }
  // Where the positions searched are counted as they go (none: nowhere).
  void set_progress(Progress* progress) { progress_ = progress; }
  // Positions in the memo: all of them, and those under 256-bit keys.
  std::uint64_t memo_states() const;
  std::uint64_t wide_states() const;
  std::uint64_t memo_bytes() const;

  struct Path;  // what each thread is searching now (solver.cpp)

 private:
  int threads_;
  Memo<Bits> narrow_;
  Memo<Bits256> wide_;
  std::unique_ptr<Path[]> paths_;
  Progress* progress_ = nullptr;
};

}  // namespace piles::babylon
