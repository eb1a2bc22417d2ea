#include "host/bulgarian/stochastic.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <stdexcept>

#include "core/bulgarian.hpp"
#include "host/common/error.hpp"
#include "host/common/gnuplot.hpp"
#ifdef PILES_HAVE_CUDA
#include "kernels/bulgarian_random.hpp"
#endif

namespace piles::bulgarian {
namespace {

constexpr double two_53 = 9007199254740992.0;

void check(const RandomSpec& spec) {
  if (!(spec.p > 0 && spec.p <= 1))
    throw UsageError(fmt::format("--p: {} is not a probability in (0, 1]", spec.p));
  if (spec.runs < 1) throw UsageError("--runs: need at least one run");
}

// Parts are int here, so any number of cards fits; the shape grows with the most piles seen.
void run_cpu(const RandomSpec& spec, std::uint64_t threshold, int threads, RandomResult& r) {
  const auto runs = static_cast<std::int64_t>(spec.runs);
  std::vector<std::uint64_t> shape;
  std::uint64_t piles = 0;
#pragma omp parallel num_threads(threads)
  {
    std::vector<int> parts;
    std::vector<std::uint64_t> my_shape;
    std::uint64_t my_piles = 0;
#pragma omp for schedule(static)
    for (std::int64_t chain = 0; chain < runs; ++chain) {
      parts.assign(spec.start.begin(), spec.start.end());
      const std::uint64_t key = chain_key(spec.seed, chain);
      for (std::uint64_t step = 0; step < spec.steps; ++step) {
        const int len = static_cast<int>(parts.size());
        parts.push_back(0);
        parts.resize(stochastic_move(parts.data(), len, threshold, key, step));
      }
      if (parts.size() > my_shape.size()) my_shape.resize(parts.size());
      for (std::size_t i = 0; i < parts.size(); ++i) my_shape[i] += parts[i];
      my_piles += parts.size();
    }
#pragma omp critical(piles_bulgarian_random_merge)
    {
      if (my_shape.size() > shape.size()) shape.resize(my_shape.size());
      for (std::size_t i = 0; i < my_shape.size(); ++i) shape[i] += my_shape[i];
      piles += my_piles;
    }
  }
  r.shape_sums = std::move(shape);
  r.pile_sum = piles;
}

}  // namespace

std::uint64_t probability_threshold(double p) {
  return static_cast<std::uint64_t>(std::floor(p * two_53));
}

RandomResult run_random(const RandomSpec& spec, const RunTarget& target) {
  check(spec);
  const auto start = std::chrono::steady_clock::now();
  RandomResult r;
  r.spec = spec;
  r.n = static_cast<int>(std::accumulate(spec.start.begin(), spec.start.end(), std::int64_t{0}));
  if (target.backend == Backend::gpu && r.n > partition::max_n)
    throw UsageError(fmt::format("random: the GPU engine takes at most {} cards, not {}",
                                 partition::max_n, r.n));
  r.target = target;
  const std::uint64_t threshold = probability_threshold(spec.p);
  if (target.backend == Backend::gpu) {
#ifdef PILES_HAVE_CUDA
    const std::vector<part_t> start_parts(spec.start.begin(), spec.start.end());
    gpu::RandomSums sums =
        gpu::bulgarian_random(start_parts, spec.runs, spec.steps, threshold, spec.seed);
    r.shape_sums = std::move(sums.shape);
    r.pile_sum = sums.piles;
#endif
  } else {
    run_cpu(spec, threshold, target.threads, r);
  }
  // Both engines report the same piles: the largest first, none that is always empty.
  while (!r.shape_sums.empty() && r.shape_sums.back() == 0) r.shape_sums.pop_back();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

std::vector<double> RandomResult::mean_shape() const {
  std::vector<double> mean;
  for (const std::uint64_t s : shape_sums) mean.push_back(static_cast<double>(s) / spec.runs);
  while (!mean.empty() && mean.back() == 0) mean.pop_back();
  return mean;
}

double RandomResult::mean_piles() const {
  return static_cast<double>(pile_sum) / spec.runs;
}

std::vector<int> RandomResult::triangle() const {
  std::vector<int> t;
  for (int v = brandt_k(n); v > 0; --v) t.push_back(v);
  return t;
}

double RandomResult::distance_to_triangle() const {
  const std::vector<double> mean = mean_shape();
  const std::vector<int> tri = triangle();
  double d = 0;
  for (std::size_t i = 0; i < std::max(mean.size(), tri.size()); ++i)
    d += std::abs((i < mean.size() ? mean[i] : 0.0) - (i < tri.size() ? tri[i] : 0));
  return d;
}

std::string random_plot_script(const RandomResult& r) {
  std::string data;
  const std::vector<double> mean = r.mean_shape();
  const std::vector<int> tri = r.triangle();
  for (std::size_t i = 0; i < std::max(mean.size(), tri.size()); ++i)
    data += fmt::format("{} {} {}\n", i + 1, i < mean.size() ? mean[i] : 0.0,
                        i < tri.size() ? tri[i] : 0);
  return fmt::format(
      "$shape << EOD\n{}EOD\n"
      "set title 'Stochastic Bulgarian solitaire: n = {}, p = {}, {} steps, {} runs'\n"
      "set xlabel 'pile (largest first)'\nset ylabel 'cards'\nset key top right\n"
      "set style fill solid 0.5\nset boxwidth 0.8\n"
      "plot $shape using 1:2 with boxes title 'mean shape', "
      "$shape using 1:3 with linespoints lw 2 title 'triangle (k, ..., 1)'\n",
      data, r.n, r.spec.p, r.spec.steps, r.spec.runs);
}

std::string random_plot_svg(const RandomResult& r) {
  return svg_from_gnuplot(random_plot_script(r));
}

}  // namespace piles::bulgarian
