#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/common/backend.hpp"

namespace piles::bulgarian {

// The stochastic game of seed 000: each pile gives a card independently with probability p.
struct RandomSpec {
  std::vector<int> start;  // non-increasing; n = its sum
  double p = 0.5;
  std::uint64_t runs = 1000;
  std::uint64_t steps = 1000;
  std::uint64_t seed = 1;
};

struct RandomResult {
  RandomSpec spec;
  int n = 0;
  std::vector<std::uint64_t> shape_sums;  // [i]: sum over chains of the i-th largest pile
  std::uint64_t pile_sum = 0;             // sum over chains of the number of piles
  RunTarget target;
  double seconds = 0;

  std::vector<double> mean_shape() const;  // trailing zeros dropped
  double mean_piles() const;
  std::vector<int> triangle() const;  // (k, ..., 1) for Brandt's k of n
  // Sum over i of |mean_shape[i] - triangle[i]|.
  double distance_to_triangle() const;
};

// p * 2^53 as the Bernoulli threshold both backends compare their random words with.
std::uint64_t probability_threshold(double p);

// Checks the spec (UsageError naming the bad value) and runs every chain on the target.
RandomResult run_random(const RandomSpec& spec, const RunTarget& target);

// gnuplot commands (no terminal, no output) drawing the mean shape against the triangle.
std::string random_plot_script(const RandomResult& r);

// The same picture as SVG text, drawn by gnuplot.
std::string random_plot_svg(const RandomResult& r);

}  // namespace piles::bulgarian
