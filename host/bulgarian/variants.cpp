#include "host/bulgarian/variants.hpp"

#include <fmt/format.h>

#include <numeric>

#include "core/bulgarian_games.hpp"
#include "core/bulgarian_variants.hpp"
#include "host/common/error.hpp"
#include "host/common/output.hpp"
#include "host/common/parse.hpp"

namespace piles::bulgarian {
namespace {

constexpr const char* variant_names =
    "plain, carolina, multiplayer:P, montreal, austrian:L (P players, new piles of L cards)";

std::int64_t sum(const std::vector<int>& v, std::size_t from = 0) {
  return std::accumulate(v.begin() + static_cast<std::ptrdiff_t>(from), v.end(), std::int64_t{0});
}

// The parameter after "name:", in [lo, hi].
int parameter(std::string_view text, std::string_view name, int lo, int hi) {
  if (text.size() <= name.size() || text[name.size()] != ':')
    throw UsageError(fmt::format("--variant: '{}' needs a parameter, {}:{}", text, name,
                                 name == "multiplayer" ? "P" : "L"));
  return static_cast<int>(
      parse_int(text.substr(name.size() + 1), fmt::format("--variant {}", name), lo, hi));
}

std::vector<int> parse_players(const Variant& v, std::string_view text) {
  std::vector<int> lens, parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t slash = text.find('/', start);
    const std::string_view group = text.substr(start, slash - start);
    if (static_cast<int>(lens.size()) == v.players)
      throw UsageError(fmt::format("start: '{}' has more than {} players", text, v.players));
    const std::vector<int> hand =
        group.empty() ? std::vector<int>{} : parse_partition(group, max_trace_cards);
    lens.push_back(static_cast<int>(hand.size()));
    parts.insert(parts.end(), hand.begin(), hand.end());
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  lens.resize(v.players, 0);
  if (sum(parts) == 0) throw UsageError(fmt::format("start: '{}' has no cards", text));
  if (sum(parts) > max_trace_cards)
    throw UsageError(fmt::format("start: '{}' has {} cards, at most {} are supported", text,
                                 sum(parts), max_trace_cards));
  lens.insert(lens.end(), parts.begin(), parts.end());
  return lens;
}

std::vector<int> parse_row(std::string_view text) {
  const auto values = parse_int_list(text, "row", 0, max_trace_cards);
  if (values.front() == 0 || values.back() == 0)
    throw UsageError(
        fmt::format("row: '{}' must start and end with a position holding cards", text));
  const std::vector<int> row(values.begin(), values.end());
  if (sum(row) > max_trace_cards)
    throw UsageError(fmt::format("row: '{}' has {} cards, at most {} are supported", text, sum(row),
                                 max_trace_cards));
  return row;
}

// One move of a state as the trace keeps it, `spare` holding the old state afterwards.
void advance(const Variant& v, std::vector<int>& s, std::vector<int>& spare) {
  const int len = static_cast<int>(s.size());
  switch (v.kind) {
    case VariantKind::plain:
      spare.resize(len + 1);
      spare.resize(move(s.data(), len, spare.data()));
      break;
    case VariantKind::carolina:
      spare.resize(len + 1);
      spare.resize(carolina_move(s.data(), len, spare.data()));
      break;
    case VariantKind::montreal:
      spare.resize(len + 1);
      spare.resize(montreal_move(s.data(), len, spare.data()));
      break;
    case VariantKind::austrian: {
      int bank = s[0];
      const int piles = len - 1;
      spare.resize(1 + piles + (bank + piles) / v.limit);
      spare.resize(1 + austrian_move(s.data() + 1, piles, v.limit, bank, spare.data() + 1));
      spare[0] = bank;
      break;
    }
    case VariantKind::multiplayer: {
      const int p = v.players;
      spare.resize(len + p);
      multiplayer_move(s.data() + p, s.data(), p, spare.data() + p, spare.data());
      spare.resize(p + std::accumulate(spare.begin(), spare.begin() + p, 0));
      break;
    }
  }
  std::swap(s, spare);
}

}  // namespace

std::string Variant::name() const {
  switch (kind) {
    case VariantKind::plain:
      return "plain";
    case VariantKind::carolina:
      return "carolina";
    case VariantKind::multiplayer:
      return fmt::format("multiplayer:{}", players);
    case VariantKind::montreal:
      return "montreal";
    case VariantKind::austrian:
      return fmt::format("austrian:{}", limit);
  }
  return "";
}

Variant parse_variant(std::string_view text) {
  Variant v;
  const std::string_view head = text.substr(0, text.find(':'));
  if (head == "plain" && text == head) return v;
  if (head == "carolina" && text == head) {
    v.kind = VariantKind::carolina;
  } else if (head == "montreal" && text == head) {
    v.kind = VariantKind::montreal;
  } else if (head == "multiplayer") {
    v.kind = VariantKind::multiplayer;
    v.players = parameter(text, head, 1, max_players);
  } else if (head == "austrian") {
    v.kind = VariantKind::austrian;
    v.limit = parameter(text, head, 1, static_cast<int>(max_trace_cards));
  } else {
    const std::string near =
        nearest(head, {"plain", "carolina", "multiplayer", "montreal", "austrian"});
    throw UsageError(
        fmt::format("--variant: '{}' is not one of {}{}", text, variant_names,
                    near.empty() || near == head ? "" : fmt::format("; did you mean {}?", near)));
  }
  return v;
}

std::vector<int> parse_start(const Variant& v, std::string_view text, std::string_view bank) {
  if (!bank.empty() && v.kind != VariantKind::austrian)
    throw UsageError(fmt::format("--bank: '{}' is for --variant austrian:L only", bank));
  switch (v.kind) {
    case VariantKind::plain:
      return parse_partition(text, max_trace_cards);
    case VariantKind::carolina: {
      const auto values = parse_int_list(text, "piles", 1, max_trace_cards);
      const std::vector<int> piles(values.begin(), values.end());
      if (sum(piles) > max_trace_cards)
        throw UsageError(fmt::format("piles: '{}' has {} cards, at most {} are supported", text,
                                     sum(piles), max_trace_cards));
      return piles;
    }
    case VariantKind::montreal:
      return parse_row(text);
    case VariantKind::multiplayer:
      return parse_players(v, text);
    case VariantKind::austrian: {
      std::vector<int> s = parse_partition(text, max_trace_cards);
      const std::int64_t cards = sum(s);
      const std::int64_t b =
          bank.empty() ? 0 : parse_int(bank, "--bank", 0, max_trace_cards - cards);
      s.insert(s.begin(), static_cast<int>(b));
      return s;
    }
  }
  return {};
}

Trace trace_variant(const Variant& v, const std::vector<int>& start, bool list,
                    Progress* progress) {
  if (v.is_plain()) return trace(start, list, progress);
  Trace t = play_until_repeat(
      start, [&](std::vector<int>& s, std::vector<int>& spare) { advance(v, s, spare); }, list,
      progress);
  t.cards = sum(start, v.kind == VariantKind::multiplayer ? v.players : 0);
  return t;
}

std::string state_text(const Variant& v, const std::vector<int>& s) {
  if (v.kind == VariantKind::austrian)
    return fmt::format("{}  bank {}", paren_list(std::vector<int>(s.begin() + 1, s.end())), s[0]);
  if (v.kind != VariantKind::multiplayer) return paren_list(s);
  std::string out;
  auto piles = s.begin() + v.players;
  for (int p = 0; p < v.players; ++p) {
    out +=
        fmt::format("{}{}", p == 0 ? "" : " | ", paren_list(std::vector<int>(piles, piles + s[p])));
    piles += s[p];
  }
  return out;
}

nlohmann::json state_json(const Variant& v, const std::vector<int>& s) {
  if (v.kind == VariantKind::austrian)
    return {{"piles", std::vector<int>(s.begin() + 1, s.end())}, {"bank", s[0]}};
  if (v.kind != VariantKind::multiplayer) return s;
  nlohmann::json players = nlohmann::json::array();
  auto piles = s.begin() + v.players;
  for (int p = 0; p < v.players; ++p) {
    players.push_back(std::vector<int>(piles, piles + s[p]));
    piles += s[p];
  }
  return players;
}

}  // namespace piles::bulgarian
