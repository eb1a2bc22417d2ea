#include "host/babylon/play.hpp"

#include <fmt/format.h>

#include <charconv>
#include <istream>
#include <ostream>
#include <string>

#include "host/babylon/analysis.hpp"
#include "host/babylon/board.hpp"
#include "host/babylon/start.hpp"

namespace piles::babylon {
namespace {

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// Prompts until `accept` takes a line; false when input ends first.
// Input from a pipe is echoed so that the transcript reads like a session at a terminal.
template <class Accept>
bool ask(std::istream& in, std::ostream& out, bool echo, const std::string& prompt,
         Accept&& accept) {
  for (;;) {
    out << prompt << std::flush;
    std::string line;
    if (!std::getline(in, line)) {
      out << "\ninput ended: game abandoned\n";
      return false;
    }
    if (echo) out << line << "\n";
    const std::string error = accept(trim(line));
    if (error.empty()) return true;
    out << error << "\n";
  }
}

// The move a line names: a number from 1 to `count`.
std::optional<std::size_t> move_number(const std::string& s, std::size_t count) {
  std::size_t n = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (error != std::errc() || end != s.data() + s.size() || n < 1 || n > count) return std::nullopt;
  return n;
}

std::string show_moves(const std::vector<Move>& moves) {
  std::string s;
  for (std::size_t i = 0; i < moves.size(); ++i)
    s += fmt::format("  {:>2}) {}\n", i + 1, describe(moves[i]));
  return s;
}

}  // namespace

void play(const std::vector<int>& counts, std::optional<bool> human_first, Solver& solver,
          std::istream& in, std::ostream& out, bool echo) {
  Board board(counts);
  std::string chips;
  for (std::size_t c = 0; c < counts.size(); ++c)
    chips += fmt::format("{}{} x {}", c ? ", " : "", counts[c], colour_name(static_cast<int>(c)));
  out << fmt::format(
      "Babylon with {}. A move puts one stack on another of the same height or the same top\n"
      "colour; whoever makes the last move wins.\n",
      chips);

  if (!human_first) {
    const bool answered =
        ask(in, out, echo, "Play first or second? [1/2] ", [&](const std::string& s) {
          if (s == "1" || s == "first") human_first = true;
          if (s == "2" || s == "second") human_first = false;
          return human_first ? std::string()
                             : fmt::format("'{}': answer 1 (first) or 2 (second)", s);
        });
    if (!answered) return;
  }

  bool human_to_move = *human_first;
  bool human_moved_last = false;
  for (;;) {
    out << "\n" << board.draw();
    const std::vector<Move> moves = board.moves();
    if (moves.empty()) break;
    if (human_to_move) {
      std::size_t pick = 0;  // 0: the human quits
      out << "Your move:\n" << show_moves(moves);
      const bool answered =
          ask(in, out, echo, fmt::format("move [1-{}, q quits]: ", moves.size()),
              [&](const std::string& s) {
                if (s == "q" || s == "quit") return std::string();
                if (const auto n = move_number(s, moves.size())) {
                  pick = *n;
                  return std::string();
                }
                return fmt::format("'{}' is not a legal move: enter a number from 1 to {}", s,
                                   moves.size());
              });
      if (!answered) return;
      if (pick == 0) {
        out << "you quit\n";
        return;
      }
      board.play(moves[pick - 1]);
      out << "you: " << describe(moves[pick - 1]) << "\n";
    } else {
      std::uint64_t searched = 0;
      const std::optional<Move> best = winning_move(board.position(), solver, searched);
      const Move m = best ? *best : moves.front();
      board.play(m);
      out << "engine: " << describe(m) << (best ? "   (a winning move)" : "") << "\n";
    }
    human_moved_last = human_to_move;
    human_to_move = !human_to_move;
  }
  out << (human_moved_last ? "No moves left: you made the last move and win.\n"
                           : "No moves left: the engine made the last move and wins.\n");
}

}  // namespace piles::babylon
