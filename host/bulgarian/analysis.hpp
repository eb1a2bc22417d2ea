#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "host/bulgarian/backward.hpp"
#include "host/common/backend.hpp"
#include "host/common/progress.hpp"

namespace piles::bulgarian {

// The backward walk runs for n up to 255 (parts and multiplicities then fit a byte, and the
// number of cycle partitions stays below a million); the forward engine needs ranks below 2^32.
inline constexpr int analyze_max_n = 255;

// generic: the forward engine on any game's ranked states (generic.hpp), variants included.
enum class Engine { forward, backward, generic };
const char* engine_name(Engine engine);

// The whole structure of B on the partitions of n, or of a variant's move on its states.
struct Analysis {
  int n = 0;
  std::string variant;           // as --variant names it; empty: plain game
  std::uint64_t partitions = 0;  // states
  std::uint64_t cycles = 0;
  std::map<int, std::uint64_t> cycle_lengths;      // length -> number of cycles
  std::vector<std::uint64_t> cycle_ranks;          // ranks of the partitions on cycles, sorted
  std::vector<std::uint64_t> transient_histogram;  // [d]: partitions d moves from their cycle
  std::uint64_t garden_of_eden = 0;                // partitions with no predecessor

  Engine engine = Engine::backward;
  RunTarget target;
  double seconds = 0;
  std::uint64_t device_partitions = 0;  // of the partitions, visited by the GPU backward walk

  int max_transient() const { return static_cast<int>(transient_histogram.size()) - 1; }
  std::uint64_t max_transient_count() const { return transient_histogram.back(); }
  // D(n) equals Griggs and Ho's formula. The formula is stated from n = 3 on (at n = 1, 2 every
  // partition lies on its cycle): below, it makes no claim to hold or fail.
  bool conjecture_holds() const;
  bool formula_applies() const { return n >= 3; }
  // Same counts, whatever engine or backend produced them.
  bool same_structure(const Analysis& other) const;
};

// Parses --engine: forward | backward | generic | auto. auto takes the faster engine: the backward
// walk, which measured about 45 times faster than the forward engine on the CPU (bench_bulgarian,
// n = 80) and faster at every smaller n; on a GPU the comparison is still to be measured.
Engine choose_engine(std::string_view name);

// How the backward engine on a GPU shares the forest with the host: the host opens the top of
// the forest until this many subtrees wait (or none is left), the device walks them. By default
// 2^19, and more until one round fills the device; tests set a few so the device does the
// walking at small n. Each walk of a round takes at most gpu_walk_budget descents (by default
// the kernel's 2^20; bench_bulgarian also times 2^12, which the host model says keeps far more
// threads busy, bulgarian_walk_lanes.md); with the lanes kernel it is the passes of a launch
// (by default 2^26), past which its open walks park for the next.
struct BackwardOptions {
  std::optional<std::size_t> gpu_host_subtrees;
  std::optional<std::uint64_t> gpu_walk_budget;
  WalkKernel walk_kernel = default_walk_kernel;
};

// Whether the backward walk on a GPU (default_walk_kernel) beats the CPU threads beside it. The
// rounds kernel ran at 0.04 to 0.09 times the rate of the 16 CPU threads beside an NVIDIA H200
// (results/bench/gpu_h200.md), and on an H100 at 0.12 (n = 90); the lanes kernel at 0.02 to 0.07
// (n = 90..120, results/bench/gpu_h100_walk.md). Set it once a GPU walk is faster than the CPU
// threads at every n from 90 on.
inline constexpr bool gpu_walk_beats_cpu = false;

// Where the backward walk runs: on a GPU that --backend auto picked, the CPU threads unless
// gpu_walk_beats_cpu or the CPU worker is asked for beside the devices (--devices ...,cpu: both
// walk); --backend gpu always walks there.
RunTarget walk_target(const RunTarget& target);

// --engine auto on a GPU: the forward engine on the GPU from this n to forward_max_n = 127,
// where it fits the device's free memory (on an NVIDIA H100 it ran 1.2 to 1.6 times as fast as
// the 16 CPU threads' backward walk at n = 113..127, the range measured); the backward walk
// elsewhere, where walk_target puts it. Past 127 the forward engine takes 64-bit ranks, which
// no GPU has timed yet, so auto leaves it to be named. On the CPU, --engine auto is always the
// backward walk.
inline constexpr int gpu_forward_from_n = 113;

struct EngineChoice {
  Engine engine;
  RunTarget target;
};
// What --engine auto runs n on, for a target that resolve_backend gave; free_gpu_memory is the
// device's free memory in bytes (unused on the CPU).
EngineChoice auto_engine(int n, const RunTarget& target, std::uint64_t free_gpu_memory);

// Runs one engine on one backend for one n, reporting partitions placed to `progress` (the
// backward engine on CPU threads; may be null); throws UsageError for sizes the engine cannot
// take. Ranges, journals, shards and MPI go through analyze_range (range_job.hpp).
Analysis analyze(int n, Engine engine, const RunTarget& target, Progress* progress = nullptr,
                 const BackwardOptions& backward = {});

// The number of Garden-of-Eden partitions of n by Hopkins and Sellers' theorem:
// the sum over j >= 1 of (-1)^(j+1) p(n - 3j(j+1)/2) (OEIS A123975).
std::uint64_t hopkins_sellers(int n);

// Cycle count and lengths from the partitions on cycles, by playing each cycle once.
void count_cycles(int n, Analysis& a);

// Completes an analysis whose histogram, Garden-of-Eden count and cycle ranks are in:
// drops the histogram's empty tail and counts the cycles.
void finish_analysis(Analysis& a);

}  // namespace piles::bulgarian
