#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace piles::cli {

// A parse error said for a person after a typo: "unknown option --thread; did you mean
// --threads?", "unknown command topswop; did you mean topswops?", or the parser's own words where
// it is not about an unknown word.
std::string explain_parse_error(const CLI::App& app, const CLI::ParseError& error);

// The name among `names` nearest to `word` by edit distance, when near enough to be a typo of
// it; else empty.
std::string nearest(const std::string& word, const std::vector<std::string>& names);

}  // namespace piles::cli
