#pragma once

#include <string>
#include <vector>

#include "host/babylon/conjecture.hpp"
#include "host/babylon/table.hpp"
#include "host/results/writer.hpp"

namespace piles::results {

// One conjecture judged on the solved table of its number of colours.
struct Judged {
  const babylon::Conjecture* conjecture;
  const babylon::Table* table;
  babylon::Verdict verdict;
};

// Every conjecture against every table of its number of colours.
std::vector<Judged> judge_all(const std::vector<const babylon::Table*>& tables);

// results/babylon/conjectures.md: each rule, its support, every exception, and the
// second-player wins by smallest colour and parity behind the rules.
void write_conjectures(Writer& writer, const std::vector<Judged>& judged,
                       const std::vector<const babylon::Table*>& tables);

// "conjecture 'statement': a of c agree (k exceptions)" for each conjecture on this table.
std::string verdicts_text(const std::vector<Judged>& judged, const babylon::Table& t);

}  // namespace piles::results
