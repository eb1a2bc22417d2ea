#include "host/babylon/analysis.hpp"

#include <fmt/format.h>

#include <chrono>

#include "host/babylon/start.hpp"

namespace piles::babylon {

std::vector<Move> legal_moves(const Position& p) {
  std::vector<Move> moves;
  for_each_move(p, [&](const Move& m) { moves.push_back(m); });
  return moves;
}

std::optional<Move> winning_move(Position p, Solver& solver, std::uint64_t& searched) {
  for (const Move& m : legal_moves(p)) {
    apply(p, m);
    const bool opponent_wins = solver.mover_wins(p, searched);
    undo(p, m);
    if (!opponent_wins) return m;
  }
  return std::nullopt;
}

Analysis analyse(const std::vector<int>& counts, Solver& solver) {
  const auto t0 = std::chrono::steady_clock::now();
  Analysis a;
  a.counts = counts;
  const Position start = start_position(counts);
  for (const Move& m : legal_moves(start)) a.moves.push_back({m, false, std::nullopt});

  const int n = static_cast<int>(a.moves.size());
  std::uint64_t searched = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(solver.threads()) reduction(+ : searched)
  for (int i = 0; i < n; ++i) {
    FirstMove& f = a.moves[i];
    Position p = start;
    apply(p, f.move);
    f.wins = !solver.mover_wins(p, searched);
    if (!f.wins) f.reply = winning_move(p, solver, searched);
  }

  for (const FirstMove& f : a.moves) a.first_wins = a.first_wins || f.wins;
  a.searched = searched;
  a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return a;
}

std::string describe(const Move& m) {
  return fmt::format("put a height-{} stack of colour {} on a height-{} stack of colour {}",
                     m.top_height, colour_name(m.top_colour), m.bottom_height,
                     colour_name(m.bottom_colour));
}

}  // namespace piles::babylon
