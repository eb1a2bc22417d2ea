#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "host/common/output.hpp"
#include "host/job/driver.hpp"
#include "host/results/games.hpp"
#include "host/topswops/estimate.hpp"
#include "host/topswops/play.hpp"
#include "host/topswops/published.hpp"
#include "host/topswops/report.hpp"
#include "host/topswops/solve.hpp"
#include "host/topswops/tail_job.hpp"

namespace piles::results {
namespace {

// The quick preset computes up to 14 cards (about 1e9 nodes for each variant, well under a
// minute on two CPU cores). The full preset on the CPU runs the journaled sizes after 14, with
// the tail of the (n-1)-card games, in journals under runs/ (minutes for 15, hours for 16 on 2
// cores). On a GPU it searches up to 16 cards without a tail (f(16) in 25 s on an H100, where
// `tail 16` alone takes 45 minutes of a CPU thread), then 17 journaled under runs/ (about 10
// minutes a variant on an H100). A stopped run resumes from its journal, and every preset
// reads back into the tables each finished journal there that continues a table.
constexpr int quick_max_n = 14;
constexpr int full_max_n_gpu = 16;
constexpr int journaled_n_gpu = 17;
constexpr std::array journaled_ns = {15, 16};
// The largest n the published tables give for both variants.
constexpr int published_max_n = static_cast<int>(topswops::published::longest_sorted.size()) - 1;
// Where the waiting-for-a-GPU list ends: one GPU is meant for n = 17 and 18 (docs/gpu.md).
constexpr int gpu_max_n = 18;
// On the CPU, from 15 cards on, the search runs with the tail of `topswops tail N` (Chaffin's
// cutoff): at 15 it costs 54 s on 2 cores and each variant's search about 100 s, where one took
// 502 s without it and the vector deck; at 14 the enumeration costs about what it saves.
constexpr int tail_min_n = 15;

void write_play_example(Writer& writer) {
  // The worked example of seed 002 (and DESIGN.md section 5): n = 5, f(5) = 7.
  const topswops::Game game = topswops::play({3, 1, 4, 5, 2});
  std::string body = "| step | deck |\n|---:|---|\n";
  for (std::size_t i = 0; i < game.trace.size(); ++i)
    body += fmt::format("| {} | {} |\n", i, comma_list(game.trace[i]));
  writer.markdown("topswops/play_example.md", "Topswops: the game from 3,1,4,5,2",
                  "topswops play 3,1,4,5,2", body);
}

std::vector<topswops::Solution> solve_all(const Writer& writer, topswops::Final final, int last) {
  std::vector<topswops::Solution> all;
  for (int n = 1; n <= last; ++n) {
    topswops::SolveOptions options;
    options.n = n;
    options.final = final;
    options.run.quiet = true;
    all.push_back(topswops::solve(options, writer.target()));
    if (!writer.quiet())
      fmt::print(stderr, "results: topswops n = {} ({}) done ({:.1f} s)\n", n,
                 topswops::final_name(final), all.back().seconds);
  }
  return all;
}

std::string journal_of(const Writer& writer, const std::string& what, int n) {
  return (writer.runs("topswops") / fmt::format("{}_{}.journal", what, n)).string();
}

std::string solve_journal(const Writer& writer, topswops::Final final, int n) {
  return journal_of(writer, final == topswops::Final::sorted ? "solve_sorted" : "solve", n);
}

// One variant of n on `target`, resuming its journal under runs/ (a finished one is read).
void solve_journaled(const Writer& writer, topswops::Final final, int n, const RunTarget& target,
                     const topswops::Tail& tail = {}) {
  topswops::SolveOptions options;
  options.n = n;
  options.final = final;
  options.tail = tail;
  options.run.quiet = writer.quiet();
  options.run.status_every = writer.status_every();
  options.run.checkpoint = solve_journal(writer, final, n);
  topswops::solve(options, target);
}

// Each journaled size on the CPU: its tail, then both searches, each resuming its journal.
void run_journaled(const Writer& writer) {
  std::filesystem::create_directories(writer.runs("topswops"));
  const RunTarget cpu = writer.target().on_host();
  for (const int n : journaled_ns) {
    topswops::TailOptions tail_options;
    tail_options.n = n;
    tail_options.run.quiet = writer.quiet();
    tail_options.run.status_every = writer.status_every();
    tail_options.run.checkpoint = journal_of(writer, "tail", n);
    const topswops::TailResult tail = topswops::run_tail(tail_options, cpu);
    for (const topswops::Final final : {topswops::Final::any, topswops::Final::sorted})
      solve_journaled(writer, final, n, cpu, tail.tail(final));
  }
}

// The GPU's journaled size, both variants, searched without a tail.
void run_journaled_gpu(const Writer& writer) {
  std::filesystem::create_directories(writer.runs("topswops"));
  for (const topswops::Final final : {topswops::Final::any, topswops::Final::sorted})
    solve_journaled(writer, final, journaled_n_gpu, writer.target());
}

// Adds the sizes that follow `all` (1..m), in order, while their journals under runs/ are
// finished: solve's, or for games ending sorted where that is missing or unfinished, the
// backward search's (backward_sorted_N, its default on CPU threads).
void add_journaled(const Writer& writer, topswops::Final final,
                   std::vector<topswops::Solution>& all) {
  const auto finished = [](const std::string& journal) -> std::optional<topswops::Solution> {
    if (!std::filesystem::exists(journal)) return std::nullopt;
    return topswops::read_finished(journal);
  };
  for (int n = all.back().n + 1; n <= published_max_n; ++n) {
    auto solution = finished(solve_journal(writer, final, n));
    if (!solution && final == topswops::Final::sorted)
      solution = finished(journal_of(writer, "backward_sorted", n));
    if (!solution) return;
    all.push_back(std::move(*solution));
  }
}

// The tables hold the answers and node counts (fixed by the search plan, whatever ran it);
// the time each n took goes to RUNS.md. Returns whether every row agrees with the published
// value and count.
bool write_table(Writer& writer, const std::vector<topswops::Solution>& all,
                 topswops::Final final) {
  const bool sorted = final == topswops::Final::sorted;
  const std::string stem = sorted ? "topswops/longest_sorted" : "topswops/longest";
  const std::string what = fmt::format("topswops solve N{} for N = 1..{}",
                                       sorted ? " --final sorted" : "", all.back().n);
  const int* published_values =
      sorted ? topswops::published::longest_sorted.data() : topswops::published::longest.data();
  const int* published_counts = sorted ? topswops::published::longest_sorted_count.data()
                                       : topswops::published::longest_count.data();
  std::string md = fmt::format(
      "{} Exhaustive forward search (Knuth's, pruned by derangements and by the bound on the "
      "largest cards fixed at the bottom in any order, after B. Chaffin; from n = {} on also by "
      "his cutoff from the (n-1)-card games, `topswops tail n`); every deck reaching the "
      "maximum is listed with the deck its game ends in. The last column compares with OEIS "
      "{} and {}.\n\n| n | {} | decks | the decks (start -> end) | nodes | published |\n"
      "|---:|---:|---:|---|---:|---|\n",
      sorted ? "The longest games that end in the sorted deck." : "The longest games, f(n).",
      tail_min_n, sorted ? "A000376" : "A000375", sorted ? "A174498" : "A123398",
      sorted ? "steps" : "f(n)");
  std::string csv = "n,max_steps,count,nodes,decks\n";
  std::string bfile;
  std::string runs = "| n | nodes | seconds | nodes per second |\n|---:|---:|---:|---:|\n";
  double seconds = 0;
  bool all_agree = true;
  std::string notes;  // for each n from tail_min_n on searched without the cutoff or backward
  for (const topswops::Solution& s : all) {
    std::string decks, csv_decks;
    for (const auto& g : s.result.decks) {
      decks += fmt::format("{}{} -> {}", decks.empty() ? "" : "<br>", comma_list(g.deck),
                           comma_list(g.final_deck));
      csv_decks += fmt::format("{}{}>{}", csv_decks.empty() ? "" : " ", comma_list(g.deck),
                               comma_list(g.final_deck));
    }
    const bool agrees = s.result.best == published_values[s.n] &&
                        s.result.count == static_cast<std::uint64_t>(published_counts[s.n]);
    all_agree = all_agree && agrees;
    md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", s.n, s.result.best, s.result.count,
                      decks, s.result.total_nodes(), agrees ? "agrees" : "DIFFERS");
    csv += fmt::format("{},{},{},{},\"{}\"\n", s.n, s.result.best, s.result.count,
                       s.result.total_nodes(), csv_decks);
    bfile += fmt::format("{} {}\n", s.n, s.result.best);
    if (s.backward)
      notes += fmt::format(
          "\nn = {}: searched backward from the sorted deck, as `topswops solve {} --final "
          "sorted` searches on CPU threads; its nodes are that tree's, not the forward "
          "search's.\n",
          s.n, s.n);
    else if (s.n >= tail_min_n && s.tail.n == 0)
      notes += fmt::format(
          "\nn = {}: searched without the cutoff, from the target {}, as `topswops solve {}{}` "
          "alone searches; its nodes are that search's.\n",
          s.n, s.start_target, s.n, sorted ? " --final sorted" : "");
    runs += fmt::format("| {} | {} | {:.3f} | {:.3g} |\n", s.n, s.result.total_nodes(), s.seconds,
                        s.seconds > 0 ? s.result.total_nodes() / s.seconds : 0.0);
    seconds += s.seconds;
  }
  md += notes;
  const std::string bname = sorted ? "b000376.txt" : "b000375.txt";
  writer.markdown(
      stem + ".md",
      sorted ? "Topswops: the longest games ending sorted" : "Topswops: the longest games f(n)",
      what, md);
  writer.commented(stem + ".csv", "Topswops longest games, one row per n", what, csv);
  writer.commented("topswops/" + bname,
                   sorted ? "Topswops, longest game ending sorted (OEIS A000376), b-file"
                          : "Topswops, longest game f(n) (OEIS A000375), b-file",
                   what, bfile);
  const std::string name = stem.substr(stem.find('/') + 1);
  writer.run_record("topswops", fmt::format("{0}.md, {0}.csv, {1}", name, bname), seconds, runs);
  return all_agree;
}

void write_plot(Writer& writer, const std::vector<topswops::Solution>& any,
                const std::vector<topswops::Solution>& sorted) {
  std::string data;
  const auto& published = topswops::published::longest;
  for (std::size_t n = 1; n < published.size(); ++n) {
    const auto computed = [&](const std::vector<topswops::Solution>& all) {
      return n <= all.size() ? std::to_string(all[n - 1].result.best) : std::string("NaN");
    };
    data += fmt::format("{} {} {} {}\n", n, computed(any), computed(sorted), published[n]);
  }
  writer.plot(
      "topswops/longest.svg", "Topswops: f(n) and the longest game ending sorted",
      fmt::format("$d << EOD\n{}EOD\n"
                  "set title 'Topswops: longest games on n cards (computed to n = {})'\n"
                  "set xlabel 'n'\nset ylabel 'steps'\nset key top left\nset xrange [0:22]\n"
                  "plot $d using 1:4 with points pointtype 6 pointsize 1.5 "
                  "title 'f(n) published (OEIS A000375, Chaffin)', "
                  "$d using 1:2 with linespoints pointtype 7 lw 2 title 'f(n) computed', "
                  "$d using 1:3 with linespoints pointtype 5 title 'ending sorted, computed'",
                  data, any.back().n));
}

// The quick preset's largest n, searched without a tail as `solve N` alone searches (the
// documentation check runs it with every `make test`), as a command and what it prints.
FrontierCheck check(const std::vector<topswops::Solution>& all) {
  const topswops::Solution& s = all.at(quick_max_n - 1);
  const bool sorted = s.final == topswops::Final::sorted;
  // The tables come from the forward search, which sorted finals name (their default on CPU
  // threads is the backward one, whose nodes differ).
  return {
      fmt::format("topswops solve {}{} --quiet", s.n, sorted ? " --final sorted --engine dfs" : ""),
      topswops::to_text(s, true)};
}

// What the rest of a journaled search costs: its chunks not done weighed by the estimate a run
// makes from its start or its longest game so far (Knuth's probes forward, stratified sampling
// backward; seeded, so the text stays the same from one regeneration to the next), as `journal
// show` weighs them, at `per_second`.
std::string cost_left(const Writer& writer, const std::string& journal, double per_second) {
  topswops::Estimate e;
  const job::Survey survey = topswops::survey_journal(journal, writer.target().threads, &e);
  if (!survey.work || e.probes == 0) return "";
  const double left = survey.work->left;
  const double minutes = left / per_second / 60;
  const std::string by =
      e.stratified ? fmt::format("stratified sampling ({} passes)", group_digits(e.probes))
                   : fmt::format("Knuth's random probes ({} of them)", group_digits(e.probes));
  return fmt::format(" By {} the chunks not done hold about {} nodes: {} more at that rate.", by,
                     scientific(left),
                     minutes < 120 ? fmt::format("{:.0f} minutes", minutes)
                                   : fmt::format("{:.1f} hours", minutes / 60));
}

}  // namespace

