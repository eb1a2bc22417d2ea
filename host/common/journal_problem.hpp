#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace piles {

// A text field of a journal line's JSON (a problem or a run line: outside input, so any field
// may be missing or of another type): its string, else "".
std::string journal_text(const nlohmann::json& line, const char* key);

// "topswops solve 14 --final any": the problem a journal names, in the words of the command
// that writes such a journal. A problem of no known shape is written as its fields.
std::string problem_words(const nlohmann::json& problem);

// Why a journal of `found` does not serve `wanted`, in those words: "the journal is for
// topswops solve 14 --final any, not solve 13 --final any"; where the words agree, the fields
// that differ ("... with depth 6, not depth 7").
std::string problem_mismatch(const nlohmann::json& found, const nlohmann::json& wanted);

}  // namespace piles
