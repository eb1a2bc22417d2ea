#include "host/common/journal_problem.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>
#include <vector>

namespace piles {
namespace {

// A field's value as a user reads it: strings bare, lists comma-separated, and a long value
// cut (a bound table of 24 entries says nothing at a glance).
std::string value_text(const nlohmann::json& value) {
  constexpr std::size_t longest = 40;
  std::string text;
  if (value.is_null()) return "none";
  if (value.is_string()) {
    text = value.get<std::string>();
  } else if (value.is_array()) {
    for (const nlohmann::json& each : value)
      text +=
          (text.empty() ? "" : ",") + (each.is_string() ? each.get<std::string>() : each.dump());
  } else {
    text = value.dump();
  }
  return text.size() <= longest ? text : text.substr(0, longest - 3) + "...";
}

// A journal's problem is outside input: any field may be missing or of any type.
nlohmann::json member(const nlohmann::json& object, const std::string& key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nlohmann::json() : *it;
}

std::string field(const nlohmann::json& problem, const char* key) {
  return value_text(member(problem, key));
}

// The words and the fields they say; the problem's other fields are the plan's (depth, chunks,
// a start found by --bound or a quick search), which only a mismatch names.
struct Words {
  std::string text;
  std::set<std::string> said;
};

Words words(const nlohmann::json& problem) {
  if (!problem.is_object()) return {value_text(problem), {}};
  const std::string game = journal_text(problem, "game");
  const std::string search = journal_text(problem, "search");
  if (game == "topswops" && search.rfind("tail/", 0) == 0 && problem.contains("start"))
    return {fmt::format("topswops tail {} --from {}", field(problem, "n"),
                        value_text(member(problem["start"], "from"))),
            {"game", "n"}};
  if (game == "topswops")
    return {
        fmt::format("topswops solve {} --final {}", field(problem, "n"), field(problem, "final")),
        {"game", "n", "final"}};
  if (game == "bulgarian" && problem.contains("first") && problem.contains("last")) {
    const std::string first = field(problem, "first"), last = field(problem, "last");
    return {fmt::format("bulgarian analyze {}", first == last ? first : first + ".." + last),
            {"game", "first", "last"}};
  }
  if (game == "babylon")
    return {fmt::format("babylon table --colours {} --max-chips {}", field(problem, "colours"),
                        field(problem, "max_chips")),
            {"game", "colours", "max_chips"}};
  std::string text = game.empty() ? "a problem" : game;
  for (const auto& [key, value] : problem.items())
    if (key != "game") text += fmt::format(" {} {}", key, value_text(value));
  return {text, {"game"}};
}

}  // namespace

std::string journal_text(const nlohmann::json& line, const char* key) {
  const nlohmann::json value = member(line, key);
  return value.is_string() ? value.get<std::string>() : "";
}

std::string problem_words(const nlohmann::json& problem) {
  return words(problem).text;
}

std::string problem_mismatch(const nlohmann::json& found, const nlohmann::json& wanted) {
  const Words a = words(found), b = words(wanted);
  if (a.text != b.text) {
    // "not solve 13": the game is the same, so the second time it goes without saying.
    const std::string game = journal_text(found, "game");
    const bool same_game =
        !game.empty() && b.text.rfind(game + " ", 0) == 0 && a.text.rfind(game + " ", 0) == 0;
    return fmt::format("the journal is for {}, not {}", a.text,
                       same_game ? b.text.substr(game.size() + 1) : b.text);
  }
  std::vector<std::string> theirs, ours;
  std::set<std::string> keys;
  for (const auto& [key, value] : found.items()) keys.insert(key);
  for (const auto& [key, value] : wanted.items()) keys.insert(key);
  for (const std::string& key : keys) {
    const nlohmann::json x = member(found, key), y = member(wanted, key);
    if (x == y || a.said.count(key)) continue;
    theirs.push_back(fmt::format("{} {}", key, value_text(x)));
    ours.push_back(fmt::format("{} {}", key, value_text(y)));
  }
  if (theirs.empty()) return fmt::format("the journal is for {}, written differently", a.text);
  return fmt::format(
      "the journal is for {} with {}, not {} (another version of piles, or other "
      "options, wrote it)",
      a.text, fmt::join(theirs, ", "), fmt::join(ours, ", "));
}

}  // namespace piles
