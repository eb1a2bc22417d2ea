#pragma once

#include <cstdint>
#include <memory>

#include "core/babylon_state.hpp"
#include "host/babylon/memo.hpp"

namespace piles::babylon {

// Whether a start's key fits 128 bits (else the solver uses 256-bit keys).
bool fits_narrow_key(int chips, int colours);

// Negamax with a memo over canonical positions. One solver serves many starts: positions
// recur across starts, and every answer stays in the memo. mover_wins() may be called from
// several threads at once when the solver was made for more than one thread.
class Solver {
 public:
  // `chips`, `colours`: the largest start it will be asked about; that picks the key width.
  Solver(int chips, int colours, int threads);

  // Does the player to move win with perfect play? Adds the positions it searched to
  // `searched` (positions found in the memo cost nothing).
  bool mover_wins(const Position& p, std::uint64_t& searched);
  bool mover_wins(const Position& p);

  int threads() const { return threads_; }
  int key_width() const { return narrow_ ? 128 : 256; }
  std::uint64_t memo_states() const;
  std::uint64_t memo_bytes() const;

 private:
  int threads_;
  std::unique_ptr<Memo<Bits>> narrow_;
  std::unique_ptr<Memo<Bits256>> wide_;
};

}  // namespace piles::babylon
