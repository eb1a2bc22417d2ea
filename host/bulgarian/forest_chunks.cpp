#include "host/bulgarian/forest_chunks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <unordered_map>

#include "core/partition.hpp"
#include "host/common/error.hpp"
#include "host/common/partition_table.hpp"

namespace piles::bulgarian {
namespace {

// Subtrees per chunk of the levels split.
constexpr std::size_t levels_subtrees_per_chunk = 8;
constexpr std::uint64_t split_seed = 0x5eed'b01c'a51a'0001;

// SplitMix64 (Steele, Lea and Flood): the s-th draw depends on s alone, so the samples are the
// same whatever thread draws them.
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e37'79b9'7f4a'7c15;
  x = (x ^ (x >> 30)) * 0xbf58'476d'1ce4'e5b9;
  x = (x ^ (x >> 27)) * 0x94d0'49bb'1331'11eb;
  return x ^ (x >> 31);
}

// A partition's name among its siblings and the forest's first level (parts largest first):
// its parts weighed by fixed random factors, one a position. Two partitions share a name only
// where the factors, times the differences of their parts (at most n), add up to 0 mod 2^64.
// The products do not wait on each other: a chain of SplitMix64 steps, one a part, was 70% of
// the samples' time at n = 100 (perf), and with the products the cut took 0.18 s, not 0.22.
std::uint64_t parts_hash(const part_t* parts, int len) {
  static const std::array<std::uint64_t, partition::max_n + 1> factor = [] {
    std::array<std::uint64_t, partition::max_n + 1> f{};
    for (std::size_t i = 0; i < f.size(); ++i) f[i] = splitmix64(split_seed ^ (i << 32));
    return f;
  }();
  std::uint64_t h = 0;
  for (int i = 0; i < len; ++i) h += factor[i] * parts[i];
  return h;
}

std::uint64_t node_hash(const ForestNode& node) {
  part_t parts[partition::max_n + 1];
  return parts_hash(parts, node.to_parts(parts));
}

// Sample s: a partition of rank uniform in 0..p(n)-1, and the names of the partitions on its
// way to the cycle, by depth: path[d - 1] is its ancestor at depth d (itself last). Empty for a
// partition on the cycle, which the top holds.
std::vector<std::uint64_t> sample_path(const PartitionTable& table, int k, std::uint64_t s) {
  const auto r = static_cast<std::uint64_t>(
      (static_cast<unsigned __int128>(splitmix64(split_seed + s)) * table.count()) >> 64);
  part_t a[partition::max_n + 2], b[partition::max_n + 2];
  part_t *cur = a, *next = b;
  int len = partition::unrank(table.view(), r, cur);
  std::vector<std::uint64_t> path;
  while (!on_cycle(cur, len, k)) {
    path.push_back(parts_hash(cur, len));
    len = move(cur, len, next);
    std::swap(cur, next);
  }
  std::reverse(path.begin(), path.end());
  // 65,536 paths: their growth room raised the cut's peak at n = 180 from 101 MB to 137.
  path.shrink_to_fit();
  return path;
}

class SampledCut {
 public:
  SampledCut(int n, int chunks) : n_(n), chunks_(chunks) {
    const PartitionTable table(n);
    const int k = brandt_k(n);
    paths_.resize(split_samples);
#pragma omp parallel for schedule(dynamic, 256)
    for (int s = 0; s < split_samples; ++s) paths_[s] = sample_path(table, k, s);
    limit_ = std::max<std::size_t>(1, split_samples / (4 * static_cast<std::size_t>(chunks)));
  }

  ForestChunks cut() {
    ForestChunks out;
    out.top = expand_forest(n_, 0);  // the cycle partitions, and their subtrees below
    std::vector<ForestWalker> first = std::move(out.top.subtrees);
    std::unordered_map<std::uint64_t, std::size_t> named;
    for (std::size_t i = 0; i < first.size(); ++i) named.emplace(node_hash(first[i].node), i);
    std::vector<std::vector<int>> held(first.size());
    for (int s = 0; s < split_samples; ++s) {
      if (paths_[s].empty()) continue;
      const auto it = named.find(paths_[s][0]);
      if (it == named.end())
        throw std::logic_error(fmt::format("n = {}: sample {} is not below the cycle", n_, s));
      held[it->second].push_back(s);
    }
    for (std::size_t i = 0; i < first.size(); ++i) open(first[i].node, held[i], out.top);
    assign(out);
    return out;
  }

