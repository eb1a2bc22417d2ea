// Prefixes that beat their round's target on a device (host/topswops/rising.hpp): chunk 0 of
// n cards from f(n-1), cut for a device of 150,000 lanes as a GPU run cuts it, searched on the
// stand-in device (the CPU search of each work, as the tests do), and for the prefixes below
// which a game longer than the target turns up: what the host's threads searched again whole
// before (the prefixes' own nodes), against the passes that now finish them on the device, and
// the host's walks between the passes. At 18 cards only the first prefixes of chunk 0 are
// searched (--n18-prefixes), the rest of its groups left empty. The record goes to
// results/bench/rising_prefixes.md.
//
//   bench_rising [--from N] [--to N] [--n18-prefixes K] [--threads T] [--out FILE]

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "bench/bench_support.hpp"
#include "build_info.hpp"
#include "host/common/output.hpp"
#include "host/topswops/cpu_engine.hpp"
#include "host/topswops/deepen.hpp"
#include "host/topswops/plan.hpp"
#include "host/topswops/rising.hpp"

namespace ts = piles::topswops;

namespace {

double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

struct Row {
  int n = 0, target = 0;
  std::size_t prefixes = 0, of = 0, pieces = 0, rising = 0, passes = 0;
  std::uint64_t nodes = 0, again = 0, first_pass = 0, later = 0, largest_later = 0;
  double device_seconds = 0, walk_seconds = 0;
};

Row measure(int n, std::size_t prefix_limit, int threads) {
  const ts::Plan plan = ts::make_plan(n, ts::Final::any, std::nullopt);
  Row row;
  row.n = n;
  row.target = plan.start_target;
  row.of = plan.chunk_prefixes(0);
  row.prefixes = std::min(row.of, prefix_limit);
  const ts::DeepWork deep =
      ts::deepen(plan, {0}, row.target, ts::prefixes_for_lanes(150'000), threads);
  row.pieces = deep.work.chunk_ends.back();
  // The first search: the groups of the first `prefixes` prefixes; the rest left empty.
  piles::gpu::TopswopsWork first = deep.work;
  first.chunk_ends.resize(row.prefixes);
  first.choices.resize(first.chunk_ends.back() * first.depth);
  std::vector<ts::Partial> groups = ts::search_work_cpu(first, threads);
  groups.resize(deep.prefix.size());
  for (std::size_t g = row.prefixes; g < groups.size(); ++g) groups[g].nodes.assign(n, 0);
  std::vector<std::size_t> rising;
  for (std::size_t g = 0; g < row.prefixes; ++g) {
    groups[g].merge(deep.tops[g]);
    if (groups[g].best > row.target) rising.push_back(g);
  }
  std::size_t calls = 0;
  const ts::DeviceSearch stand_in = [&](const piles::gpu::TopswopsWork& work,
                                        const ts::KeepGroups&) {
    const auto start = std::chrono::steady_clock::now();
    std::vector<ts::Partial> out = ts::search_work_cpu(work, threads);
    row.device_seconds += since(start);
    for (const ts::Partial& p : out) {
      (calls == 0 ? row.first_pass : row.later) += p.total_nodes();
      if (calls > 0) row.largest_later = std::max(row.largest_later, p.total_nodes());
    }
    ++calls;
    return out;
  };
  const auto start = std::chrono::steady_clock::now();
  row.passes = ts::finish_rising(plan, deep, row.target, rising, groups, threads, stand_in);
  row.walk_seconds = since(start) - row.device_seconds;
  row.rising = rising.size();
  for (std::size_t g = 0; g < row.prefixes; ++g) row.nodes += groups[g].total_nodes();
  for (std::size_t g : rising) row.again += groups[g].total_nodes();
  return row;
}

std::string share(std::uint64_t part, std::uint64_t whole) {
  return fmt::format("{:.1f}%", whole ? 100.0 * static_cast<double>(part) / whole : 0.0);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Prefixes beating the target: searched again on the host, or finished in passes"};
  int from = 15, to = 17, threads = 2;
  std::size_t n18_prefixes = 120;
  std::string out = "results/bench/rising_prefixes.md";
  app.add_option("--from", from, "First n")->check(CLI::Range(14, 17));
  app.add_option("--to", to, "Last n")->check(CLI::Range(14, 17));
  app.add_option("--n18-prefixes", n18_prefixes, "Prefixes of chunk 0 at n = 18 (0: none)");
  app.add_option("--threads", threads, "CPU threads")->check(CLI::PositiveNumber);
  app.add_option("--out", out, "Record file");
  CLI11_PARSE(app, argc, argv);

  const std::string load_before = piles::bench::load_average();
  std::vector<Row> rows;
  for (int n = from; n <= to; ++n) rows.push_back(measure(n, SIZE_MAX, threads));
  if (n18_prefixes > 0) rows.push_back(measure(18, n18_prefixes, threads));

  std::string table =
      "| n | from | prefixes of chunk 0 | pieces on the device | prefixes beating it | their "
      "nodes, searched again on the host before | passes | first pass | later passes | "
      "largest piece, later | walks on the host |\n"
      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const Row& r : rows) {
    const std::string line = fmt::format(
        "| {} | {} | {} | {} | {} | {} ({}) | {} | {} ({}) | {} ({}) | {} | {:.2f} s |\n", r.n,
        r.target,
        r.prefixes == r.of
            ? piles::group_digits(r.of)
            : fmt::format("the first {} of {}", r.prefixes, piles::group_digits(r.of)),
        piles::group_digits(r.pieces), r.rising, piles::group_digits(r.again),
        share(r.again, r.nodes), r.passes, piles::group_digits(r.first_pass),
        share(r.first_pass, r.nodes), piles::group_digits(r.later), share(r.later, r.nodes),
        piles::group_digits(r.largest_later), r.walk_seconds);
    fmt::print("{}", line);
    std::fflush(stdout);
    table += line;
  }
  piles::bench::write_record(
      out,
      fmt::format(
          "# Prefixes beating the target: on the host, or in passes of the device\n\n"
          "_made by `bench_rising --from {} --to {} --n18-prefixes {} --threads {}`; piles {}; "
          "{}; {} CPU threads; load average before {}, after {}; {}_\n\n"
          "Chunk 0 of n cards from f(n-1), cut for a device of 150,000 lanes, searched on the "
          "stand-in device (the CPU search of each work). A prefix below which a game longer "
          "than the target turns up was searched again whole on the host's threads, the device "
          "idle; now the host walks the levels above its pieces and the device searches them in "
          "passes (host/topswops/rising.hpp). Shares are of the nodes of the prefixes searched. "
          "The first pass searches every piece of those prefixes again from the target; the "
          "later ones the pieces after a rise, from the raised target. The walks' seconds are "
          "the host's between the passes, on these threads.\n\n{}",
          from, to, n18_prefixes, threads, piles::version, piles::cpu_model(), threads, load_before,
          piles::bench::load_average(), piles::bench::today(), table));
}
