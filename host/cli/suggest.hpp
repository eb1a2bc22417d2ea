#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace piles::cli {

// A parse error said in piles' words: "unknown option --thread; did you mean --threads?",
// "unknown command topswop; did you mean topswops?", "--threads needs a value", "piles topswops
// solve: N is required".
std::string explain_parse_error(const CLI::App& app, const CLI::ParseError& error);

// A check for an option that takes one of `names`; its help shows {a,b,c} and a value outside
// is refused as "--final: 'sortd' is not one of any, sorted; did you mean sorted?".
CLI::Validator one_of(std::vector<std::string> names);

// A check for an option that names a file: an empty name is refused rather than taken as no
// file at all.
extern const CLI::Validator file_name;

// The command `words` name below `app` ("topswops solve"); an unknown word is a UsageError
// with the nearest spelling, as on the command line.
const CLI::App& find_command(const CLI::App& app, const std::vector<std::string>& words);

}  // namespace piles::cli
