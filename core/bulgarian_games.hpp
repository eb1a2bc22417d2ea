#pragma once

// The games the generic forward engine plays: each numbers its states of n cards 0..count-1
// and gives the rank of a state's successor. Views are small and trivially copyable, so a
// kernel takes them by value; the tables they point to are owned on the host and copied to
// the device as they are.

#include <cstdint>

#include "core/bulgarian.hpp"
#include "core/bulgarian_variants.hpp"
#include "core/hd.hpp"
#include "core/partition.hpp"

namespace piles::bulgarian {

// The engine keeps successors as 32-bit ranks, and a state's piles in arrays of the forward
// engine's size (n <= forward_max_n).
inline constexpr std::uint64_t generic_max_states = std::uint64_t{1} << 32;
// Carolina's 2^(n-1) compositions stay within 32-bit ranks up to n = 33.
inline constexpr int carolina_max_n = 33;
// Players round the table: room for one handed pile each in a fixed array.
inline constexpr int max_players = 16;

// The plain game on the partitions of n (the forward engine's step).
struct PlainGame {
  partition::CountView table;

  PILES_HD std::uint64_t count() const { return table.count(); }
  PILES_HD std::uint32_t successor(std::uint64_t r) const { return successor_rank(table, r); }
};

// A composition of n is the set of its partial sums below n: bit s - 1 of the rank says that a
// pile ends after card s.
PILES_HD inline std::uint64_t rank_composition(const part_t* parts, int len) {
  std::uint64_t r = 0;
  int sum = 0;
  for (int i = 0; i + 1 < len; ++i) {
    sum += parts[i];
    r |= std::uint64_t{1} << (sum - 1);
  }
  return r;
}

PILES_HD inline int unrank_composition(int n, std::uint64_t r, part_t* parts) {
  int len = 0, start = 0;
  for (int s = 1; s < n; ++s)
    if (r >> (s - 1) & 1) {
      parts[len++] = static_cast<part_t>(s - start);
      start = s;
    }
  parts[len++] = static_cast<part_t>(n - start);
  return len;
}

// Carolina solitaire on the 2^(n-1) compositions of n.
struct CarolinaGame {
  int n;

  PILES_HD std::uint64_t count() const { return std::uint64_t{1} << (n - 1); }
  PILES_HD std::uint32_t successor(std::uint64_t r) const {
    part_t parts[carolina_max_n], next[carolina_max_n + 1];
    const int len = unrank_composition(n, r, parts);
    return static_cast<std::uint32_t>(rank_composition(next, carolina_move(parts, len, next)));
  }
};

// Multiplayer solitaire on the P-tuples of partitions with n cards in all. Tuples are ranked by
// player 0's number of cards, then player 0's partition, then the rest of the tuple the same
// way; tuples[j * (n + 1) + m] counts the j-tuples with m cards in all.
struct MultiplayerGame {
  partition::CountView table;
  const std::uint64_t* tuples;
  int players;

  PILES_HD std::uint64_t tuple_count(int j, int m) const { return tuples[j * (table.n + 1) + m]; }
  PILES_HD std::uint64_t count() const { return tuple_count(players, table.n); }

  PILES_HD std::uint64_t rank(const part_t* parts, const int* lens) const {
    std::uint64_t r = 0;
    int rest = table.n;
    for (int p = 0; p < players; ++p) {
      const int later = players - 1 - p;
      int cards = 0;
      for (int i = 0; i < lens[p]; ++i) cards += parts[i];
      for (int k = 0; k < cards; ++k) r += table.at(k, k) * tuple_count(later, rest - k);
      r += partition::rank(table, parts, lens[p]) * tuple_count(later, rest - cards);
      rest -= cards;
      parts += lens[p];
    }
    return r;
  }

  PILES_HD void unrank(std::uint64_t r, part_t* parts, int* lens) const {
    int rest = table.n;
    for (int p = 0; p < players; ++p) {
      const int later = players - 1 - p;
      int cards = 0;
      for (;; ++cards) {
        const std::uint64_t block = table.at(cards, cards) * tuple_count(later, rest - cards);
        if (r < block) break;
        r -= block;
      }
      const std::uint64_t below = tuple_count(later, rest - cards);
      lens[p] = partition::unrank(table, r / below, parts, cards, cards);
      r %= below;
      rest -= cards;
      parts += lens[p];
    }
  }

  PILES_HD std::uint32_t successor(std::uint64_t r) const {
    part_t parts[forward_max_n + max_players], next[forward_max_n + max_players];
    int lens[max_players], next_lens[max_players];
    unrank(r, parts, lens);
    multiplayer_move(parts, lens, players, next, next_lens);
    return static_cast<std::uint32_t>(rank(next, next_lens));
  }
};

// Austrian solitaire on the states of n cards: piles of at most `limit` cards and a bank of
// 0 <= b < limit cards, ranked by the bank, then the piles' partition of n - b (the partitions
// with parts at most `limit` come first in the lexicographic order).
struct AustrianGame {
  partition::CountView table;
  int limit;

  PILES_HD int banks() const { return limit <= table.n ? limit : table.n + 1; }
  PILES_HD std::uint64_t with_bank(int b) const { return table.at(table.n - b, limit); }
  PILES_HD std::uint64_t count() const {
    std::uint64_t c = 0;
    for (int b = 0; b < banks(); ++b) c += with_bank(b);
    return c;
  }

  PILES_HD std::uint32_t successor(std::uint64_t r) const {
    part_t parts[forward_max_n], next[forward_max_n + 1];
    part_t bank = 0;
    while (r >= with_bank(bank)) r -= with_bank(bank++);
    const int len = partition::unrank(table, r, parts, table.n - bank, limit);
    const int next_len = austrian_move(parts, len, limit, bank, next);
    std::uint64_t s = partition::rank(table, next, next_len);
    for (int b = 0; b < bank; ++b) s += with_bank(b);
    return static_cast<std::uint32_t>(s);
  }
};

}  // namespace piles::bulgarian