// A run taken from machine to machine (each GPU machine's turn a slice of it), or the backward
// search's on CPU threads.
std::string topswops_under_way(const Writer& writer, topswops::Final final, int n) {
  std::string journal = solve_journal(writer, final, n);
  if (!std::filesystem::exists(journal) && final == topswops::Final::sorted)
    journal = journal_of(writer, "backward_sorted", n);
  if (!std::filesystem::exists(journal)) return "";
  const topswops::Solution s = topswops::read_so_far(journal);
  const std::string path = Writer::command_path("topswops", journal);
  const std::string longest =
      s.result.best < 0 ? fmt::format("no game of {} steps or more among them yet", s.start_target)
                        : fmt::format("the longest game among them {} steps ({} {})", s.result.best,
                                      s.result.count, s.result.count == 1 ? "deck" : "decks");
  const double per_second = s.seconds > 0 ? s.result.total_nodes() / s.seconds : 0;
  const std::string rate = per_second >= 1e9 ? fmt::format(", {:.1f} G nodes/s", per_second / 1e9)
                           : per_second > 0  ? fmt::format(", {:.0f} M nodes/s", per_second / 1e6)
                                             : "";
  const std::string cost = per_second > 0 ? cost_left(writer, journal, per_second) : "";
  const std::string bound =
      s.bound ? fmt::format(", searched from {} (`--bound {}`),", *s.bound, *s.bound) : "";
  const std::string go_on =
      s.backward ? fmt::format(
                       "`piles topswops solve {} --final sorted{} --checkpoint {}` goes "
                       "on from there, on CPU threads",
                       n, s.bound ? fmt::format(" --bound {}", *s.bound) : "", path)
                 : fmt::format("the same command with `{}--checkpoint {}` goes on from there",
                               s.bound ? fmt::format("--bound {} ", *s.bound) : "", path);
  return fmt::format(
      " Under way{}: {}{} holds {} of {} chunks ({} nodes; {}{}), {}; {}.{}",
      s.backward ? ", searched back from the sorted deck (its nodes are that tree's)" : "", path,
      bound, s.run.chunks_done, s.run.chunks, group_digits(s.result.total_nodes()),
      Writer::journal_time(s.seconds), rate, longest, go_on, cost);
}

