#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>
#include <string>
#include <vector>

#include "host/cli/commands.hpp"
#include "host/cli/job_options.hpp"
#include "host/cli/suggest.hpp"
#include "host/common/error.hpp"
#include "host/common/output.hpp"
#include "host/common/parse.hpp"
#include "host/topswops/backward.hpp"
#include "host/topswops/estimate.hpp"
#include "host/topswops/grow.hpp"
#include "host/topswops/play.hpp"
#include "host/topswops/report.hpp"
#include "host/topswops/solve.hpp"

namespace piles::cli {
namespace {

void run_play(const std::string& text, const CommonOptions& common) {
  host_only_threads(common, "topswops play");
  const topswops::Game game = topswops::play(topswops::parse_deck(text));
  if (common.json)
    emit_json(topswops::to_json(game));
  else
    fmt::print("{}", topswops::to_text(game, common.quiet));
}

struct GrowArgs {
  std::vector<std::string> deck;
  std::string budget;
};

void run_grow(const GrowArgs& args, const CommonOptions& common) {
  host_only_threads(common, "topswops grow");
  const std::vector<int> trunk = topswops::parse_deck(fmt::format("{}", fmt::join(args.deck, " ")));
  if (static_cast<int>(trunk.size()) >= topswops::max_n)
    throw UsageError(fmt::format("deck: {} cards; grow adds one, and piles searches at most {}",
                                 trunk.size(), topswops::max_n));
  const std::uint64_t budget = args.budget.empty()
                                   ? topswops::grow_budget
                                   : static_cast<std::uint64_t>(parse_int(
                                         args.budget, "--budget", 1, 1'000'000'000'000'000));
  const topswops::GrownGame grown = topswops::grow_game(trunk, budget, [] { return false; });
  if (common.json)
    emit_json(topswops::to_json(trunk, grown, budget));
  else
    fmt::print("{}", topswops::to_text(trunk, grown, common.quiet));
}

void add_grow(CLI::App& topswops, const CommonOptions& common) {
  auto args = std::make_shared<GrowArgs>();
  CLI::App* grow = topswops.add_subcommand(
      "grow",
      "A long game on n+1 cards grown from DECK's: the longest found that flips card n+1 in "
      "and then joins DECK's game");
  grow->add_option("DECK", args->deck, "Permutation of 1..n, top card first, n <= 23 (as play's)")
      ->required();
  grow->add_option("--budget", args->budget,
                   fmt::format("Most decks to look at (default {}, about half a second)",
                               topswops::grow_budget));
  grow->footer("Example:\n  piles topswops grow 2,10,15,11,7,14,5,16,6,4,17,13,1,3,8,9,12");
  grow->callback([args, &common] { run_grow(*args, common); });
}

struct SolveArgs {
  std::string n, final = "any", bound, engine, prune, gpu_kernel, small_slices, quick;
  std::vector<std::string> tail;
  JobArgs job;
};

void print_solution(const topswops::Solution& s, const CommonOptions& common) {
  if (common.json)
    emit_json(topswops::to_json(s));
  else
    fmt::print("{}", topswops::to_text(s, common.quiet));
  report_stop(s.run);
}

// Options for the other kind of run than the one chosen would do nothing: refused, naming why.
std::vector<std::string> gpu_kernel_names() {
  std::vector<std::string> names;
  for (const topswops::GpuKernel kernel : topswops::gpu_kernels)
    names.emplace_back(topswops::gpu_kernel_name(kernel));
  return names;
}

void check_engine_options(const SolveArgs& args, const topswops::SolveOptions& options,
                          const RunTarget& target) {
  if (target.backend == Backend::gpu) {
    if (args.engine == "lockstep")
      throw UsageError(
          "--engine lockstep: the GPU's search on CPU threads, but this run is on the GPU (add "
          "--backend cpu)");
  } else {
    const bool lockstep_model = options.engine == topswops::CpuEngine::lockstep;
    if (!args.gpu_kernel.empty() && !(lockstep_model && args.gpu_kernel != "dfs"))
      throw UsageError(fmt::format(
          "--gpu-kernel {}: this run is on CPU threads, where only --engine lockstep follows a "
          "GPU kernel (lockstep, lean, staged or staged-shared)",
          args.gpu_kernel));
    if (!args.small_slices.empty())
      throw UsageError(fmt::format(
          "--small-slices {}: only a GPU run has slices too small for it; this run is on CPU "
          "threads",
          args.small_slices));
  }
  // The quick search picks the start of a whole search, forward or backward, that has none given.
  if (options.quick_seconds <= 0 || args.quick.empty()) return;
  if (!args.bound.empty())
    throw UsageError("--quick: --bound gives the start already (use one of them)");
  if (!args.job.shard.empty())
    throw UsageError(
        "--quick: a shard starts from N-1 cards' longest game, so that every shard has the same "
        "start");
  if (options.n < topswops::quick_from_n)
    throw UsageError(
        fmt::format("--quick: runs from {} cards on; below, N-1 cards' longest game is the start",
                    topswops::quick_from_n));
}

void run_solve(const SolveArgs& args, const CommonOptions& common) {
  topswops::SolveOptions options;
  options.n = static_cast<int>(parse_int(args.n, "N", 1, topswops::max_n));
  options.final = args.final == "sorted" ? topswops::Final::sorted : topswops::Final::any;
  if (!args.bound.empty())
    options.bound = static_cast<int>(parse_int(args.bound, "--bound", 0, 1'000'000));
  if (!args.tail.empty()) options.tail = topswops::read_tail(args.tail).tail(options.final);
  options.engine = args.engine == "lockstep"   ? topswops::CpuEngine::lockstep
                   : args.engine == "backward" ? topswops::CpuEngine::backward
                                               : topswops::CpuEngine::dfs;
  options.gpu_kernel = topswops::default_gpu_kernel;
  for (const topswops::GpuKernel kernel : topswops::gpu_kernels)
    if (args.gpu_kernel == topswops::gpu_kernel_name(kernel)) options.gpu_kernel = kernel;
  options.small_slices_on_host = args.small_slices != "gpu";
  if (!args.quick.empty())
    options.quick_seconds = args.quick == "0" ? 0 : parse_seconds(args.quick, "--quick");
  // The backward engine runs on a GPU only when told to (--backend gpu): its passes have not
  // been measured against the forward kernel there yet.
  JobSetup setup = setup_job(
      args.job, common, topswops::max_chunks,
      args.engine == "backward" && common.backend != "gpu" ? "--engine backward" : nullptr);
  // Games ending sorted are searched backward on CPU threads, where that is faster (measured:
  // results/bench/topswops_backward.md); a GPU runs the forward kernel.
  if (args.engine.empty() && options.final == topswops::Final::sorted &&
      setup.target.backend == Backend::cpu)
    options.engine = topswops::CpuEngine::backward;
  if (!args.prune.empty()) {
    if (options.engine != topswops::CpuEngine::backward)
      throw UsageError("--prune: only the backward engine (--final sorted) takes pruning rules");
    options.prune = topswops::parse_prune(args.prune);
  }
  check_engine_options(args, options, setup.target);
  options.run = setup.options;
  const topswops::Solution s = topswops::solve(options, setup.target);
  if (setup.root()) print_solution(s, common);
}

void add_solve(CLI::App& topswops, const CommonOptions& common) {
  auto args = std::make_shared<SolveArgs>();
  CLI::App* solve = topswops.add_subcommand(
      "solve", "The longest games on N cards and every deck that reaches them");
  solve->add_option("N", args->n, "Number of cards (1..24)")->required();
  solve->add_option("--final", args->final, "any | sorted: only games ending in the sorted deck")
      ->check(one_of({"any", "sorted"}));
  solve->add_option("--bound", args->bound,
                    "Look only for games of at least L steps (none found proves f(N) < L)");
  solve->add_option(
      "--quick", args->quick,
      fmt::format("Most seconds of a quick search for a long game to start from, without "
                  "--bound, from {} cards on, not in a shard (default {}, less once a round of "
                  "its beams past {} s finds nothing longer; 0: start from f(N-1), or with --final "
                  "sorted from the longest (N-1)-card game ending sorted)",
                  topswops::quick_from_n, topswops::default_quick_seconds,
                  topswops::quick_stall_seconds));
  solve
      ->add_option("--tail", args->tail,
                   "Journals of a finished `topswops tail N`: a tighter bound once card N lands")
      ->check(file_name);
  solve
      ->add_option("--engine", args->engine,
                   "CPU engine: dfs (each thread its own search) | lockstep (the GPU's lockstep "
                   "search on the host, with its lane use) | backward (--final sorted only: back "
                   "from the sorted deck; the default for it on CPU threads, and on a GPU in "
                   "passes when --backend gpu is given)")
      ->check(one_of({"dfs", "lockstep", "backward"}));
  solve
      ->add_option(
          "--prune", args->prune,
          "Backward engine's pruning: play (default) | split | home | none, to measure them")
      ->check(one_of({"none", "home", "split", "play"}));
  solve
      ->add_option(
          "--gpu-kernel", args->gpu_kernel,
          "GPU kernel: staged (default; lanes refilled by their warp, every pass its stages in "
          "order) | staged-shared (staged, its node counts in shared memory) | lean (a unit a "
          "pass, by vote) | lockstep (lean's vote with more issued each pass) | dfs (a thread per "
          "prefix); with --engine lockstep on the CPU, any but dfs picks the kernel its warp "
          "model follows")
      ->check(one_of(gpu_kernel_names()));
  solve
      ->add_option("--small-slices", args->small_slices,
                   "On a GPU, slices too small to fill it: host (default: run on the CPU "
                   "threads) | gpu")
      ->check(one_of({"host", "gpu"}));
  add_job_options(*solve, args->job);
  solve->footer("Example:\n  piles topswops solve 12 --checkpoint f12.jnl --time-limit 3600");
  solve->callback([args, &common] { run_solve(*args, common); });
}

struct EstimateArgs {
  std::string n, final = "any", bound, probes, engine;
};

void run_estimate(const EstimateArgs& args, const CommonOptions& common) {
  const int n = static_cast<int>(parse_int(args.n, "N", 1, topswops::max_n));
  const topswops::Final final =
      args.final == "sorted" ? topswops::Final::sorted : topswops::Final::any;
  std::optional<int> bound;
  if (!args.bound.empty()) bound = static_cast<int>(parse_int(args.bound, "--bound", 0, 1'000'000));
  // The search `solve` runs on CPU threads: games ending sorted backward, unless told dfs (the
  // forward tree, which a GPU searches).
  if (args.engine == "backward") topswops::check_backward_final(final);
  const topswops::Plan plan =
      final == topswops::Final::sorted && args.engine != "dfs"
          ? topswops::make_backward_plan(n, bound, topswops::backward::Prune::play)
          : topswops::make_plan(n, final, bound);
  const int samples = args.probes.empty()
                          ? topswops::default_samples_per_chunk(plan)
                          : static_cast<int>(parse_int(args.probes, "--probes", 1, 1'000'000));
  const int threads = host_only_threads(common, "topswops estimate");
  const topswops::Estimate e = topswops::estimate_search(plan, plan.start_target, samples, threads);
  if (common.json)
    emit_json(topswops::to_json(plan, e, threads));
  else
    fmt::print("{}", topswops::to_text(plan, e, threads, common.quiet));
}

void add_estimate(CLI::App& topswops, const CommonOptions& common) {
  auto args = std::make_shared<EstimateArgs>();
  CLI::App* estimate = topswops.add_subcommand(
      "estimate",
      "The nodes `solve N` would search, by Knuth's random probes (or stratified sampling), in "
      "seconds");
  estimate->add_option("N", args->n, "Number of cards (1..24)")->required();
  estimate->add_option("--final", args->final, "any | sorted: as solve's")
      ->check(one_of({"any", "sorted"}));
  estimate->add_option("--bound", args->bound,
                       "The target the search would start from (default: solve's)");
  estimate
      ->add_option("--engine", args->engine,
                   "The search to estimate, as solve's on CPU threads: dfs (the forward tree, "
                   "also what a GPU searches) | backward (default with --final sorted)")
      ->check(one_of({"dfs", "backward"}));
  estimate->add_option(
      "--probes", args->probes,
      fmt::format("Probes in every chunk of the search (default {}); of the backward search, "
                  "passes of stratified sampling (default {}, {} from {} cards on)",
                  topswops::default_probes_per_chunk, topswops::default_passes_per_chunk,
                  topswops::heavy_passes_per_chunk, topswops::heavy_passes_from_n));
  estimate->footer("Example:\n  piles topswops estimate 16");
  estimate->callback([args, &common] { run_estimate(*args, common); });
}

struct TailArgs {
  std::string n, from;
  JobArgs job;
};

void run_tail(const TailArgs& args, const CommonOptions& common) {
  topswops::TailOptions options;
  options.n = static_cast<int>(parse_int(args.n, "N", 3, topswops::max_n));
  if (!args.from.empty())
    options.from = static_cast<int>(parse_int(args.from, "--from", 1, 1'000'000));
  // What the tail is for, its games, lives only in the journal that solve --tail reads.
  if (args.job.checkpoint.empty())
    throw UsageError(
        "topswops tail: needs --checkpoint FILE, the journal that keeps its games for solve N "
        "--tail FILE");
  JobSetup setup = setup_job(args.job, common, topswops::max_chunks, "topswops tail");
  options.run = setup.options;
  const topswops::TailResult r = topswops::run_tail(options, setup.target);
  if (!setup.root()) return;
  if (common.json)
    emit_json(topswops::to_json(r));
  else
    fmt::print("{}", topswops::to_text(r, common.quiet));
  report_stop(r.run);
}

void add_tail(CLI::App& topswops, const CommonOptions& common) {
  auto args = std::make_shared<TailArgs>();
  CLI::App* tail = topswops.add_subcommand(
      "tail", "Every (N-1)-card game of at least K steps, for `solve N --tail` (Chaffin's cutoff)");
  tail->add_option("N", args->n, "Cards in the search it serves (3..24)")->required();
  tail->add_option("--from", args->from,
                   "K; default: the game left once card N lands in the longest game that the "
                   "first chunk of the N-card search finds");
  add_job_options(*tail, args->job);
  tail->footer(
      "Example:\n  piles topswops tail 15 --checkpoint t15.jnl && piles topswops solve 15 --tail "
      "t15.jnl");
  tail->callback([args, &common] { run_tail(*args, common); });
}

void add_merge(CLI::App& topswops, const CommonOptions& common) {
  auto files = std::make_shared<std::vector<std::string>>();
  CLI::App* merge =
      topswops.add_subcommand("merge", "Combine the journals of shards into the whole answer");
  merge->add_option("FILE", *files, "Journals written by solve --shard ... --checkpoint FILE")
      ->required()
      ->check(file_name);
  merge->footer("Example:\n  piles topswops merge f14.0.jnl f14.1.jnl");
  merge->callback([files, &common] {
    host_only_threads(common, "topswops merge");
    print_solution(topswops::merge(*files), common);
  });
}

}  // namespace

void add_topswops_commands(CLI::App& app, const CommonOptions& common) {
  CLI::App* topswops =
      app.add_subcommand("topswops", "Topswops: play decks, find the longest games");
  topswops->require_subcommand(1);
  topswops->footer("Example:\n  piles topswops solve 12");

  auto deck = std::make_shared<std::vector<std::string>>();
  CLI::App* play = topswops->add_subcommand("play", "Play one deck: every deck along the game");
  play->add_option(
          "DECK", *deck,
          "Permutation of 1..n, top card first: 3,1,4,5,2 or \"3, 1, 4, 5, 2\" or 3 1 4 5 2")
      ->required();
  play->footer("Example:\n  piles topswops play 3,1,4,5,2");
  play->callback([deck, &common] { run_play(fmt::format("{}", fmt::join(*deck, " ")), common); });

  add_grow(*topswops, common);
  add_solve(*topswops, common);
  add_estimate(*topswops, common);
  add_tail(*topswops, common);
  add_merge(*topswops, common);
}

}  // namespace piles::cli
