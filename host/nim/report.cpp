// Text and JSON of Scatterstone Nim results; the keys are those of DESIGN.md section 9.
#include "host/nim/report.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "host/common/output.hpp"

namespace piles::nim {
namespace {

const char* rule_of(std::int64_t k) {
  if (k == 2) return "(i + 1) mod 2";
  if (k == 3) return "mex over 2- and 3-way splits";
  return "i - 1";
}

// A JSON number where the count fits 64 bits, else its decimal string (DESIGN.md section 9).
nlohmann::json json_count(const mpz_class& count) {
  if (count.fits_ulong_p()) return count.get_ui();
  return count.get_str();
}

mpz_class count_mod(const CountResult& c) {
  return c.count % static_cast<long>(*c.mod);
}

}  // namespace

nlohmann::json to_json(const GrundyResult& g) {
  return {{"k", g.k},         {"values", g.values},  {"rule", rule_of(g.k)}, {"seconds", g.seconds},
          {"backend", "cpu"}, {"threads", g.threads}};
}

std::string to_text(const GrundyResult& g, bool quiet) {
  const int upto = static_cast<int>(g.values.size());
  std::string out;
  if (!quiet)
    out += fmt::format("G_{}(1..{})  rule: {}  ({:.3f} s)\n", g.k, upto, rule_of(g.k), g.seconds);
  constexpr int per_line = 10;
  for (int first = 0; first < upto; first += per_line) {
    out += fmt::format("{:>7}:", first + 1);
    for (int i = first; i < std::min(upto, first + per_line); ++i)
      out += fmt::format(" {:>5}", g.values[i]);
    out += "\n";
  }
  return out;
}

nlohmann::json to_json(const CountResult& c) {
  nlohmann::json out = {{"n", c.n}};
  if (c.k) out["k"] = *c.k;
  out["count"] = json_count(c.count);
  if (c.mod) {
    out["mod"] = *c.mod;
    out["count_mod"] = json_count(count_mod(c));
  }
  out.update(
      {{"engine", c.engine}, {"seconds", c.seconds}, {"backend", "cpu"}, {"threads", c.threads}});
  return out;
}

std::string to_text(const CountResult& c, bool quiet) {
  // Quiet is the bare number, for a script to read.
  if (quiet) return fmt::format("{}\n", (c.mod ? count_mod(c) : c.count).get_str());
  std::string out =
      c.k ? fmt::format("f({}, {}): winning positions with {}, splits into 2..{} piles\n", c.n,
                        *c.k, plural(c.n, "stone"), *c.k)
          : fmt::format("g({}) = f({}, 2) + ... + f({}, {})\n", c.n, c.n, c.n, c.n);
  out += fmt::format("count      {}\n", group_digits(c.count.get_str()));
  if (c.mod)
    out += fmt::format("modulo     {}\nremainder  {}  (the count mod {})\n", group_digits(*c.mod),
                       group_digits(count_mod(c).get_str()), group_digits(*c.mod));
  out += fmt::format("engine     {}\ntime       {:.3f} s\n", c.engine, c.seconds);
  return out;
}

}  // namespace piles::nim
