#include "host/cli/suggest.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "host/common/error.hpp"
#include "host/common/parse.hpp"

namespace piles::cli {
namespace {

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
  const std::string option = word.substr(0, word.find('='));
  std::vector<std::string> names;
  for (std::size_t i = 0; i < chain.size(); ++i)
    for (const CLI::Option* option_of : chain[i]->get_options())
      for (const std::string& name : option_of->get_lnames()) {
        // Spelt right but refused: it was given before the command it belongs to.
        if (i > 0 && "--" + name == option)
          return fmt::format("{} is an option of {}: give it after {}", option,
                             command_path({chain.begin(), chain.begin() + i + 1}),
                             chain[i]->get_name());
        names.push_back("--" + name);
      }
  const std::string near = nearest(option, names);
  if (!near.empty()) return fmt::format("unknown option {}; did you mean {}?", option, near);
  return fmt::format("unknown option {} (see {} --help)", option, command_path(chain));
}

std::vector<std::string> command_names(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::App* sub : command.get_subcommands({})) names.push_back(sub->get_name());
  return names;
}

std::string unknown_command(const std::string& word, const CLI::App& parent,
                            const std::string& path) {
  const std::vector<std::string> names = command_names(parent);
  const std::string near = nearest(word, names);
  if (!near.empty()) return fmt::format("unknown command {}; did you mean {}?", word, near);
  return fmt::format("unknown command {} ({} takes {})", word, path, fmt::join(names, ", "));
}

std::string unknown_word(const std::string& word, const std::vector<const CLI::App*>& chain) {
  if (chain.back()->get_subcommands({}).empty())
    return fmt::format("{}: unexpected argument '{}'", command_path(chain), word);
  return unknown_command(word, *chain.back(), command_path(chain));
}

bool is_option(const std::string& word) {
  return word.size() > 1 && word[0] == '-';
}

// CLI11 starts its messages about one option with the option's name and a colon.
std::string name_in(const std::string& message) {
  return message.substr(0, message.find(':'));
}

}  // namespace

std::string explain_parse_error(const CLI::App& app, const CLI::ParseError& error) {
  const auto chain = command_chain(app);
  const std::vector<std::string> extras = app.remaining(true);
  // A misspelt command leaves the options meant for it unknown too: the command is the news.
  if (!extras.empty() && !is_option(extras.front()) && !chain.back()->get_subcommands({}).empty())
    return unknown_word(extras.front(), chain);
  for (const std::string& word : extras)
    if (is_option(word)) return unknown_option(word, chain);
  if (!extras.empty()) return unknown_word(extras.front(), chain);
  const std::string message = error.what();
  if (dynamic_cast<const CLI::RequiredError*>(&error)) {
    if (chain.back()->get_subcommands().empty() && !chain.back()->get_subcommands({}).empty())
      return fmt::format("{}: a command is required ({})", command_path(chain),
                         fmt::join(command_names(*chain.back()), ", "));
    return fmt::format("{}: {} (see {} --help)", command_path(chain), message, command_path(chain));
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&error)) {
    if (message.find(" missing") != std::string::npos)
      return fmt::format("{} needs a value", name_in(message));
    if (message.find("At Most") != std::string::npos)
      return fmt::format("{} is given more than once", name_in(message));
  }
  // Our options take text and check it themselves: only a flag given a value is converted.
  if (dynamic_cast<const CLI::ConversionError*>(&error)) {
    constexpr std::string_view head = "Could not convert: ";
    const std::size_t equals = message.find(" = ");
    if (message.rfind(head, 0) == 0 && equals != std::string::npos) {
      const std::string name = message.substr(head.size(), equals - head.size());
      return fmt::format("{} is a flag: '{}' is not a value it takes (give {} alone)", name,
                         message.substr(equals + 3), name);
    }
    if (message.find("for a flag") != std::string::npos)
      return fmt::format("{} is a flag: give it alone", name_in(message));
  }
  return message;
}

CLI::Validator one_of(std::vector<std::string> names) {
  const std::string description = fmt::format("{{{}}}", fmt::join(names, ","));
  return CLI::Validator(
      [names = std::move(names)](std::string& value) -> std::string {
        if (std::find(names.begin(), names.end(), value) != names.end()) return {};
        return not_one_of(value, names);
      },
      description);
}

const CLI::Validator file_name(
    [](std::string& value) -> std::string { return value.empty() ? "the file name is empty" : ""; },
    "");

const CLI::App& find_command(const CLI::App& app, const std::vector<std::string>& words) {
  const CLI::App* command = &app;
  std::string path = "piles";
  for (const std::string& word : words) {
    const auto subs = command->get_subcommands({});
    const auto it = std::find_if(subs.begin(), subs.end(),
                                 [&word](const CLI::App* sub) { return sub->get_name() == word; });
    if (it == subs.end()) {
      if (subs.empty()) throw UsageError(fmt::format("{}: has no command {}", path, word));
      throw UsageError(unknown_command(word, *command, path));
    }
    command = *it;
    path += " " + word;
  }
  return *command;
}

}  // namespace piles::cli
