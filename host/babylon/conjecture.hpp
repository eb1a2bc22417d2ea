#pragma once

#include <optional>
#include <string>
#include <vector>

namespace piles::babylon {

// A rule read off the solved tables, in the manner of Georgakopoulos and Winkler's Theorem 4.1
// for two colours. A rule speaks only about the starts its statement covers.
struct Conjecture {
  std::string name;       // short handle for tables and tests
  int colours = 0;        // the starts it is about
  std::string statement;  // in words, for the results
  // True: the second player wins; false: the first; nullopt: the rule says nothing here.
  std::optional<bool> (*second_wins)(const std::vector<int>& counts) = nullptr;
};

// Every conjecture, two colours (Theorem 4.1, proven) first.
const std::vector<Conjecture>& conjectures();

// The winner the conjectures predict for a start (counts in any order): true when the second
// player wins, nullopt when no conjecture covers it. No two conjectures cover the same start.
std::optional<bool> predicted_second_wins(const std::vector<int>& counts);

// How a conjecture fares on solved starts.
struct Verdict {
  int covered = 0, agree = 0;
  std::vector<std::vector<int>> exceptions;  // the covered starts it gets wrong, in table order
};
struct Solved {
  std::vector<int> counts;
  bool second_wins = false;
};
Verdict judge(const Conjecture& c, const std::vector<Solved>& starts);

}  // namespace piles::babylon
