// Text and JSON of Topswops results; the keys are those of DESIGN.md section 9.
#include "host/topswops/report.hpp"

#include <fmt/format.h>

#include <cmath>

#include "host/common/output.hpp"
#include "host/common/provenance.hpp"

namespace piles::topswops {
namespace {

// The target at which a solve's tail is quoted: the longest game found, else the start.
int tail_target(const Solution& s) {
  return s.result.best >= 0 ? s.result.best : s.start_target;
}

std::string engine_text(const RunTarget& target) {
  if (target.backend == Backend::cpu) return describe_target(target);
  const std::string ranks = target.ranks > 1 ? fmt::format(", {} MPI ranks", target.ranks) : "";
  return fmt::format("gpu: {}{}", target.device, ranks);
}

// The last lines of a run's report: stopped early, resumed from a journal.
std::string run_status_text(const job::Status& run) {
  std::string out;
  if (run.stopped)
    out += fmt::format("  stopped        {}with {} of {} chunks done (a partial result)\n",
                       run.stopped_by.empty() ? "" : "by " + run.stopped_by + " ", run.chunks_done,
                       run.chunks);
  if (run.chunks_resumed > 0)
    out += fmt::format("  resumed        {} of {} chunks from the checkpoint\n", run.chunks_resumed,
                       run.chunks);
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

nlohmann::json to_json(const std::vector<int>& trunk, const GrownGame& grown,
                       std::uint64_t budget) {
  nlohmann::json j = to_json(play(grown.deck));
  j["grown_from"] = trunk;
  j["grown_from_steps"] = play(trunk).steps;
  j["looked_at"] = grown.looked_at;
  j["budget"] = budget;
  j["complete"] = grown.complete;
  return j;
}

std::string to_text(const std::vector<int>& trunk, const GrownGame& grown, bool quiet) {
  const Game game = play(grown.deck);
  const std::string final = comma_list(game.trace.back());
  return fmt::format(
      "from   {} ({} cards, {})\nsearch {} decks looked at{}\n{}", comma_list(trunk), trunk.size(),
      plural(play(trunk).steps, "step"), group_digits(grown.looked_at),
      grown.complete ? fmt::format(", all there are: no game on {} cards ending in {} is longer",
                                   grown.deck.size(), final)
                     : fmt::format(" (the --budget): a longer game may end in {}", final),
      to_text(game, quiet));
}

nlohmann::json to_json(const Solution& s) {
  nlohmann::json decks = nlohmann::json::array();
  for (const FoundGame& g : s.result.decks)
    decks.push_back({{"deck", g.deck}, {"final", g.final_deck}});
  nlohmann::json j = {
      {"n", s.n},
      {"final", final_name(s.final)},
      // The backward tree's nodes and levels are not the forward search's.
      {"search", s.backward ? "backward" : "forward"},
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
      {"start_from", s.bound                    ? "bound"
                     : !s.start_deck.empty()    ? "quick search"
                     : s.final == Final::sorted ? "a(n-1)"
                                                : "f(n-1)"},
      {"bound", s.bound ? nlohmann::json(*s.bound) : nlohmann::json()},
      {"complete", s.run.complete()},
      {"chunks", s.run.chunks},
      {"chunks_resumed", s.run.chunks_resumed},
      {"chunks_on_host", s.chunks_on_host}};
  if (s.tail.n != 0) j["tail"] = {{"from", s.tail.from}, {"cap", s.tail.cap(tail_target(s))}};
  if (s.run.shard) j["shard"] = s.run.shard->name();
  if (!s.devices.empty()) j["device_shares"] = job::devices_json(s.devices);
  if (!s.start_deck.empty()) j["start_deck"] = s.start_deck;
  if (!s.quick_cut_by.empty()) j["quick_search_cut_by"] = s.quick_cut_by;
  if (!s.grown_from.empty()) j["start_grown_from"] = s.grown_from;
  if (s.estimate)
    j["estimate"] = {{"nodes", std::llround(s.estimate->nodes)},
                     {"relative_error", rounded(s.estimate->relative_error(), 4)},
                     {"target", s.estimate->target},
                     {"probes", s.estimate->probes},
                     {"method", s.estimate->stratified ? "stratified" : "probes"},
                     {"seconds", rounded(s.estimate->seconds, 3)}};
  if (s.estimate && s.estimate->part != Estimate::Part::whole) {
    j["estimate"]["chunks"] = s.estimate->chunks_weighed;
    j["estimate"]["part"] = s.estimate->part == Estimate::Part::shard ? "shard" : "left";
  }
  if (s.lane_use)
    j["lane_use"] = {
        {"kernel", lockstep_kernel_name(s.lane_use->kernel)},
        {"warp_instructions_per_node", s.lane_use->instructions_per_node()},
        {"lane_use", s.lane_use->lane_use()},
        {"passes", s.lane_use->passes},
        {"passes_per_node", s.lane_use->nodes ? static_cast<double>(s.lane_use->passes) /
                                                    static_cast<double>(s.lane_use->nodes)
                                              : 0.0},
        {"launches", s.lane_use->launches}};
  if (s.lane_use) {
    const auto parts = s.lane_use->per_node_by_part();
    for (std::size_t i = 0; i < parts.size(); ++i)
      j["lane_use"]["per_node_by_part"][model_parts[i]] = parts[i];
  }
  if (s.run.stopped) {
    j["stopped"] = true;
    j["chunks_done"] = s.run.chunks_done;
  }
  return j;
}

std::string to_text(const Solution& s, bool quiet) {
  std::string out = fmt::format("topswops n = {}{}{}\n", s.n,
                                s.final == Final::sorted ? ", games ending in the sorted deck" : "",
                                s.backward ? ", searched back from it" : "");
  if (s.run.shard)
    out += fmt::format("  shard          {} (a partial result: merge the journals)\n",
                       s.run.shard->name());
  if (s.result.best < 0) {
    const char* f = s.final == Final::sorted ? "f_sorted" : "f";
    out += fmt::format("  longest game   none of {} or more{}\n", plural(s.start_target, "step"),
                       s.run.complete() ? fmt::format(", so {}({}) < {}", f, s.n, s.start_target)
                                        : " in the chunks done");
  } else {
    out += fmt::format("  longest game   {}, {}\n", plural(s.result.best, "step"),
                       plural(s.result.count, "deck"));
    for (const FoundGame& g : s.result.decks)
      out += fmt::format("    {}  ->  {}\n", comma_list(g.deck), comma_list(g.final_deck));
    if (s.result.decks_truncated())
      out += fmt::format("    ... ({} more)\n", s.result.count - s.result.decks.size());
  }
  if (s.tail.n != 0)
    out += fmt::format(
        "  tail           once card {} lands, at most {} more steps in a game of {} or more "
        "({} without the tail)\n",
        s.n, s.tail.cap(tail_target(s)), tail_target(s), bound_for(s.n - 1, s.final));
  if (!s.start_deck.empty())
    out += fmt::format("  searched from  {}, the game of {} found by a quick search{}{}\n",
                       plural(s.start_target, "step"), comma_list(s.start_deck),
                       s.grown_from.empty() ? ""
                                            : fmt::format(" (grown from f({})'s deck {})", s.n - 1,
                                                          comma_list(s.grown_from)),
                       s.quick_cut_by.empty() ? "" : " cut short by " + s.quick_cut_by);
  out += fmt::format("  nodes          {}\n", group_digits(s.result.total_nodes()));
  if (!quiet) {
    std::string levels;
    for (std::size_t l = 0; l < s.result.nodes.size(); ++l)
      levels += fmt::format("{}{}:{}", l ? " " : "", l, s.result.nodes[l]);
    out += fmt::format("  per level      {}\n", levels);
  }
  if (s.run.merged) {
    out += fmt::format("  merged         {}, {:.1f} s of computing in all\n",
                       plural(s.run.chunks, "chunk"), s.seconds);
  } else {
    if (!quiet)
      out += fmt::format("  time           {:.2f} s, {:.1f} M nodes/s, {}\n", s.seconds,
                         s.seconds > 0 ? s.nodes_computed / s.seconds / 1e6 : 0.0,
                         engine_text(s.target));
    if (s.lane_use)
      out += fmt::format(
          "  {:<14} {:.1f} warp instructions per node, {:.2f} lane use ({} passes of "
          "32 lanes, {} launches)\n",
          lockstep_kernel_name(s.lane_use->kernel), s.lane_use->instructions_per_node(),
          s.lane_use->lane_use(), group_digits(s.lane_use->passes), s.lane_use->launches);
    if (s.chunks_on_host > 0)
      out +=
          fmt::format("  host slices    {} in slices too small for the GPU, on the CPU threads\n",
                      plural(s.chunks_on_host, "chunk"));
    if (!quiet) out += job::devices_text(s.devices, "prefixes");
    out += run_status_text(s.run);
  }
  return out;
}

}  // namespace piles::topswops

namespace piles::topswops {

nlohmann::json to_json(const TailResult& r) {
  nlohmann::json j = {{"n", r.n},
                      {"from", r.start.from},
                      {"start_deck", r.start.deck},
                      {"start_steps", r.start.steps},
                      {"start_landed", r.start.landed},
                      {"longest_any", r.any},
                      {"longest_sorted", r.sorted},
                      {"games", r.games},
                      {"decks", r.decks},
                      {"nodes_per_level", r.nodes},
                      {"seconds", r.seconds},
                      {"complete", r.run.complete()},
                      {"chunks", r.run.chunks},
                      {"chunks_resumed", r.run.chunks_resumed}};
  if (r.run.shard) j["shard"] = r.run.shard->name();
  return j;
}

std::string to_text(const TailResult& r, bool quiet) {
  const int m = r.n - 1;
  std::string out = fmt::format("topswops tail n = {}: every {}-card game of at least {}\n", r.n, m,
                                plural(r.start.from, "step"));
  if (r.start.deck.empty() || r.start.landed == 0)
    out += fmt::format("  start          {}\n", plural(r.start.from, "step"));
  else
    out +=
        fmt::format("  start          {}: {} takes {}, card {} at the bottom after {}, {} to go\n",
                    plural(r.start.from, "step"), comma_list(r.start.deck), r.start.steps, r.n,
                    r.start.landed, r.start.steps - r.start.landed);
  if (r.run.shard)
    out += fmt::format(
        "  shard          {} (a partial result: pass every shard's journal to "
        "solve --tail)\n",
        r.run.shard->name());
  out += fmt::format("  games          {} derangements, {} decks along their games\n",
                     group_digits(r.games), group_digits(r.decks));
  std::uint64_t nodes = 0;
  for (const std::uint64_t x : r.nodes) nodes += x;
  out += fmt::format("  nodes          {}\n", group_digits(nodes));
  out += fmt::format(
      "  steps of the {}-card game: the longest {}-card game through it (any end, "
      "ending sorted)\n",
      m, r.n);
  for (std::size_t i = 0; i < r.any.size(); ++i) {
    if (quiet && r.any[i] < 0) continue;
    const auto cell = [](int x) { return x < 0 ? std::string("-") : std::to_string(x); };
    out += fmt::format("    {:4}  {:>4}  {:>4}\n", r.start.from + static_cast<int>(i),
                       cell(r.any[i]), cell(r.sorted[i]));
  }
  out += fmt::format("  time           {:.2f} s, {}\n", r.seconds, engine_text(r.target));
  out += run_status_text(r.run);
  return out;
}

nlohmann::json to_json(const Plan& plan, const Estimate& e, int threads) {
  std::vector<std::uint64_t> levels;
  for (double x : e.per_level) levels.push_back(static_cast<std::uint64_t>(std::llround(x)));
  return {{"n", plan.n},
          {"final", final_name(plan.final)},
          {"target", e.target},
          {"estimated_nodes", std::llround(e.nodes)},
          {"relative_error", rounded(e.relative_error(), 4)},
          {"nodes_per_level", levels},
          {"probes", e.probes},
          {"method", e.stratified ? "stratified" : "probes"},
          {"seconds", rounded(e.seconds, 3)},
          {"threads", threads}};
}

std::string to_text(const Plan& plan, const Estimate& e, int threads, bool quiet) {
  std::string out = fmt::format("topswops n = {}{}, target {}\n", plan.n,
                                plan.final == Final::sorted ? " ending sorted" : "", e.target);
  out += fmt::format("  estimated nodes  {} (±{:.1f}%)\n", scientific(e.nodes, 3),
                     100 * e.relative_error());
  if (quiet) return out;
  out += "  per level       ";
  for (std::size_t l = 0; l < e.per_level.size(); ++l)
    out += fmt::format(" {}:{}", l, scientific(e.per_level[l]));
  out += fmt::format("\n  {}           {} in {:.2f} s, {}\n", e.stratified ? "passes" : "probes",
                     group_digits(e.probes), e.seconds, plural(threads, "thread"));
  return out;
}

}  // namespace piles::topswops
