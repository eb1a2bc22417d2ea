// How evenly a journaled Bulgarian run's chunks share out each n's forest
// (host/bulgarian/forest_chunks.hpp): for each n, both splits cut into --chunks chunks, every
// chunk walked on the CPU threads, and the largest and smallest chunk against an even share of
// the partitions; with the seconds the sampled cut takes (drawing and following its samples,
// opening the top). The record goes to results/bench/bulgarian_chunks.md.
//
//   bench_forest_chunks [--from N] [--to N] [--step S] [--chunks C] [--threads T] [--out FILE]

#include <fmt/format.h>
#include <omp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "bench/bench_support.hpp"
#include "build_info.hpp"
#include "host/bulgarian/backward.hpp"
#include "host/bulgarian/forest_chunks.hpp"
#include "host/common/output.hpp"
#include "host/common/partition_table.hpp"

namespace bg = piles::bulgarian;

namespace {

struct Spread {
  double largest = 0, smallest = 0;  // of the chunks, in even shares of p(n)
};

Spread spread(const bg::ForestChunks& cut, int n, int chunks, int threads) {
  const double even = static_cast<double>(piles::partition_count(n)) / chunks;
  Spread s{0, 1e300};
  for (int c = 0; c < chunks; ++c) {
    const auto subtrees = cut.chunk(c);
    const double held = static_cast<double>(
        bg::walk_subtrees_cpu({subtrees.begin(), subtrees.end()}, bg::depth_bound(n), threads, {})
            .nodes());
    s.largest = std::max(s.largest, held / even);
    s.smallest = std::min(s.smallest, held / even);
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Chunks of the Bulgarian forest: how evenly each split shares out n's partitions"};
  int from = 80, to = 115, step = 5, chunks = 32, threads = 2;
  std::string out = "results/bench/bulgarian_chunks.md";
  app.add_option("--from", from, "First n")->check(CLI::Range(1, 140));
  app.add_option("--to", to, "Last n")->check(CLI::Range(1, 140));
  app.add_option("--step", step, "Step between the n")->check(CLI::PositiveNumber);
  app.add_option("--chunks", chunks, "Chunks an n")->check(CLI::Range(1, 4096));
  app.add_option("--threads", threads, "CPU threads")->check(CLI::PositiveNumber);
  app.add_option("--out", out, "Record file");
  CLI11_PARSE(app, argc, argv);
  omp_set_num_threads(threads);

  const std::string load_before = piles::bench::load_average();
  std::string table =
      "| n | p(n) | sampled: largest chunk | smallest | subtrees | cut | level by level: largest "
      "chunk | smallest |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (int n = from; n <= to; n += step) {
    const auto start = std::chrono::steady_clock::now();
    const bg::ForestChunks sampled = bg::cut_forest(n, chunks, bg::ForestSplit::sampled);
    const double cut_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const Spread s = spread(sampled, n, chunks, threads);
    const Spread l = spread(bg::cut_forest(n, chunks, bg::ForestSplit::levels), n, chunks, threads);
    const std::string line = fmt::format(
        "| {} | {} | {:.2f} | {:.2f} | {} | {:.2f} s | {:.2f} | {:.2f} |\n", n,
        piles::group_digits(piles::partition_count(n)), s.largest, s.smallest,
        piles::group_digits(sampled.top.subtrees.size()), cut_seconds, l.largest, l.smallest);
    fmt::print("{}", line);
    std::fflush(stdout);
    table += line;
  }
  piles::bench::write_record(
      out, fmt::format(
               "# Chunks of the Bulgarian forest: how evenly each split shares out n's "
               "partitions\n\n"
               "_made by `bench_forest_chunks --from {} --to {} --step {} --chunks {} --threads "
               "{}`; piles {}; {}; {} CPU threads; load average before {}, after {}; {}_\n\n"
               "Each n's predecessor forest cut into {} chunks by the sampled split (new "
               "journals) and level by level (journals begun before it), every chunk walked. A "
               "chunk's partitions are given in even shares, p(n) / {}: 1.00 is even. The cut's "
               "seconds are the sampled split's: drawing {} partitions and following each to its "
               "cycle, then opening the top.\n\n{}",
               from, to, step, chunks, threads, piles::version, piles::cpu_model(), threads,
               load_before, piles::bench::load_average(), piles::bench::today(), chunks, chunks,
               piles::group_digits(bg::split_samples), table));
}
