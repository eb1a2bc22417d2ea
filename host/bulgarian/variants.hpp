#pragma once

// The variants of Bulgarian solitaire on the command line (`--variant NAME`): their names, the
// starts a trace takes, and a trace of each. A trace keeps a state as a vector of ints:
//   plain        the partition
//   carolina     the piles in their order
//   multiplayer  each player's number of piles, then every player's piles in turn
//   montreal     the row, empty positions as 0
//   austrian     the bank, then the piles

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "host/bulgarian/trace.hpp"

namespace piles::bulgarian {

enum class VariantKind { plain, carolina, multiplayer, montreal, austrian };

struct Variant {
  VariantKind kind = VariantKind::plain;
  int players = 1;  // multiplayer:P
  int limit = 0;    // austrian:L, the size of a new pile

  bool is_plain() const { return kind == VariantKind::plain; }
  // As --variant takes it: "carolina", "multiplayer:3", "austrian:3", ...
  std::string name() const;
};

// Parses --variant; throws UsageError.
Variant parse_variant(std::string_view text);

// A start from the command line: a partition (plain, austrian), piles in their order
// (carolina), the row with 0 for empty positions (montreal), or each player's partition, the
// players separated by '/' (multiplayer; players left out hold nothing). `bank` is Austrian's
// bank (--bank, empty for 0). Throws UsageError.
std::vector<int> parse_start(const Variant& v, std::string_view text, std::string_view bank);

// Plays the variant from `start` (as parse_start writes it) until a state repeats; the plain
// game on its constant-time Walk. `progress` counts the moves.
Trace trace_variant(const Variant& v, const std::vector<int>& start, bool list = true,
                    Progress* progress = nullptr);

// One state as a trace prints it: "(4, 3, 3)  bank 0", "(3, 1) | (2)", ...; and as JSON: a
// list (plain, carolina, montreal), a list of each player's piles, or {"piles", "bank"}.
std::string state_text(const Variant& v, const std::vector<int>& state);
nlohmann::json state_json(const Variant& v, const std::vector<int>& state);

}  // namespace piles::bulgarian