void write_topswops(Writer& writer) {
  write_play_example(writer);
  const bool gpu = writer.target().backend == Backend::gpu;
  const int last = writer.full() && gpu ? full_max_n_gpu : quick_max_n;
  auto any = solve_all(writer, topswops::Final::any, last);
  auto sorted = solve_all(writer, topswops::Final::sorted, last);
  if (writer.full() && gpu)
    run_journaled_gpu(writer);
  else if (writer.full())
    run_journaled(writer);
  add_journaled(writer, topswops::Final::any, any);
  add_journaled(writer, topswops::Final::sorted, sorted);
  const bool any_agrees = write_table(writer, any, topswops::Final::any);
  const bool sorted_agrees = write_table(writer, sorted, topswops::Final::sorted);
  const bool agree = any_agrees && sorted_agrees;
  write_plot(writer, any, sorted);
  // Wall seconds of this run, and the chunk seconds of what was read from journals.
  double seconds = 0, journaled = 0;
  for (const auto* list : {&any, &sorted})
    for (const topswops::Solution& s : *list) (s.n > last ? journaled : seconds) += s.seconds;
  const int any_n = any.back().n, sorted_n = sorted.back().n;
  const int furthest = std::max(any_n, sorted_n);
  writer.frontier(
      {"Topswops: f(n) and every deck that reaches it, with the sorted-end variant",
       "OEIS A000375, A000376, A123398, A174498; f(n) is published to n = 21 (B. Chaffin, 2026)",
       fmt::format("{}, searched without being told f(n); {}",
                   any_n == sorted_n
                       ? fmt::format("both variants for every n <= {}", any_n)
                       : fmt::format("f(n) for every n <= {}, the sorted-end variant for every "
                                     "n <= {}",
                                     any_n, sorted_n),
                   agree ? "every value and deck count agrees with the published ones"
                         : "some value or deck count DIFFERS from the published ones (the "
                           "tables say where)"),
       any_n == sorted_n
           ? fmt::format("piles topswops solve N [--final sorted], N <= {}", any_n)
           : fmt::format("piles topswops solve N, N <= {}; with --final sorted, N <= {}", any_n,
                         sorted_n),
       "topswops/longest.csv",
       furthest > last
           ? fmt::format("{:.0f} s; n = {}{} from the journals in topswops/runs/: {}", seconds,
                         last + 1, furthest > last + 1 ? fmt::format("..{}", furthest) : "",
                         Writer::journal_time(journaled))
           : fmt::format("{:.0f} s", seconds),
       {check(any), check(sorted)}});
  // Each variant's sizes up to gpu_max_n, and how far the journal of the next has come.
  for (const auto& [all, final] :
       {std::pair{&any, topswops::Final::any}, std::pair{&sorted, topswops::Final::sorted}}) {
    const int from = all->back().n + 1;
    if (from > gpu_max_n) continue;
    const bool is_sorted = final == topswops::Final::sorted;
    const int* published = is_sorted ? topswops::published::longest_sorted.data()
                                     : topswops::published::longest.data();
    std::string values;
    for (int n = from; n <= gpu_max_n; ++n)
      values += fmt::format("{}{}", n == from ? "" : ", ", published[n]);
    writer.waits_for_gpu(fmt::format(
        "Topswops {} for {} (published: {}): `piles --backend gpu topswops solve N{} "
        "--checkpoint FILE`.{}",
        is_sorted ? "longest games ending in the sorted deck" : "f(n) with every maximal deck",
        from < gpu_max_n ? fmt::format("{} <= n <= {}", from, gpu_max_n)
                         : fmt::format("n = {}", from),
        values, is_sorted ? " --final sorted" : "", topswops_under_way(writer, final, from)));
  }
  writer.waits_for_gpu(
      "Topswops a(21), the longest game on 21 cards ending sorted (never computed; A000376 is "
      "published to n = 20): the backward search from the sorted deck (`--engine backward`, "
      "which found a(17) = 159 in 38 minutes of 2 CPU threads, 1.2e11 nodes) estimates a(21) "
      "from a(20) at about 1e15 nodes (8.8e14 to 2.3e15 over three seeds of its stratified "
      "sampling), some 200 days of one CPU thread at its 57 M nodes/s, or about two days of "
      "one H100 at the forward kernel's rate if the backward search's GPU passes (`--backend "
      "gpu --engine backward`, not yet measured on a GPU) matched it (bench/topswops_backward.md, "
      "a projection); a bound for decks with card n at the bottom is what would bring it within "
      "reach.");
}

}  // namespace piles::results
