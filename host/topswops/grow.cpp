#include "host/topswops/grow.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

#include "core/topswops.hpp"
#include "host/topswops/play.hpp"
#include "host/topswops/published.hpp"

namespace piles::topswops {
namespace {

using Cards = std::array<std::uint8_t, max_n>;

// Calls visit(p) for every deck p whose first move leads to d: card k at position k, the top k
// reversed (k >= 2).
template <class Visit>
void for_each_predecessor(const Cards& d, int n, const Visit& visit) {
  for (int k = 2; k <= n; ++k)
    if (d[k - 1] == k) {
      Cards p = d;
      std::reverse(p.begin(), p.begin() + k);
      visit(p);
    }
}

struct Deepest {
  Cards deck;
  int depth = 0;
};

// Decks still to visit and their depths; kept by the caller so that a tree is not an allocation.
using Stack = std::vector<std::pair<Cards, int>>;

// The deepest deck of the tree of decks whose games pass through y (y at depth 0). The tree is
// finite: play is deterministic and every game ends.
Deepest deepest_before(const Cards& y, int n, Stack& stack, std::uint64_t& work) {
  stack.assign(1, {y, 0});
  Deepest best{y, 0};
  while (!stack.empty()) {
    const Cards d = stack.back().first;  // no structured binding: clang 14 cannot capture one
    const int depth = stack.back().second;
    stack.pop_back();
    ++work;
    if (depth > best.depth) best = {d, depth};
    for_each_predecessor(d, n, [&](const Cards& p) { stack.emplace_back(p, depth + 1); });
  }
  return best;
}

}  // namespace

std::vector<std::vector<int>> published_longest_decks(int n) {
  std::vector<std::vector<int>> decks;
  const int index = n - published::longest_decks_from;
  if (index < 0 || index >= static_cast<int>(published::longest_decks.size())) return decks;
  const std::string_view listed = published::longest_decks[index];
  for (std::size_t at = 0; at < listed.size();) {
    const std::size_t end = std::min(listed.find(' ', at), listed.size());
    decks.push_back(parse_deck(listed.substr(at, end - at)));
    at = end + 1;
  }
  return decks;
}

GrownGame grow_game(const std::vector<int>& trunk, std::uint64_t budget,
                    const std::function<bool()>& stop) {
  const int m = static_cast<int>(trunk.size()), n = m + 1;
  GrownGame best;
  if (m < 1 || n > max_n) return best;
  std::vector<Cards> decks(1);  // the trunk's game, deck by deck
  std::copy(trunk.begin(), trunk.end(), decks[0].begin());
  while (decks.back()[0] != 1) {
    Cards next = decks.back();
    std::reverse(next.begin(), next.begin() + next[0]);
    decks.push_back(next);
  }
  const int length = static_cast<int>(decks.size()) - 1;
  std::uint64_t work = 0, asked = 0;
  Stack stack, heads;  // decks E with their steps before joining the trunk; deepest_before's
  for (int s = 0; s <= length; ++s) {
    stack.emplace_back(decks[s], 0);
    for_each_predecessor(decks[s], m, [&](const Cards& p) {
      if (s == 0 || p != decks[s - 1]) stack.emplace_back(p, 1);
    });
    while (!stack.empty()) {
      const Cards e = stack.back().first;
      const int r = stack.back().second;
      stack.pop_back();
      Cards y{};  // card n on top of E reversed: flipping n leaves E above n
      y[0] = static_cast<std::uint8_t>(n);
      std::reverse_copy(e.begin(), e.begin() + m, y.begin() + 1);
      const Deepest head = deepest_before(y, n, heads, work);
      const int steps = head.depth + 1 + (length - s) + r;
      if (steps > best.steps)
        best = {std::vector<int>(head.deck.begin(), head.deck.begin() + n), steps};
      if (r > 0) for_each_predecessor(e, m, [&](const Cards& p) { stack.emplace_back(p, r + 1); });
      best.looked_at = work;
      if (work >= budget) return best;
      if (work - asked >= 4096) {
        asked = work;
        if (stop()) return best;
      }
    }
  }
  best.complete = true;
  return best;
}

}  // namespace piles::topswops
