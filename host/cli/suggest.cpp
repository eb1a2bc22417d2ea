#include "host/cli/suggest.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <numeric>
#include <vector>

namespace piles::cli {
namespace {

// Edits (insert, delete, substitute, swap two neighbours) that turn a into b.
std::size_t distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// The commands the line named, outermost first.
std::vector<const CLI::App*> command_chain(const CLI::App& app) {
  std::vector<const CLI::App*> chain{&app};
  while (!chain.back()->get_subcommands().empty())
    chain.push_back(chain.back()->get_subcommands().front());
  return chain;
}

std::string command_path(const std::vector<const CLI::App*>& chain) {
  std::string path = "piles";
  for (std::size_t i = 1; i < chain.size(); ++i) path += " " + chain[i]->get_name();
  return path;
}

std::string unknown_option(const std::string& word, const std::vector<const CLI::App*>& chain) {
  std::vector<std::string> names;
  for (const CLI::App* command : chain)
    for (const CLI::Option* option : command->get_options())
      for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
  const std::string option = word.substr(0, word.find('='));
  const std::string near = nearest(option, names);
  if (!near.empty()) return fmt::format("unknown option {}; did you mean {}?", option, near);
  return fmt::format("unknown option {} (see {} --help)", option, command_path(chain));
}

std::string unknown_word(const std::string& word, const std::vector<const CLI::App*>& chain) {
  const auto commands = chain.back()->get_subcommands({});
  if (commands.empty())
    return fmt::format("{}: unexpected argument '{}'", command_path(chain), word);
  std::vector<std::string> names;
  for (const CLI::App* command : commands) names.push_back(command->get_name());
  const std::string near = nearest(word, names);
  if (!near.empty()) return fmt::format("unknown command {}; did you mean {}?", word, near);
  return fmt::format("unknown command {} ({} takes {})", word, command_path(chain),
                     fmt::join(names, ", "));
}

}  // namespace

std::string nearest(const std::string& word, const std::vector<std::string>& names) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const std::string& name : names) {
    const std::size_t d = distance(word, name);
    if (d < best_distance) best = name, best_distance = d;
  }
  return best;
}

std::string explain_parse_error(const CLI::App& app, const CLI::ParseError& error) {
  const auto chain = command_chain(app);
  const std::vector<std::string> extras = app.remaining(true);
  for (const std::string& word : extras)
    if (word.size() > 1 && word[0] == '-') return unknown_option(word, chain);
  if (!extras.empty()) return unknown_word(extras.front(), chain);
  const auto commands = chain.back()->get_subcommands({});
  if (dynamic_cast<const CLI::RequiredError*>(&error) && chain.back()->get_subcommands().empty() &&
      !commands.empty()) {
    std::vector<std::string> names;
    for (const CLI::App* command : commands) names.push_back(command->get_name());
    return fmt::format("{}: a command is required ({})", command_path(chain),
                       fmt::join(names, ", "));
  }
  return error.what();
}

}  // namespace piles::cli
