#pragma once

// Text and JSON of every Scatterstone Nim result the command line prints: Grundy values of one
// pile and counts of winning positions.

#include <gmpxx.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace piles::nim {

// What `nim grundy` found: values[i] is G_k(i + 1).
struct GrundyResult {
  std::int64_t k = 2;
  std::vector<std::uint32_t> values;
  double seconds = 0;
  int threads = 1;
};

// What `nim count` found: f(n, k), or g(n) when no k was given; also modulo `mod` when given.
struct CountResult {
  int n = 0;
  std::optional<std::int64_t> k, mod;
  mpz_class count;
  std::string engine;
  double seconds = 0;
  int threads = 1;
};

// quiet leaves out the heading line.
nlohmann::json to_json(const GrundyResult& g);
std::string to_text(const GrundyResult& g, bool quiet);

// quiet prints the bare count (modulo `mod` when given).
nlohmann::json to_json(const CountResult& c);
std::string to_text(const CountResult& c, bool quiet);

}  // namespace piles::nim
