#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace piles {

// "topswops solve 14 --final any": the problem a journal names, in the words of the command
// that writes such a journal. A problem of no known shape is written as its fields.
std::string problem_words(const nlohmann::json& problem);

// Why a journal of `found` does not serve `wanted`, in those words: "the journal is for
// topswops solve 14 --final any, not solve 13 --final any"; where the words agree, the fields
// that differ ("... with depth 6, not depth 7").
std::string problem_mismatch(const nlohmann::json& found, const nlohmann::json& wanted);

}  // namespace piles
