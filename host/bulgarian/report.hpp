#pragma once

// Text and JSON of every Bulgarian solitaire result the command line prints: a trace, an
// analysis of one n, what a shard's journal holds, and a run of the stochastic game.

#include <nlohmann/json.hpp>
#include <string>

#include "host/bulgarian/analysis.hpp"
#include "host/bulgarian/stochastic.hpp"
#include "host/bulgarian/trace.hpp"
#include "host/bulgarian/variants.hpp"
#include "host/job/driver.hpp"

namespace piles::bulgarian {

// `bulgarian trace`, with the partitions along the way where the trace holds them. A variant's
// trace has the same keys and lines, plus the variant's name.
nlohmann::json to_json(const Trace& t);
std::string to_text(const Trace& t);
nlohmann::json to_json(const Variant& v, const Trace& t);
std::string to_text(const Variant& v, const Trace& t);

// `bulgarian analyze` and `merge`, one n: quiet leaves out the histogram and the engine.
nlohmann::json to_json(const Analysis& a);
std::string to_text(const Analysis& a, bool quiet);
// The cycle lengths as the result tables write them: "count x length" for each length.
std::string cycle_lengths_text(const Analysis& a);

// A shard of `analyze` prints no n (each needs every chunk), only what its journal holds.
nlohmann::json shard_json(const job::Status& status);
std::string shard_text(const job::Status& status);

// `bulgarian random`: quiet leaves out the backend and the time.
nlohmann::json to_json(const RandomResult& r);
std::string to_text(const RandomResult& r, bool quiet);

}  // namespace piles::bulgarian
