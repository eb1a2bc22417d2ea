#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/bulgarian.hpp"
#include "host/bulgarian/analysis.hpp"
#include "host/bulgarian/graph.hpp"
#include "host/bulgarian/range_job.hpp"
#include "host/bulgarian/report.hpp"
#include "host/bulgarian/stochastic.hpp"
#include "host/bulgarian/trace.hpp"
#include "host/common/clock.hpp"
#include "host/common/error.hpp"
#include "host/common/output.hpp"
#include "host/results/games.hpp"

namespace piles::results {
namespace {

// Both presets walk every n up to 120 in memory (about 1.1e10 partitions in all, a minute or two
// on two CPU cores). The full preset goes on to 150 (about 2e11 more) as a journaled run under
// runs/, so that it can be stopped and taken up again; and every preset extends the tables with
// the n finished in any journal there, the frontier runs started by hand included (runs/README.md).
constexpr int memory_max_n = 120;
constexpr int full_max_n = 150;
constexpr int journal_chunks_per_n = 32;  // enough for 2..16 threads; a small journal to commit

void write_traces(Writer& writer) {
  // The four starts of seed 001, Table 1.
  std::string body;
  for (const std::vector<int>& start :
       {std::vector<int>{4, 1, 1}, {8, 4, 3}, {5, 2, 2}, {7, 5, 2}}) {
    const bulgarian::Trace t = bulgarian::trace(start);
    body += fmt::format("## {}\n\ntransient {}, cycle length {}\n\n", paren_list(start),
                        t.transient, t.cycle_length);
    for (std::size_t i = 0; i < t.partitions.size(); ++i)
      body += fmt::format("{}. {}\n", i, paren_list(t.partitions[i]));
    body += "\n";
  }
  writer.markdown("bulgarian/traces.md",
                  "Bulgarian solitaire: the traces of Table 1 of B. Brečić, Rješavanje bugarskog "
                  "solitera (2015)",
                  "bulgarian trace 4,1,1 / 8,4,3 / 5,2,2 / 7,5,2", body);
}

std::vector<bulgarian::Analysis> analyze_in_memory(const Writer& writer) {
  std::vector<bulgarian::Analysis> all;
  for (int n = 1; n <= memory_max_n; ++n) {
    all.push_back(bulgarian::analyze(n, bulgarian::Engine::backward,
                                     bulgarian::walk_target(writer.target())));
    if (!writer.quiet() && (n % 10 == 0 || n == memory_max_n))
      fmt::print(stderr, "results: bulgarian n = {} done ({:.1f} s)\n", n, all.back().seconds);
  }
  return all;
}

// The full preset's n = 121..150, journaled: a stopped run resumes, a finished one is read back.
void run_full_range(const Writer& writer) {
  std::filesystem::create_directories(writer.runs("bulgarian"));
  bulgarian::RangeRun run;
  run.range = {memory_max_n + 1, full_max_n};
  run.chunks_per_n = journal_chunks_per_n;
  run.run.checkpoint = (writer.runs("bulgarian") /
                        fmt::format("analyze_{}_{}.journal", memory_max_n + 1, full_max_n))
                           .string();
  run.run.quiet = writer.quiet();
  run.run.status_every = writer.status_every();
  bulgarian::analyze_range(run, bulgarian::walk_target(writer.target()),
                           [](const bulgarian::Analysis&) {});
}

// Extends `all` (n = 1..) with the n finished in the journals under runs/, as far as they run
// on without a gap. An n also computed here must agree with its journal.
void add_journaled(const Writer& writer, std::vector<bulgarian::Analysis>& all) {
  std::map<int, bulgarian::Analysis> journaled;
  for (const std::string& journal : writer.journals("bulgarian"))
    bulgarian::read_finished_range(
        journal, [&](const bulgarian::Analysis& a) { journaled.insert_or_assign(a.n, a); });
  for (const auto& [n, a] : journaled) {
    if (n <= all.back().n && !all[n - 1].same_structure(a))
      throw std::runtime_error(
          fmt::format("bulgarian: n = {} in the journals under {} disagrees with this run", n,
                      writer.runs("bulgarian").string()));
    if (n == all.back().n + 1) all.push_back(a);
  }
}

void write_table(Writer& writer, const std::vector<bulgarian::Analysis>& all,
                 const std::string& what) {
  std::string md =
      "Every partition of n, walked backward from Brandt's cycle partitions. D(n) is the "
      "longest transient (moves to reach the cycle); the Griggs-Ho column is their "
      "conjectured formula (published computer check: n <= 36). Cycle lengths read "
      "count x length. The Garden-of-Eden count is checked against Hopkins and Sellers' "
      "theorem (OEIS A123975). Rows past n = 120 are read from the journals of the long runs "
      "in [runs/](runs/).\n\n"
      "| n | p(n) | cycles | cycle lengths | D(n) | partitions at D(n) | Garden of Eden | "
      "Griggs-Ho | holds |\n|---:|---:|---:|---|---:|---:|---:|---:|---|\n";
  std::string csv =
      "n,partitions,cycles,cycle_lengths,max_transient,max_transient_count,garden_of_eden,"
      "griggs_ho,conjecture_holds\n";
  std::string runs = fmt::format(
      "n <= {} walked in this run (wall seconds); n > {} read from the journals in "
      "runs/ (their chunks' seconds added up).\n\n| n | p(n) | seconds |\n"
      "|---:|---:|---:|\n",
      memory_max_n, memory_max_n);
  double seconds = 0;
  std::vector<int> fails;
  for (const auto& a : all) {
    if (a.garden_of_eden != bulgarian::hopkins_sellers(a.n))
      throw std::runtime_error(fmt::format(
          "bulgarian: n = {} has {} Garden-of-Eden partitions, Hopkins and Sellers' theorem {}",
          a.n, a.garden_of_eden, bulgarian::hopkins_sellers(a.n)));
    // Griggs and Ho state their formula from n = 3 on: below, it makes no claim to check.
    const bool applies = a.formula_applies();
    const std::string formula = applies ? std::to_string(bulgarian::griggs_ho(a.n)) : "n/a";
    const bool holds = applies && a.conjecture_holds();
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", a.n, a.partitions,
                      a.cycles, bulgarian::cycle_lengths_text(a), a.max_transient(),
                      a.max_transient_count(), a.garden_of_eden, formula,
                      !applies ? "n/a"
                      : holds  ? "yes"
                               : "**no**");
    runs += fmt::format("| {} | {} | {:.3f} |\n", a.n, a.partitions, a.seconds);
    seconds += a.seconds;
    csv +=
        fmt::format("{},{},{},{},{},{},{},{},{}\n", a.n, a.partitions, a.cycles,
                    bulgarian::cycle_lengths_text(a), a.max_transient(), a.max_transient_count(),
                    a.garden_of_eden, applies ? formula : "", applies ? (holds ? "1" : "0") : "");
    if (applies && !holds) fails.push_back(a.n);
  }
  md += fmt::format(
      "\nThe formula is stated from n = 3 on; it differs from D(n) at {} n from 3 to {}{}. The "
      "Garden-of-Eden count agrees with Hopkins and Sellers' theorem at every n.\n\nSee also: "
      "[the transition graph for n = 10](graph_10.svg) (cycle partitions shaded), [D(n) against "
      "the formula](max_transient.svg), [D(n) as a b-file](b_max_transient.txt).\n",
      fails.empty() ? std::string("no") : std::to_string(fails.size()), all.back().n,
      fails.empty() ? "" : " (n = " + comma_list(fails) + ")");
  writer.markdown("bulgarian/analysis.md", "Bulgarian solitaire: cycles and longest transients",
                  what, md);
  writer.commented("bulgarian/analysis.csv", "Bulgarian solitaire: one row per n", what, csv);
  writer.run_record("bulgarian",
                    "analysis.md, analysis.csv, b_max_transient.txt, max_transient.svg", seconds,
                    runs);
}

void write_sequence(Writer& writer, const std::vector<bulgarian::Analysis>& all,
                    const std::string& what) {
  std::string bfile, data;
  for (const auto& a : all) {
    bfile += fmt::format("{} {}\n", a.n, a.max_transient());
    data += fmt::format("{} {} {}\n", a.n, a.max_transient(), bulgarian::griggs_ho(a.n));
  }
  writer.commented("bulgarian/b_max_transient.txt",
                   "D(n), the longest Bulgarian solitaire transient (b-file: n D(n))", what, bfile);
  writer.plot("bulgarian/max_transient.svg",
              "Bulgarian solitaire: D(n) against the Griggs-Ho formula",
              fmt::format("$d << EOD\n{}EOD\n"
                          "set title 'Longest transient D(n) of Bulgarian solitaire, n <= {}'\n"
                          "set xlabel 'n'\nset ylabel 'moves to the cycle'\nset key top left\n"
                          "plot $d using 1:3 with lines lw 2 title 'Griggs-Ho formula', "
                          "$d using 1:2 with points pointtype 7 pointsize 0.6 "
                          "title 'D(n) computed'",
                          data, all.back().n));
}

void write_graph_picture(Writer& writer) {
  constexpr int n = 10;
  writer.commented("bulgarian/graph_10.dot",
                   "Bulgarian solitaire: the transition graph for n = 10 (Graphviz; rendered as "
                   "graph_10.svg)",
                   "bulgarian graph 10", bulgarian::graph_dot(n));
  bulgarian::write_graph(
      n, "svg",
      writer
          .external("bulgarian/graph_10.svg",
                    "Bulgarian solitaire: the transition graph for n = 10, cycle partitions shaded")
          .string());
}

// Seed 000's open question, as an experiment: n = 21 = T_6 from one pile, 1000 moves, for a few
// probabilities; p = 1 is the plain game and must land on the triangle.
void write_random(Writer& writer) {
  const std::string what = "bulgarian random 21 --p P --runs 20000 --steps 1000 --seed 1";
  std::string md =
      "Each pile gives a card with probability p; 20000 chains of 1000 moves from one pile of "
      "21 cards (21 = T_6, so the plain game ends on the triangle (6, 5, 4, 3, 2, 1)). The "
      "distance is the sum over the piles of |mean size - triangle size|.\n\n"
      "| p | mean piles | distance | mean shape, largest pile first |\n|---:|---:|---:|---|\n";
  std::string runs = "| p | seconds |\n|---:|---:|\n";
  double seconds = 0;
  for (const double p : {0.25, 0.5, 0.75, 0.9, 1.0}) {
    const auto t0 = std::chrono::steady_clock::now();
    bulgarian::RandomSpec spec;
    spec.start = {21};
    spec.p = p;
    spec.runs = 20000;
    spec.steps = 1000;
    spec.seed = 1;
    const bulgarian::RandomResult r = bulgarian::run_random(spec, writer.target());
    const double took = seconds_since(t0);
    runs += fmt::format("| {} | {:.3f} |\n", p, took);
    seconds += took;
    std::string shape;
    for (const double v : r.mean_shape())
      shape += fmt::format("{}{:.2f}", shape.empty() ? "" : ", ", v);
    md += fmt::format("| {} | {:.3f} | {:.3f} | {} |\n", p, r.mean_piles(),
                      r.distance_to_triangle(), shape);
    if (p == 0.5)
      writer.plot("bulgarian/random_21.svg",
                  "Stochastic Bulgarian solitaire: mean shape for n = 21, p = 0.5",
                  bulgarian::random_plot_script(r));
  }
  md += "\nPicture for p = 0.5: [random_21.svg](random_21.svg).\n";
  writer.markdown("bulgarian/random.md", "Stochastic Bulgarian solitaire: mean shapes", what, md);
  writer.run_record("bulgarian", "random.md, random_21.svg", seconds, runs);
}

// D(n) and the Garden-of-Eden counts on FRONTIER.md.
// `bulgarian merge` of the finished journal that reaches furthest, as a command and what it
// prints; none when no journal is finished (every n was walked in this run).
std::vector<FrontierCheck> journal_check(const Writer& writer) {
  std::vector<FrontierCheck> check;
  int furthest = 0;
  for (const std::string& journal : writer.journals("bulgarian")) {
    std::string text;
    int top = 0;
    try {
      bulgarian::merge_range({journal}, [&](const bulgarian::Analysis& a) {
        text += bulgarian::to_text(a, true);
        top = a.n;
      });
    } catch (const UsageError&) {
      continue;  // a run still under way, which merge refuses
    }
    if (top <= furthest) continue;
    furthest = top;
    check = {{fmt::format("bulgarian merge {} --quiet", Writer::command_path("bulgarian", journal)),
              text}};
  }
  return check;
}

void add_frontier(Writer& writer, const std::vector<bulgarian::Analysis>& all) {
  const int last = all.back().n;
  // n <= memory_max_n: wall seconds of this run; past it, the journals' chunk seconds.
  double walked = 0, journaled = 0;
  int holds = 0;
  for (const auto& a : all) {
    (a.n <= memory_max_n ? walked : journaled) += a.seconds;
    holds += a.formula_applies() && a.conjecture_holds() ? 1 : 0;
  }
  std::string took = fmt::format("n <= {}: {:.0f} s of wall time", memory_max_n, walked);
  if (last > memory_max_n)
    took +=
        fmt::format("; n = {}..{}: {}", memory_max_n + 1, last, Writer::journal_time(journaled));
  writer.frontier(
      {"Bulgarian solitaire: D(n), the longest transient",
       "Griggs and Ho (1998) conjectured a formula, checked by computer for n <= 36; no OEIS "
       "entry for D(n)",
       fmt::format("D(n) for every n <= {}; the formula holds at {} of the {} n from 3 to {} "
                   "(it is stated from n = 3 on)",
                   last, holds, last - 2, last),
       fmt::format("piles bulgarian analyze 1..{}", last), "bulgarian/b_max_transient.txt", took,
       journal_check(writer)});
  writer.frontier({
      "Bulgarian solitaire: Garden-of-Eden partitions",
      "Hopkins and Sellers' theorem (OEIS A123975), proven for every n",
      fmt::format("counted by the walk for every n <= {}; all agree", last),
      fmt::format("piles bulgarian analyze 1..{}", last),
      "bulgarian/analysis.csv",
      "the same walk",
      {}  // the D(n) check prints the Garden-of-Eden counts too
  });
  writer.waits_for_gpu(
      fmt::format("Bulgarian solitaire D(n) for {} < n <= 200: the backward walk (`piles "
                  "bulgarian analyze {}..200 --checkpoint FILE`, `--mpi` or `--shard I/K` "
                  "across machines, each n's chunks now of even share: docs/bulgarian.md). Its "
                  "GPU engine is not yet the way there: on an NVIDIA H200 it ran at 0.04 to 0.09 "
                  "times the rate of the 16 CPU threads beside it (bench/gpu_h200.md), and its "
                  "lanes kernel on an H100 at 0.02 to 0.07 (bench/gpu_h100_walk.md).",
                  last, last + 1));
}

}  // namespace

void write_bulgarian(Writer& writer) {
  write_traces(writer);
  std::vector<bulgarian::Analysis> all = analyze_in_memory(writer);
  if (writer.full()) run_full_range(writer);
  add_journaled(writer, all);
  const std::string what =
      all.back().n == memory_max_n
          ? fmt::format("bulgarian analyze 1..{} --engine backward", memory_max_n)
          : fmt::format(
                "bulgarian analyze 1..{} --engine backward; n = {}..{} read from the "
                "journals in runs/",
                memory_max_n, memory_max_n + 1, all.back().n);
  write_table(writer, all, what);
  write_sequence(writer, all, what);
  add_frontier(writer, all);
  write_graph_picture(writer);
  write_random(writer);
  write_bulgarian_variants(writer, all);
}

}  // namespace piles::results
