// Text and JSON of Bulgarian solitaire results; the keys are those of DESIGN.md section 9.
#include "host/bulgarian/report.hpp"

#include <fmt/format.h>

#include <numeric>

#include "core/bulgarian.hpp"
#include "host/common/output.hpp"
#include "host/common/provenance.hpp"

namespace piles::bulgarian {
nlohmann::json to_json(const Trace& t) {
  return to_json(Variant{}, t);
}

std::string to_text(const Trace& t) {
  return to_text(Variant{}, t);
}

nlohmann::json to_json(const Variant& v, const Trace& t) {
  nlohmann::json j = {{"start", state_json(v, t.start)},
                      {"n", t.cards},
                      {"transient", t.transient},
                      {"cycle_length", t.cycle_length}};
  if (!v.is_plain()) j["variant"] = v.name();
  if (t.partitions.empty()) return j;
  nlohmann::json states = nlohmann::json::array();
  for (const auto& s : t.partitions) states.push_back(state_json(v, s));
  j["trace"] = states;
  return j;
}

std::string to_text(const Variant& v, const Trace& t) {
  std::string out = v.is_plain() ? "" : fmt::format("variant       {}\n", v.name());
  out += fmt::format("start         {}   n = {}\ntransient     {}\ncycle length  {}\n",
                     state_text(v, t.start), group_digits(t.cards), group_digits(t.transient),
                     group_digits(t.cycle_length));
  for (std::size_t i = 0; i < t.partitions.size(); ++i) {
    const char* mark = static_cast<int>(i) == t.transient                   ? "   <- cycle"
                       : i + 1 == t.partitions.size() && t.cycle_length > 1 ? "   (repeat)"
                                                                            : "";
    out += fmt::format("{:5}  {}{}\n", i, state_text(v, t.partitions[i]), mark);
  }
  return out;
}

nlohmann::json to_json(const Analysis& a) {
  nlohmann::json lengths = nlohmann::json::object();
  for (const auto& [length, count] : a.cycle_lengths) lengths[std::to_string(length)] = count;
  nlohmann::json j = {{"n", a.n},
                      {"partitions", a.partitions},
                      {"cycles", a.cycles},
                      {"cycle_lengths", lengths},
                      {"max_transient", a.max_transient()},
                      {"max_transient_count", a.max_transient_count()},
                      {"garden_of_eden", a.garden_of_eden},
                      {"transient_histogram", a.transient_histogram},
                      {"griggs_ho", griggs_ho(a.n)},
                      {"conjecture_holds", a.conjecture_holds()},
                      {"engine", engine_name(a.engine)},
                      {"backend", backend_name(a.target.backend)},
                      {"device", a.target.device},
                      {"threads", a.target.threads},
                      {"seconds", a.seconds}};
  // Griggs and Ho's formula is about the plain game only, from n = 3 on; `partitions` counts
  // the states.
  if (!a.variant.empty()) j["variant"] = a.variant;
  if (!a.variant.empty() || !a.formula_applies()) {
    j["griggs_ho"] = nullptr;
    j["conjecture_holds"] = nullptr;
  }
  return j;
}

std::string cycle_lengths_text(const Analysis& a) {
  std::string text;
  for (const auto& [length, count] : a.cycle_lengths)
    text += fmt::format("{}{}x{}", text.empty() ? "" : " ", count, length);
  return text;
}

std::string to_text(const Analysis& a, bool quiet) {
  std::string lengths;
  for (const auto& [length, count] : a.cycle_lengths)
    lengths +=
        fmt::format("{}length {}: {}", lengths.empty() ? "" : ", ", length, group_digits(count));
  const bool plain = a.variant.empty();
  std::string out = fmt::format(
      "n = {}{}\n"
      "  {}         {}\n"
      "  cycles             {}  ({})\n"
      "  longest transient  {}, {}\n",
      a.n, plain ? "" : ", " + a.variant, plain ? "partitions" : "states    ",
      group_digits(a.partitions), group_digits(a.cycles), lengths,
      plural(a.max_transient(), "move"),
      plural(a.max_transient_count(), plain ? "partition" : "state"));
  if (plain && !a.formula_applies())
    out += "  Griggs-Ho formula  n/a  (stated from n = 3 on)\n";
  else if (plain)
    out += fmt::format("  Griggs-Ho formula  {}  ({})\n", griggs_ho(a.n),
                       a.conjecture_holds() ? "holds" : "FAILS");
  out += fmt::format("  Garden of Eden     {}\n", group_digits(a.garden_of_eden));
  if (quiet) return out;
  std::string histogram;
  for (std::size_t d = 0; d < a.transient_histogram.size(); ++d)
    histogram += fmt::format("{}{}:{}", d == 0 ? "" : " ", d, a.transient_histogram[d]);
  out += fmt::format("  moves to cycle     {}\n  engine             {}, {}, {:.3f} s\n", histogram,
                     engine_name(a.engine), describe_target(a.target), a.seconds);
  return out;
}

nlohmann::json shard_json(const job::Status& status) {
  return {{"shard", status.shard->name()},
          {"complete", false},
          {"chunks", status.chunks},
          {"chunks_done", status.chunks_done},
          {"chunks_resumed", status.chunks_resumed}};
}

std::string shard_text(const job::Status& status) {
  return fmt::format(
      "shard {}: {} of {} chunks in the journal (a partial result: merge the journals)\n",
      status.shard->name(), status.chunks_done, status.chunks);
}

nlohmann::json to_json(const RandomResult& r) {
  return {{"n", r.n},
          {"p", r.spec.p},
          {"runs", r.spec.runs},
          {"steps", r.spec.steps},
          {"seed", r.spec.seed},
          {"start", r.spec.start},
          {"mean_shape", r.mean_shape()},
          {"mean_piles", r.mean_piles()},
          {"triangle", r.triangle()},
          {"distance_to_triangle", r.distance_to_triangle()},
          {"shape_sums", r.shape_sums},
          {"backend", backend_name(r.target.backend)},
          {"device", r.target.device},
          {"threads", r.target.threads},
          {"seconds", r.seconds}};
}

std::string to_text(const RandomResult& r, bool quiet) {
  std::string mean;
  for (const double v : r.mean_shape())
    mean += fmt::format("{}{:.3f}", mean.empty() ? "" : ", ", v);
  std::string out = fmt::format(
      "n = {}, p = {}, {} from {}, {}, seed {}\n"
      "  mean shape          ({})\n"
      "  triangle            {}\n"
      "  distance            {:.3f}  (sum of |mean - triangle| over the piles)\n"
      "  mean piles          {:.3f}\n",
      r.n, r.spec.p, plural(r.spec.steps, "step"), paren_list(r.spec.start),
      plural(r.spec.runs, "run"), r.spec.seed, mean, paren_list(r.triangle()),
      r.distance_to_triangle(), r.mean_piles());
  if (!quiet)
    out +=
        fmt::format("  backend             {}, {:.3f} s\n", describe_target(r.target), r.seconds);
  return out;
}

}  // namespace piles::bulgarian
