#pragma once

#include <string>

#include "host/topswops/partial.hpp"
#include "host/topswops/plan.hpp"

namespace piles::topswops {

// Plays every game a GPU reported for a chunk on the host before it is printed or journaled:
// each start must be a permutation of 1..n whose game takes the chunk's best length and ends in
// the reported deck (the sorted deck under --final sorted), and the chunk cannot list more decks
// than it counts. Throws std::runtime_error naming `source`, the chunk and the deck otherwise.
void replay_games(const Partial& partial, int n, Final final, int chunk, const std::string& source);

}  // namespace piles::topswops
