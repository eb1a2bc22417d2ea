#include "host/babylon/board.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "host/babylon/analysis.hpp"
#include "host/babylon/start.hpp"

namespace piles::babylon {
namespace {

constexpr int column_width = 3;

}  // namespace

Board::Board(const std::vector<int>& counts) : colours_(static_cast<int>(counts.size())) {
  for (int c = 0; c < colours_; ++c)
    for (int i = 0; i < counts[c]; ++i) stacks_.push_back({c});
}

Position Board::position() const {
  Position p;
  p.colours = colours_;
  for (const auto& s : stacks_) p.colour[s.front()].add(static_cast<int>(s.size()));
  return p;
}

std::vector<Move> Board::moves() const {
  return legal_moves(position());
}

void Board::play(const Move& m) {
  const auto find = [&](int colour, int height, std::size_t skip) {
    for (std::size_t i = 0; i < stacks_.size(); ++i)
      if (i != skip && stacks_[i].front() == colour &&
          static_cast<int>(stacks_[i].size()) == height)
        return i;
    throw std::logic_error("babylon: move is not legal on this board");
  };
  const std::size_t top = find(m.top_colour, m.top_height, stacks_.size());
  const std::size_t bottom = find(m.bottom_colour, m.bottom_height, top);
  if (m.top_colour != m.bottom_colour && m.top_height != m.bottom_height)
    throw std::logic_error("babylon: move is not legal on this board");
  std::vector<int> merged = stacks_[top];
  merged.insert(merged.end(), stacks_[bottom].begin(), stacks_[bottom].end());
  stacks_[bottom] = std::move(merged);
  stacks_.erase(stacks_.begin() + static_cast<std::ptrdiff_t>(top));
}

std::string Board::draw() const {
  std::size_t tallest = 0;
  for (const auto& s : stacks_) tallest = std::max(tallest, s.size());
  std::string out;
  for (std::size_t row = tallest; row >= 1; --row) {
    std::string line;
    for (const auto& s : stacks_) {
      const std::string chip = s.size() >= row ? colour_name(s[s.size() - row]) : " ";
      line += fmt::format("{:>{}}", chip, column_width);
    }
    out += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
  }
  std::string heights;
  for (const auto& s : stacks_) heights += fmt::format("{:>{}}", s.size(), column_width);
  return out + heights + "   <- heights\n";
}

}  // namespace piles::babylon
