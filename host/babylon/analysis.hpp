#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/babylon.hpp"
#include "host/babylon/solver.hpp"

namespace piles::babylon {

// One distinct first move of a start and what perfect play makes of it.
struct FirstMove {
  Move move;
  bool wins = false;          // the first player wins by playing it
  std::optional<Move> reply;  // when it loses: a reply that wins for the second player
};

struct Analysis {
  std::vector<int> counts;
  bool first_wins = false;
  std::vector<FirstMove> moves;  // every distinct first move, in move order
  std::uint64_t searched = 0;    // positions searched
  double seconds = 0;
};

// Solves every first move of the start (in parallel when the solver has threads) and, where a
// first move loses, finds the second player's winning reply.
Analysis analyse(const std::vector<int>& counts, Solver& solver);

// Every distinct move of the position, in the order for_each_move gives them.
std::vector<Move> legal_moves(const Position& p);

// A reply to the position that leaves the other player lost, if there is one.
std::optional<Move> winning_move(Position p, Solver& solver, std::uint64_t& searched);

// "put a height-1 stack of colour A on a height-2 stack of colour B"
std::string describe(const Move& m);

}  // namespace piles::babylon
