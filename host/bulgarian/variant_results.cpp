// The variants' tables for `piles results`: one table per finite variant (Carolina, Multiplayer
// with 2 and 3 players, Austrian with L = 3), and their longest transients beside the plain
// game's D(n).
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "host/bulgarian/report.hpp"
#include "host/bulgarian/variant_analysis.hpp"
#include "host/bulgarian/variants.hpp"
#include "host/common/output.hpp"
#include "host/results/games.hpp"

namespace piles::results {
namespace {

struct Range {
  const char* variant;
  int quick_max_n, full_max_n;  // about a minute in all on 2 CPU cores, and further
  const char* about;
};

constexpr Range ranges[] = {
    {"carolina", 25, 28, "compositions of n: 2^(n-1) states"},
    {"multiplayer:2", 38, 44, "pairs of partitions with n cards in all"},
    {"multiplayer:3", 26, 30, "triples of partitions with n cards in all"},
    {"austrian:3", 100, 127, "piles of at most 3 cards and a bank of at most 2"},
};

std::string file_stem(const std::string& name) {
  std::string stem = name;
  std::replace(stem.begin(), stem.end(), ':', '_');
  return stem;
}

// One variant's table; returns its analyses for the plot.
std::vector<bulgarian::Analysis> write_variant(Writer& writer, const Range& range, double& seconds,
                                               std::string& runs) {
  const bulgarian::Variant v = bulgarian::parse_variant(range.variant);
  const int last = writer.full() ? range.full_max_n : range.quick_max_n;
  const std::string what =
      fmt::format("bulgarian analyze N --variant {} for N = 1..{}", v.name(), last);
  std::string md = fmt::format(
      "Every state of n cards ({}), by the generic forward engine. Cycle lengths read count x "
      "length; the longest transient is the most moves any state needs to reach its cycle.\n\n"
      "| n | states | cycles | cycle lengths | longest transient | states at it | Garden of Eden "
      "|\n|---:|---:|---:|---|---:|---:|---:|\n",
      range.about);
  std::string csv =
      "n,states,cycles,cycle_lengths,max_transient,max_transient_count,garden_of_eden\n";
  std::vector<bulgarian::Analysis> all;
  double took = 0;
  for (int n = 1; n <= last; ++n) {
    const bulgarian::Analysis a = bulgarian::analyze_variant(n, v, writer.target());
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", n, a.partitions, a.cycles,
                      bulgarian::cycle_lengths_text(a), a.max_transient(), a.max_transient_count(),
                      a.garden_of_eden);
    csv += fmt::format("{},{},{},{},{},{},{}\n", n, a.partitions, a.cycles,
                       bulgarian::cycle_lengths_text(a), a.max_transient(), a.max_transient_count(),
                       a.garden_of_eden);
    took += a.seconds;
    all.push_back(a);
  }
  if (!writer.quiet())
    fmt::print(stderr, "results: bulgarian --variant {} n <= {} done ({:.1f} s)\n", v.name(), last,
               took);
  runs += fmt::format("| {} | {} | {:.3f} |\n", v.name(), last, took);
  seconds += took;
  const std::string stem = "bulgarian/variant_" + file_stem(v.name());
  writer.markdown(stem + ".md", fmt::format("Bulgarian solitaire, variant {}", v.name()), what,
                  md + "\nSee also: [longest transients of every variant](variants.svg).\n");
  writer.commented(stem + ".csv",
                   fmt::format("Bulgarian solitaire, variant {}: one row per n", v.name()), what,
                   csv);
  return all;
}

}  // namespace

void write_bulgarian_variants(Writer& writer, const std::vector<bulgarian::Analysis>& plain) {
  double seconds = 0;
  std::string runs = "| variant | n up to | seconds |\n|---|---:|---:|\n", data, plots, tables;
  int widest = 0;
  for (std::size_t i = 0; i < std::size(ranges); ++i) {
    const std::vector<bulgarian::Analysis> all = write_variant(writer, ranges[i], seconds, runs);
    data += fmt::format("$v{} << EOD\n", i);
    for (const auto& a : all) data += fmt::format("{} {}\n", a.n, a.max_transient());
    data += "EOD\n";
    plots += fmt::format(", $v{} using 1:2 with linespoints pointsize 0.5 title '{}'", i,
                         ranges[i].variant);
    tables += fmt::format("variant_{}.md, variant_{}.csv, ", file_stem(ranges[i].variant),
                          file_stem(ranges[i].variant));
    widest = std::max(widest, all.back().n);
  }
  data += "$plain << EOD\n";
  for (const auto& a : plain)
    if (a.n <= widest) data += fmt::format("{} {}\n", a.n, a.max_transient());
  data += "EOD\n";
  writer.plot(
      "bulgarian/variants.svg",
      "Bulgarian solitaire: the longest transient of each variant against n",
      fmt::format("{}set title 'Longest transient against n: the variants and the plain "
                  "game'\nset xlabel 'n'\nset ylabel 'moves to the cycle'\nset key top "
                  "left\nplot $plain using 1:2 with lines lw 2 title 'plain game, D(n)'{}\n",
                  data, plots));
  writer.run_record("bulgarian", tables + "variants.svg", seconds, runs);
}

}  // namespace piles::results