 private:
  // Opens the node while it holds more than `limit_` samples (counting it in the top), and
  // lists the subtrees left, depth first, with their samples.
  void open(const ForestNode& node, const std::vector<int>& samples, ForestTop& top) {
    if (samples.size() <= limit_) {
      top.subtrees.push_back(ForestWalker::at(node));
      weights_.push_back(samples.size());
      return;
    }
    const std::size_t d = static_cast<std::size_t>(node.depth);
    if (d >= top.counts.histogram.size())
      throw std::runtime_error(fmt::format("n = {}: a transient beyond {} moves", n_, d));
    ++top.counts.histogram[d];
    top.counts.leaves += node.is_leaf();
    std::vector<ForestNode> children;
    std::vector<std::uint64_t> names;
    for (int g = node.head; node.is_candidate(g); ++g) {
      ForestNode child = node;
      child.descend(g);
      names.push_back(node_hash(child));
      children.push_back(child);
    }
    std::vector<std::vector<int>> below(children.size());
    for (const int s : samples) {
      if (paths_[s].size() == d) continue;  // the node itself
      const auto it = std::find(names.begin(), names.end(), paths_[s][d]);
      if (it == names.end())
        throw std::logic_error(fmt::format("n = {}: sample {} lost at depth {}", n_, s, d));
      below[it - names.begin()].push_back(s);
    }
    for (std::size_t c = 0; c < children.size(); ++c) open(children[c], below[c], top);
  }

  // Chunk c takes the subtrees whose samples' midpoint falls in its c-th of them all.
  void assign(ForestChunks& out) const {
    const std::size_t count = out.top.subtrees.size();
    std::uint64_t total = 0;
    for (const std::size_t w : weights_) total += w;
    const auto chunks = static_cast<std::uint64_t>(chunks_);
    out.begin.assign(chunks + 1, count);
    std::uint64_t before = 0;
    std::size_t next = 0;  // begin[c] is the first subtree of chunk c or later, for c < next
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint64_t c =
          total == 0
              ? i * chunks / count
              : std::min(chunks - 1, (2 * chunks * before + chunks * weights_[i]) / (2 * total));
      while (next <= c) out.begin[next++] = i;
      before += weights_[i];
    }
  }

  int n_, chunks_;
  std::vector<std::vector<std::uint64_t>> paths_;
  std::size_t limit_ = 1;
  std::vector<std::size_t> weights_;  // samples per subtree of the cut, in order
};

ForestChunks cut_levels(int n, int chunks) {
  ForestChunks out;
  out.top = expand_forest(n, levels_subtrees_per_chunk * chunks);
  const std::size_t count = out.top.subtrees.size();
  for (std::size_t c = 0; c <= static_cast<std::size_t>(chunks); ++c)
    out.begin.push_back(count * c / chunks);
  return out;
}

}  // namespace

std::optional<std::string> split_name(ForestSplit split) {
  if (split == ForestSplit::levels) return std::nullopt;
  return "sampled/1";
}

ForestSplit split_of(const nlohmann::json& problem) {
  const auto name = problem.find("split");
  if (name == problem.end()) return ForestSplit::levels;
  if (*name == *split_name(ForestSplit::sampled)) return ForestSplit::sampled;
  throw UsageError(
      fmt::format("the journal cuts its forests by {}, which this version of piles does not know",
                  name->dump()));
}

ForestChunks cut_forest(int n, int chunks, ForestSplit split) {
  if (split == ForestSplit::levels) return cut_levels(n, chunks);
  return SampledCut(n, chunks).cut();
}

}  // namespace piles::bulgarian
