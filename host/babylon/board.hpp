#pragma once

#include <string>
#include <vector>

#include "core/babylon.hpp"

namespace piles::babylon {

// A real game: every stack with all its chips (colour numbers, top chip first), so it can be
// drawn; the solver only ever sees position().
class Board {
 public:
  explicit Board(const std::vector<int>& counts);

  Position position() const;
  std::vector<Move> moves() const;
  // Puts a stack of the move's top class on one of its bottom class; the move must be legal.
  void play(const Move& m);
  // The stacks as columns, top chip highest, heights underneath.
  std::string draw() const;

 private:
  int colours_;
  std::vector<std::vector<int>> stacks_;
};

}  // namespace piles::babylon
