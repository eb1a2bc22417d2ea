#pragma once

// Text and JSON of every Topswops result the command line prints: a played deck and a solve.

#include <nlohmann/json.hpp>
#include <string>

#include "host/topswops/grow.hpp"
#include "host/topswops/play.hpp"
#include "host/topswops/solve.hpp"
#include "host/topswops/tail_job.hpp"

namespace piles::topswops {

// `topswops play`: quiet leaves out the decks along the game.
nlohmann::json to_json(const Game& g);
std::string to_text(const Game& g, bool quiet);

// `topswops grow`: the game grown from `trunk` (within `budget`, which JSON gives); quiet leaves
// out the decks along the grown game.
nlohmann::json to_json(const std::vector<int>& trunk, const GrownGame& grown, std::uint64_t budget);
std::string to_text(const std::vector<int>& trunk, const GrownGame& grown, bool quiet);

// `topswops solve` and `merge`: quiet leaves out the nodes per level and the time, leaving the
// answer alone.
nlohmann::json to_json(const Solution& s);
std::string to_text(const Solution& s, bool quiet);

// `topswops estimate`: quiet leaves out the levels and the probes.
nlohmann::json to_json(const Plan& plan, const Estimate& e, int threads);
std::string to_text(const Plan& plan, const Estimate& e, int threads, bool quiet);

// `topswops tail`: quiet leaves out the lengths no deck has.
nlohmann::json to_json(const TailResult& r);
std::string to_text(const TailResult& r, bool quiet);

}  // namespace piles::topswops
