#include "host/bulgarian/graph.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "core/bulgarian.hpp"
#include "core/partition.hpp"
#include "host/bulgarian/forward.hpp"
#include "host/common/error.hpp"
#include "host/common/output_file.hpp"
#include "host/common/parse.hpp"
#include "host/common/partition_table.hpp"
#include "host/common/program.hpp"

namespace piles::bulgarian {
namespace {

// Runs `dot -T<format> <input> [-o <output>]` and waits for it.
void run_dot(const std::string& format, const std::string& input, const std::string& output) {
  std::vector<std::string> args = {"dot", "-T" + format, input};
  if (!output.empty()) args.insert(args.end(), {"-o", output});
  if (!run_program(args, "graphviz"))
    throw std::runtime_error(fmt::format("Graphviz `dot -T{}` failed", format));
}

// One partition of the graph: its rank, its successor's, and whether it lies on a cycle.
struct Edge {
  std::uint64_t from, to;
  bool cycle;
};

std::vector<Edge> edges(const PartitionTable& table) {
  const ForwardCounts counts = forward_cpu(table, 1);
  std::vector<Edge> out;
  for (std::uint64_t r = 0; r < table.count(); ++r)
    out.push_back({r, successor_rank(table.view(), r),
                   std::binary_search(counts.cycle_ranks.begin(), counts.cycle_ranks.end(), r)});
  return out;
}

std::vector<partition::part_t> parts(const PartitionTable& table, std::uint64_t r) {
  std::vector<partition::part_t> out(table.n() + 1);
  out.resize(partition::unrank(table.view(), r, out.data()));
  return out;
}

std::string label(const PartitionTable& table, std::uint64_t r) {
  return fmt::format("({})", fmt::join(parts(table, r), ", "));
}

PartitionTable graph_table(int n) {
  if (n < 1 || n > partition::max_n)
    throw UsageError(fmt::format("n = {} is out of range (1..{})", n, partition::max_n));
  PartitionTable table(n);
  if (table.count() > graph_max_partitions)
    throw UsageError(
        fmt::format("n = {}: {} partitions are too many to draw (at most {}, so n <= 29)", n,
                    table.count(), graph_max_partitions));
  return table;
}

}  // namespace

nlohmann::json graph_json(int n) {
  const PartitionTable table = graph_table(n);
  nlohmann::json moves = nlohmann::json::array();
  for (const Edge& e : edges(table))
    moves.push_back(
        {{"partition", parts(table, e.from)}, {"next", parts(table, e.to)}, {"on_cycle", e.cycle}});
  return {{"n", n}, {"partitions", table.count()}, {"moves", moves}};
}

std::string graph_dot(int n) {
  const PartitionTable table = graph_table(n);
  std::string dot = fmt::format(
      "digraph bulgarian_{} {{\n"
      "  label=\"Bulgarian solitaire, n = {}: {} partitions, cycle partitions shaded\";\n"
      "  node [shape=rect, fontname=\"sans\", fontsize=10];\n"
      "  edge [arrowsize=0.6];\n",
      n, n, table.count());
  for (const Edge& e : edges(table)) {
    const std::string from = label(table, e.from);
    if (e.cycle)
      dot += fmt::format("  \"{}\" [style=filled, fillcolor=\"#f4a261\", penwidth=2];\n", from);
    dot += fmt::format("  \"{}\" -> \"{}\"{};\n", from, label(table, e.to),
                       e.cycle ? " [color=\"#e76f51\", penwidth=2]" : "");
  }
  return dot + "}\n";
}

void write_graph(int n, const std::string& format, const std::string& path) {
  parse_choice(format, "--format", {"dot", "svg", "png"});
  const std::string dot = graph_dot(n);
  const OutputFile out(path, "-o");
  if (format == "dot" && !out.wanted()) {
    std::fwrite(dot.data(), 1, dot.size(), stdout);
    return;
  }
  if (format == "dot") {
    out.write(dot);
    return;
  }
  char name[] = "/tmp/piles_graph_XXXXXX";
  const int fd = mkstemp(name);
  if (fd < 0)
    throw std::runtime_error(
        fmt::format("cannot create a temporary file for dot ({})", std::strerror(errno)));
  const bool written = write(fd, dot.data(), dot.size()) == static_cast<ssize_t>(dot.size());
  const int error = errno;
  close(fd);
  try {
    if (!written)
      throw std::runtime_error(
          fmt::format("cannot write the temporary dot file ({})", std::strerror(error)));
    std::fflush(stdout);
    run_dot(format, name, path);
  } catch (...) {
    unlink(name);
    throw;
  }
  unlink(name);
}

}  // namespace piles::bulgarian
