#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace piles::bulgarian {

// Larger graphs are refused: Graphviz takes minutes and the picture is unreadable.
inline constexpr std::uint64_t graph_max_partitions = 5000;

// The transition graph λ -> B(λ) of every partition of n as Graphviz dot text, cycle
// partitions highlighted (seed 000's picture). UsageError when p(n) > graph_max_partitions.
std::string graph_dot(int n);

// The same graph as JSON: n, the number of partitions, and each partition with its successor
// and whether it lies on a cycle.
nlohmann::json graph_json(int n);

// Writes the graph in `format` (dot, svg or png) to `path`, or to stdout when path is empty;
// svg and png are rendered by Graphviz's `dot` program.
void write_graph(int n, const std::string& format, const std::string& path);

}  // namespace piles::bulgarian
