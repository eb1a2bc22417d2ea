#include "host/topswops/estimate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>

#include "core/topswops.hpp"
#include "host/common/output.hpp"

namespace piles::topswops {
namespace {

// One probe below node f at `level`: adds the estimate of each level's nodes below f to
// `per_level` and returns their sum.
template <int W>
double probe(const Problem& p, Frame<W> f, int level, int target, std::mt19937_64& random,
             double* per_level) {
  const Deck<W> sorted = sorted_deck<W>(p.n);
  double weight = 1, sum = 0;
  Frame<W> children[max_n];
  while (level < p.n - 1) {
    open_choices(f);
    prune_choices(f, p, target);
    int count = 0;
    for (std::uint32_t todo = f.todo; todo; todo &= todo - 1)
      if (play_choice(f, bits::trailing_zeros32(todo), p, target, sorted, children[count])) ++count;
    if (count == 0) break;
    weight *= count;
    per_level[++level] += weight;
    sum += weight;
    f = children[std::uniform_int_distribution<int>(0, count - 1)(random)];
  }
  return sum;
}

template <int W>
ChunkEstimate estimate_forward_chunk(const Plan& plan, const Problem& problem, int chunk,
                                     int target, int probes, std::uint64_t seed,
                                     double* per_level) {
  const std::size_t first = plan.chunk_begin(chunk), prefixes = plan.chunk_prefixes(chunk);
  if (prefixes == 0 || probes <= 0) return {};
  std::mt19937_64 random(seed * 0x9e3779b97f4a7c15ull + static_cast<std::uint64_t>(chunk));
  std::vector<double> levels(plan.n, 0.0);
  double sum = 0, squares = 0;
  for (int i = 0; i < probes; ++i) {
    const std::size_t prefix =
        first + std::uniform_int_distribution<std::size_t>(0, prefixes - 1)(random);
    Deck<W> start;
    const Frame<W> f =
        replay<W>(problem, plan.choices.data() + prefix * plan.depth, plan.depth, start);
    const double x = probe(problem, f, plan.depth, target, random, levels.data());
    sum += x;
    squares += x * x;
  }
  const double scale = static_cast<double>(prefixes) / probes;
  for (int l = 0; l < plan.n; ++l) per_level[l] += levels[l] * scale;
  return ChunkEstimate::of_samples(sum, squares, probes, static_cast<double>(prefixes));
}

// The chunks' estimates at `target`, each chunk's levels added to levels[i] where given.
std::vector<ChunkEstimate> estimate_each(const Plan& plan, const std::vector<int>& chunks,
                                         int target, int samples, int threads, std::uint64_t seed,
                                         std::vector<std::vector<double>>* levels) {
  std::vector<ChunkEstimate> out(chunks.size());
  if (plan.n <= 1) return out;
  const std::vector<std::int32_t> table = plan.bounds_at(target);
  const Problem problem = plan.problem(table);
  const auto estimate_chunk = [&](int c, double* at) {
    if (plan.backward) return estimate_backward_chunk(plan, c, target, samples, seed, at);
    return words_for(plan.n) == 2
               ? estimate_forward_chunk<2>(plan, problem, c, target, samples, seed, at)
               : estimate_forward_chunk<3>(plan, problem, c, target, samples, seed, at);
  };
  const int count = static_cast<int>(chunks.size());
  // A backward chunk's passes take far longer than a forward chunk's probes.
#pragma omp parallel num_threads(std::max(threads, 1))
  {
    std::vector<double> scratch(plan.n, 0.0);
#pragma omp for schedule(dynamic, plan.backward ? 1 : 8)
    for (int i = 0; i < count; ++i)
      out[i] = estimate_chunk(chunks[i], levels ? (*levels)[i].data() : scratch.data());
  }
  return out;
}

// The estimate of `chunks` (the search's levels above its prefixes too, for the whole).
Estimate estimate_of(const Plan& plan, const std::vector<int>& chunks, Estimate::Part part,
                     int target, int samples, int threads, std::uint64_t seed) {
  const bool top = part == Estimate::Part::whole;
  const auto begin = std::chrono::steady_clock::now();
  Estimate e;
  e.target = target;
  e.stratified = plan.backward.has_value();
  e.per_level.assign(plan.n, 0.0);
  for (int l = 0; top && l < plan.n && l < static_cast<int>(plan.top.nodes.size()); ++l)
    e.per_level[l] = static_cast<double>(plan.top.nodes[l]);
  e.part = part;
  e.chunks_weighed = chunks.size();
  for (int c : chunks) e.prefixes += plan.chunk_prefixes(c);
  e.chunks.assign(plan.chunk_count, 0.0);
  if (plan.n > 1) {
    const std::size_t count = chunks.size();
    std::vector<std::vector<double>> levels(count, std::vector<double>(plan.n, 0.0));
    const std::vector<ChunkEstimate> each =
        estimate_each(plan, chunks, target, samples, threads, seed, &levels);
    ChunkEstimate sum;
    for (std::size_t i = 0; i < count; ++i) {
      e.chunks[chunks[i]] = each[i].nodes;
      sum += each[i];
      for (int l = 0; l < plan.n; ++l) e.per_level[l] += levels[i][l];
    }
    e.standard_error = std::sqrt(sum.variance);
    e.probes = static_cast<std::uint64_t>(samples) * count;
  }
  for (double x : e.per_level) e.nodes += x;
  e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return e;
}

}  // namespace

std::vector<ChunkEstimate> estimate_chunks(const Plan& plan, const std::vector<int>& chunks,
                                           int target, int samples, int threads,
                                           std::uint64_t seed) {
  return estimate_each(plan, chunks, target, samples, threads, seed, nullptr);
}

ChunkWeights::ChunkWeights(const Plan& plan, const Estimate& estimate, double min_nodes)
    : plan_(plan),
      nodes_(estimate.chunks),
      target_(estimate.target),
      min_nodes_(min_nodes),
      per_prefix_(estimate.prefixes > 0 ? estimate.nodes / estimate.prefixes : 1.0) {}

std::optional<std::string> ChunkWeights::retarget(int target, const std::vector<int>& left,
                                                  int threads) {
  double before = 0;
  for (int c : left) before += nodes_.at(c);
  if (target <= target_ || before < min_nodes_) return std::nullopt;
  target_ = target;
  const std::vector<ChunkEstimate> again =
      estimate_chunks(plan_, left, target, default_samples_per_chunk(plan_), threads);
  ChunkEstimate sum;
  std::uint64_t prefixes = 0;
  for (std::size_t i = 0; i < left.size(); ++i) {
    nodes_[left[i]] = again[i].nodes;
    sum += again[i];
    prefixes += plan_.chunk_prefixes(left[i]);
  }
  if (prefixes > 0) per_prefix_ = sum.nodes / static_cast<double>(prefixes);
  return fmt::format("target {}: the {} chunks left estimated at {} nodes (±{:.1f}%)", target,
                     group_digits(left.size()), scientific(sum.nodes), 100 * sum.relative_error());
}

Estimate estimate_search(const Plan& plan, int target, int samples, int threads,
                         std::uint64_t seed) {
  std::vector<int> all(plan.chunk_count);
  std::iota(all.begin(), all.end(), 0);
  return estimate_of(plan, all, Estimate::Part::whole, target, samples, threads, seed);
}

Estimate estimate_part(const Plan& plan, Estimate::Part part, const std::vector<int>& chunks,
                       int target, int samples, int threads, std::uint64_t seed) {
  return estimate_of(plan, chunks, part, target, samples, threads, seed);
}

}  // namespace piles::topswops
