// Text and JSON of Topswops results; the keys are those of DESIGN.md section 9.
#include "host/topswops/report.hpp"

#include <fmt/format.h>

#include "host/common/output.hpp"

namespace piles::topswops {
namespace {

std::string group_digits(std::uint64_t x) {
  std::string digits = std::to_string(x), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

nlohmann::json to_json(const Game& g) {
  return {{"deck", g.start},
          {"steps", g.steps},
          {"final", g.trace.back()},
          {"final_sorted", g.ends_sorted},
          {"trace", g.trace}};
}

std::string to_text(const Game& g, bool quiet) {
  std::string out = fmt::format("deck   {}\nsteps  {}\nfinal  {}{}\n", comma_list(g.start), g.steps,
                                comma_list(g.trace.back()), g.ends_sorted ? " (sorted)" : "");
  if (quiet) return out;
  for (std::size_t i = 0; i < g.trace.size(); ++i)
    out += fmt::format("{:5}  {}\n", i, comma_list(g.trace[i]));
  return out;
}

nlohmann::json to_json(const Solution& s) {
  nlohmann::json decks = nlohmann::json::array();
  for (const FoundGame& g : s.result.decks)
    decks.push_back({{"deck", g.deck}, {"final", g.final_deck}});
  nlohmann::json j = {
      {"n", s.n},
      {"final", final_name(s.final)},
      {"max_steps", s.result.best >= 0 ? nlohmann::json(s.result.best) : nlohmann::json()},
      {"count", s.result.count},
      {"decks", decks},
      {"decks_complete", !s.result.decks_truncated()},
      {"nodes", s.result.total_nodes()},
      {"nodes_per_level", s.result.nodes},
      {"seconds", s.seconds},
      {"nodes_per_second", s.seconds > 0 ? s.nodes_computed / s.seconds : 0.0},
      {"backend", s.run.merged ? "merge" : backend_name(s.target.backend)},
      {"device", s.target.device},
      {"threads", s.target.threads},
      {"start_target", s.start_target},
      {"bound", s.bound ? nlohmann::json(*s.bound) : nlohmann::json()},
      {"complete", s.run.complete()},
      {"chunks", s.run.chunks},
      {"chunks_resumed", s.run.chunks_resumed}};
  if (s.run.shard) j["shard"] = s.run.shard->name();
  if (s.run.stopped) {
    j["stopped"] = true;
    j["chunks_done"] = s.run.chunks_done;
  }
  return j;
}

std::string to_text(const Solution& s, bool quiet) {
  std::string out =
      fmt::format("topswops n = {}{}\n", s.n,
                  s.final == Final::sorted ? ", games ending in the sorted deck" : "");
  if (s.run.shard)
    out += fmt::format("  shard          {} (a partial result: merge the journals)\n",
                       s.run.shard->name());
  if (s.result.best < 0) {
    const char* f = s.final == Final::sorted ? "f_sorted" : "f";
    out += fmt::format(
        "  longest game   none of {} steps or more{}\n", s.start_target,
        s.run.complete() ? fmt::format(", so {}({}) < {}", f, s.n, s.start_target) : "");
  } else {
    out += fmt::format("  longest game   {} steps, {} deck{}\n", s.result.best, s.result.count,
                       s.result.count == 1 ? "" : "s");
    for (const FoundGame& g : s.result.decks)
      out += fmt::format("    {}  ->  {}\n", comma_list(g.deck), comma_list(g.final_deck));
    if (s.result.decks_truncated())
      out += fmt::format("    ... ({} more)\n", s.result.count - s.result.decks.size());
  }
  out += fmt::format("  nodes          {}\n", group_digits(s.result.total_nodes()));
  if (!quiet) {
    std::string levels;
    for (std::size_t l = 0; l < s.result.nodes.size(); ++l)
      levels += fmt::format("{}{}:{}", l ? " " : "", l, s.result.nodes[l]);
    out += fmt::format("  per level      {}\n", levels);
  }
  if (s.run.merged) {
    out += fmt::format("  merged         {} chunks, {:.1f} s of computing in all\n", s.run.chunks,
                       s.seconds);
  } else {
    const std::string engine =
        s.target.backend == Backend::gpu
            ? fmt::format("gpu: {}", s.target.device)
            : fmt::format("cpu, {} thread{}", s.target.threads, s.target.threads == 1 ? "" : "s");
    out += fmt::format("  time           {:.2f} s, {:.1f} M nodes/s, {}\n", s.seconds,
                       s.seconds > 0 ? s.nodes_computed / s.seconds / 1e6 : 0.0, engine);
    if (s.run.stopped)
      out += fmt::format(
          "  stopped        at the time limit with {} of {} chunks done (a partial result)\n",
          s.run.chunks_done, s.run.chunks);
    if (s.run.chunks_resumed > 0)
      out += fmt::format("  resumed        {} of {} chunks from the checkpoint\n",
                         s.run.chunks_resumed, s.run.chunks);
  }
  return out;
}

}  // namespace piles::topswops
