#pragma once

// The moves of the variants of Bulgarian solitaire, shared by the CPU engines and the kernels:
// Carolina (piles in a row), Multiplayer (piles handed round a table), Montreal (positions in a
// row, some empty) and Austrian (piles of at most L cards and a bank). Part is part_t wherever
// states are ranked, and int where a trace has more cards.

#include "core/bulgarian.hpp"
#include "core/hd.hpp"

namespace piles::bulgarian {

// Carolina solitaire (Griggs and Ho 1998): the piles keep their order; one card from each of
// the len piles makes a new pile that goes first, and emptied piles vanish. `out` needs room
// for len + 1 parts. Returns the new number of piles.
template <class Part>
PILES_HD inline int carolina_move(const Part* parts, int len, Part* out) {
  int o = 0;
  out[o++] = static_cast<Part>(len);
  for (int i = 0; i < len; ++i)
    if (parts[i] > 1) out[o++] = static_cast<Part>(parts[i] - 1);
  return o;
}

// Multiplayer Bulgarian solitaire (Eriksen 2012): every player takes one card from each of
// their piles and hands the new pile to the next player, so player p gets a pile of as many
// cards as player p - 1 had piles. Player p's non-increasing piles follow those of players
// 0..p-1 in `parts`, lens[p] of them; `out` needs room for one more pile per player.
template <class Part>
PILES_HD inline void multiplayer_move(const Part* parts, const int* lens, int players, Part* out,
                                      int* out_lens) {
  int from = 0, to = 0;
  for (int p = 0; p < players; ++p) {
    const int handed = lens[(p + players - 1) % players];
    out_lens[p] = take_one_each(parts + from, lens[p], static_cast<Part>(handed), out + to);
    from += lens[p];
    to += out_lens[p];
  }
}

// Montreal solitaire (Cannings and Haigh), as seed 001's worked example plays it: walk the row
// taking one card from every position that holds cards; at a position that was empty, put down
// every card taken since the last ones were put down; after the last position the cards in
// hand make a new position at the end. Emptied positions at the front vanish, so a row starts
// (and, by induction, ends) with cards. `out` needs room for len + 1 positions. Returns the
// new length.
template <class Part>
PILES_HD inline int montreal_move(const Part* row, int len, Part* out) {
  Part hand = 0;
  for (int i = 0; i < len; ++i) {
    if (row[i] == 0) {
      out[i] = hand;
      hand = 0;
    } else {
      out[i] = static_cast<Part>(row[i] - 1);
      ++hand;
    }
  }
  out[len] = hand;
  int lead = 0;
  while (lead < len && out[lead] == 0) ++lead;
  for (int i = lead; i <= len; ++i) out[i - lead] = out[i];
  return len + 1 - lead;
}

// Austrian solitaire (Akin and Davis 1985): one card from each pile goes to the bank, then the
// bank pays out new piles of exactly `limit` cards while it holds that many. Parts are
// non-increasing; piles above the limit (only a start can have them) stay in front of the new
// ones. `out` needs room for len + (bank + len) / limit parts. Returns the new number of piles.
template <class Part>
PILES_HD inline int austrian_move(const Part* parts, int len, int limit, Part& bank, Part* out) {
  const Part total = static_cast<Part>(bank + len);
  const int fresh = total / limit;
  bank = static_cast<Part>(total % limit);
  int o = 0, i = 0;
  for (; i < len && parts[i] - 1 >= limit; ++i) out[o++] = static_cast<Part>(parts[i] - 1);
  for (int k = 0; k < fresh; ++k) out[o++] = static_cast<Part>(limit);
  for (; i < len && parts[i] > 1; ++i) out[o++] = static_cast<Part>(parts[i] - 1);
  return o;
}

}  // namespace piles::bulgarian
