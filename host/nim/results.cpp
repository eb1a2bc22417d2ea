#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/common/clock.hpp"
#include "host/nim/bfile.hpp"
#include "host/nim/count.hpp"
#include "host/nim/direct.hpp"
#include "host/nim/grundy.hpp"
#include "host/results/games.hpp"

namespace piles::results {
namespace {

constexpr int table_n = 30;
constexpr int table_k = 8;
constexpr int checked_n = 12;  // the direct search re-derives the table up to here
constexpr long project_euler_mod = 1'000'000'007;

// f(n, k) for n <= table_n and k = 2..table_k, each cell up to n = checked_n also found by a
// search of every position; a disagreement stops the run rather than publish either number.
void write_f_table(Writer& writer) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::vector<mpz_class>> f;  // f[k - 2][n]
  for (int k = 2; k <= table_k; ++k) {
    f.push_back(nim::winning_counts(table_n, k, writer.target().threads));
    for (int n = 1; n <= checked_n; ++n)
      if (nim::solve_directly(n, k).winning() != f.back()[n])
        throw std::runtime_error(fmt::format("nim: f({}, {}) differs between engines", n, k));
  }
  std::string csv = "n";
  std::string md = fmt::format(
      "f(n, k) counts the positions with n stones in all (partitions of n) that the player to "
      "move wins when a move splits one pile into 2..k piles. Columns k >= 4 agree because "
      "every such k gives a pile of i the value i - 1. Rows n <= {} were also found by a "
      "search of every position and move, without the Sprague-Grundy shortcut.\n\n| n |",
      checked_n);
  for (int k = 2; k <= table_k; ++k) {
    csv += fmt::format(",f_n_{}", k);
    md += fmt::format(" k = {} |", k);
  }
  csv += "\n";
  md += "\n|---:|";
  for (int k = 2; k <= table_k; ++k) md += "---:|";
  md += "\n";
  for (int n = 1; n <= table_n; ++n) {
    csv += std::to_string(n);
    md += fmt::format("| {} |", n);
    for (int k = 2; k <= table_k; ++k) {
      csv += fmt::format(",{}", f[k - 2][n].get_str());
      md += fmt::format(" {} |", f[k - 2][n].get_str());
    }
    csv += "\n";
    md += "\n";
  }
  const double seconds = seconds_since(t0);
  const std::string what = fmt::format("nim count n --k k, n <= {}, k <= {}", table_n, table_k);
  writer.markdown("nim/f_table.md", "Scatterstone Nim: winning positions f(n, k)", what, md);
  writer.commented("nim/f_table.csv", "Scatterstone Nim: winning positions f(n, k)", what, csv);
  writer.run_record("nim", "f_table.md, f_table.csv", seconds);
}

// g(n) = f(n, 2) + ... + f(n, n), exact and modulo 1,000,000,007 (Project Euler 629 asks for
// g(200) modulo that prime).
void write_g(Writer& writer) {
  const int last = writer.full() ? 1000 : 200;
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<mpz_class> g = nim::winning_counts_all_k(last, writer.target().threads);
  const std::vector<mpz_class> p = nim::partition_numbers(last);
  writer.run_record("nim", "g.md, g.csv", seconds_since(t0));
  std::string csv = "n,partitions,g,g_mod_1000000007\n";
  std::string md = fmt::format(
      "g(n) sums f(n, k) over k = 2..n: winning positions with n stones, over every limit k on "
      "the piles a split makes. Project Euler 629 asks for g(200) mod {}: **{}**.\n\n"
      "| n | partitions p(n) | g(n) | g(n) mod {} |\n|---:|---:|---:|---:|\n",
      project_euler_mod, mpz_class(g[200] % project_euler_mod).get_str(), project_euler_mod);
  for (int n = 1; n <= last; ++n) {
    const std::string mod = mpz_class(g[n] % project_euler_mod).get_str();
    csv += fmt::format("{},{},{},{}\n", n, p[n].get_str(), g[n].get_str(), mod);
    md += fmt::format("| {} | {} | {} | {} |\n", n, p[n].get_str(), g[n].get_str(), mod);
  }
  const std::string what = fmt::format("nim count n --mod {}, n <= {}", project_euler_mod, last);
  const std::string title = "Scatterstone Nim: g(n), winning positions over every k";
  writer.markdown("nim/g.md", title, what, md);
  writer.commented("nim/g.csv", title, what, csv);
}

constexpr int grundy_quick_n = 10'000;
constexpr int grundy_full_n = 100'000;

std::filesystem::path grundy_run(const Writer& writer) {
  return writer.runs("nim") / fmt::format("grundy3_{}.b", grundy_full_n);
}

// G_3(1..n) for the tables: the full preset's n computed here and kept under runs/ as a
// b-file; the quick preset computes fewer and takes the rest from that file when it is there,
// after checking that the two agree where both go.
struct GrundyThree {
  std::vector<std::uint32_t> values;
  int computed = 0;  // how many of them this run computed
  std::string what;
};

GrundyThree grundy_three_values(Writer& writer) {
  const int last = writer.full() ? grundy_full_n : grundy_quick_n;
  std::vector<std::uint32_t> g = nim::grundy_values(3, last, writer.target().threads);
  std::string what = fmt::format("nim grundy --k 3 --upto {}", last);
  const std::filesystem::path run = grundy_run(writer);
  if (writer.full()) {
    writer.commented(std::filesystem::relative(run, writer.dir()).string(),
                     "Scatterstone Nim: G_3(n), the full preset's long run", what,
                     nim::bfile_lines(g));
  } else if (std::filesystem::exists(run)) {
    std::vector<std::uint32_t> longer = nim::read_bfile(run.string());
    if (longer.size() > g.size()) {
      if (!std::equal(g.begin(), g.end(), longer.begin()))
        throw std::runtime_error(
            fmt::format("nim: {} differs from G_3 computed for n <= {}", run.string(), last));
      what += fmt::format("; n = {}..{} read from runs/{}", last + 1, longer.size(),
                          run.filename().string());
      g = std::move(longer);
    }
  }
  return {std::move(g), last, what};
}

// G_3(n) as an OEIS-style b-file, its distance from n/2 summarised, and two plots. The search
// time grows as n^3: 10^4 takes a few seconds on 2 cores, 10^5 several minutes.
void write_grundy_three(Writer& writer) {
  const auto t0 = std::chrono::steady_clock::now();
  const GrundyThree three = grundy_three_values(writer);
  const std::vector<std::uint32_t>& g = three.values;
  const std::string& what = three.what;
  const int last = static_cast<int>(g.size());
  // The first values again by the plain mex over every split (n^3 work: a few seconds at 3000).
  constexpr int checked_n = 3000;
  const std::vector<std::uint32_t> plain = nim::grundy_by_definition(3, checked_n);
  if (!std::equal(plain.begin(), plain.end(), g.begin()))
    throw std::runtime_error("nim: G_3 differs from the mex definition");
  const double seconds = seconds_since(t0);
  writer.run_record("nim", "grundy3.b, grundy3.md, grundy3.svg, grundy3_offset.svg", seconds);

  std::string data;
  std::map<long, int> offsets;  // G_3(n) - floor(n/2) -> how many n, sporadic ones apart
  int sporadic_count = 0;
  std::string sporadic;
  long lowest = 0, highest = 0;
  for (int n = 1; n <= last; ++n) {
    const long offset = static_cast<long>(g[n - 1]) - n / 2;
    lowest = std::min(lowest, offset);
    highest = std::max(highest, offset);
    data += fmt::format("{} {} {}\n", n, g[n - 1], offset);
    if (offset >= -2) {
      ++offsets[offset];
    } else {
      ++sporadic_count;
      sporadic += fmt::format("| {} | {} | {} |\n", n, g[n - 1], offset);
    }
  }
  writer.commented("nim/grundy3.b", "Scatterstone Nim: G_3(n), the value of one pile of n", what,
                   nim::bfile_lines(g));

  std::string md = fmt::format(
      "G_3(n) is the value of one pile of n stones when a move splits a pile into 2 or 3 "
      "piles: the mex over every such split of the xor of the parts' values. The full list "
      "for n <= {} is in [grundy3.b](grundy3.b); its first {} values were found again by that "
      "definition alone. In this range G_3(n) - floor(n/2) lies between {} and {}; it falls "
      "below -2 only at the {} sporadic n listed below.\n\n"
      "| G_3(n) - floor(n/2) | how many n <= {} |\n|---:|---:|\n",
      last, checked_n, lowest, highest, sporadic_count, last);
  for (const auto& [offset, count] : offsets) md += fmt::format("| {} | {} |\n", offset, count);
  md += fmt::format("| below -2 (sporadic) | {} |\n", sporadic_count);
  md += fmt::format(
      "\nSporadic values (G_3(n) - floor(n/2) < -2):\n\n| n | G_3(n) | G_3(n) - floor(n/2) |\n"
      "|---:|---:|---:|\n{}",
      sporadic);
  writer.markdown("nim/grundy3.md", "Scatterstone Nim: G_3(n)", what, md);

  // noenhanced: the underscore in G_3 is text, not a subscript.
  const std::string block = "set termoption noenhanced\n$g << EOD\n" + data + "EOD\n";
  // Every tenth n draws the same line at this scale in a tenth of the file.
  writer.plot("nim/grundy3.svg", "Scatterstone Nim: G_3(n) against n",
              block + fmt::format("set title 'Scatterstone Nim, k = 3: G_3(n), n <= {}'\n"
                                  "set xlabel 'n'\nset ylabel 'G_3(n)'\nunset key\n"
                                  "plot $g every 10 using 1:2 with lines",
                                  last));
  // The first few hundred n show the pattern; more points would only blacken the band.
  constexpr int offset_plot_n = 600;
  writer.plot("nim/grundy3_offset.svg", "Scatterstone Nim: G_3(n) - floor(n/2) for small n",
              block + fmt::format("set title 'Scatterstone Nim, k = 3: G_3(n) - floor(n/2), "
                                  "n <= {} (sporadic values below the frame)'\n"
                                  "set xlabel 'n'\nset ylabel 'G_3(n) - floor(n/2)'\n"
                                  "set yrange [-3.5:4.5]\nunset key\n"
                                  "plot $g every ::0::{} using 1:3 with points "
                                  "pointtype 7 pointsize 0.5",
                                  offset_plot_n, offset_plot_n - 1));
  writer.frontier(
      {"Scatterstone Nim: G_3(n), one pile split into 2 or 3",
       "no OEIS entry; the Project Euler 629 write-up (2018) says k = 3 must be computed",
       fmt::format("G_3(n) for n <= {} (the first {} also by the plain mex); G_3(n) - "
                   "floor(n/2) is at most {}, and at least -2 but for {} sporadic n (lowest {})",
                   last, checked_n, highest, sporadic_count, lowest),
       fmt::format("piles nim grundy --k 3 --upto {} --bfile FILE", last),
       "nim/grundy3.b",
       three.computed == last
           ? fmt::format("{:.0f} s", seconds)
           : fmt::format("{:.0f} s for n <= {} and the checks; the rest read from "
                         "nim/runs/ (its run's time is in the README there)",
                         seconds, three.computed),
       // The values again, compared with the table's past its comment lines; the search grows
       // as n^3, so 10^5 takes minutes.
       {{fmt::format("nim grundy --k 3 --upto {0} --bfile grundy3.b --quiet > /dev/null && "
                     "diff <(grep -v '^#' grundy3.b) <(grep -v '^#' results/nim/grundy3.b) && "
                     "echo 'the same {0} values'",
                     last),
         fmt::format("the same {} values\n", last), last > 20000}}});
}

}  // namespace

void write_nim(Writer& writer) {
  write_f_table(writer);
  write_g(writer);
  write_grundy_three(writer);
}

}  // namespace piles::results
