#include <fmt/format.h>
#include <fmt/ranges.h>

#include <limits>
#include <memory>
#include <numeric>
#include <string>

#include "core/bulgarian.hpp"
#include "host/bulgarian/analysis.hpp"
#include "host/bulgarian/graph.hpp"
#include "host/bulgarian/range_job.hpp"
#include "host/bulgarian/report.hpp"
#include "host/bulgarian/stochastic.hpp"
#include "host/bulgarian/trace.hpp"
#include "host/bulgarian/variant_analysis.hpp"
#include "host/bulgarian/variants.hpp"
#include "host/cli/commands.hpp"
#include "host/cli/job_options.hpp"
#include "host/cli/suggest.hpp"
#include "host/common/error.hpp"
#include "host/common/output.hpp"
#include "host/common/output_file.hpp"
#include "host/common/parse.hpp"
#include "host/common/progress.hpp"
#include "host/common/provenance.hpp"
#ifdef PILES_HAVE_CUDA
#include "kernels/bulgarian_forward.hpp"
#endif

namespace piles::cli {
namespace {

struct TraceOptions {
  std::vector<std::string> start;  // the words of the start, joined with spaces
  std::string variant = "plain";
  std::string bank;
  bool list = false;
};

void run_trace(const TraceOptions& options, const CommonOptions& common) {
  host_only_threads(common, "bulgarian trace");
  const bulgarian::Variant variant = bulgarian::parse_variant(options.variant);
  const std::vector<int> start = bulgarian::parse_start(
      variant, fmt::format("{}", fmt::join(options.start, " ")), options.bank);
  bulgarian::Trace t;
  {
    Progress progress("bulgarian trace", unknown_total, "moves", 0,
                      {.quiet = common.quiet, .status_every = common.status_every});
    t = bulgarian::trace_variant(variant, start, false, &progress);
  }
  // The partitions along the way where asked, or where they are few: the replay costs what the
  // trace did.
  if (options.list || (!common.quiet && t.transient + t.cycle_length <= bulgarian::listed_moves))
    t = bulgarian::trace_variant(variant, start, true);
  if (common.json)
    emit_json(bulgarian::to_json(variant, t));
  else
    fmt::print("{}", bulgarian::to_text(variant, t));
}

struct AnalyzeOptions {
  std::string range;
  std::string engine = "auto";
  std::string variant = "plain";
  std::string walk_kernel;  // empty: the default
  int chunks = 64;
  bool chunks_given = false;
  JobArgs job;
};

// --walk-kernel picks the kernel of a walk on the GPU; where the walk runs on CPU threads it
// would do nothing.
void check_walk_kernel(const AnalyzeOptions& options, const RunTarget& walk) {
  if (!options.walk_kernel.empty() && walk.backend == Backend::cpu)
    throw UsageError(fmt::format(
        "--walk-kernel {}: this run walks on CPU threads, where there is no kernel to pick (a "
        "GPU walks with --backend gpu)",
        options.walk_kernel));
}

bulgarian::WalkKernel walk_kernel_of(const AnalyzeOptions& options) {
  return options.walk_kernel.empty() ? bulgarian::default_walk_kernel
                                     : bulgarian::parse_walk_kernel(options.walk_kernel);
}

// Flushed at once (emit_json flushes too), as run_analyze needs.
void print_result(const bulgarian::Analysis& a, const CommonOptions& common) {
  if (common.json) {
    emit_json(bulgarian::to_json(a));
    return;
  }
  fmt::print("{}", bulgarian::to_text(a, common.quiet));
  std::fflush(stdout);
}

void print_shard(const job::Status& status, const CommonOptions& common) {
  if (!status.shard) return;
  if (common.json)
    emit_json(bulgarian::shard_json(status));
  else
    fmt::print("{}", bulgarian::shard_text(status));
}

bool has_job_flags(const JobArgs& j) {
  return j.mpi || !j.checkpoint.empty() || !j.shard.empty() || !j.time_limit.empty();
}

// --engine auto on a GPU without a journal: each n on the engine and backend auto_engine picks,
// the n in a row that go to the backward walk as one range.
void run_auto_on_gpu(const AnalyzeOptions& options, const IntRange& range, const RunTarget& target,
                     const CommonOptions& common) {
  std::uint64_t free_memory = 0;
#ifdef PILES_HAVE_CUDA
  free_memory = gpu::free_device_memory();
#endif
  bulgarian::RangeRun run;
  run.chunks_per_n = options.chunks;
  run.walk_kernel = walk_kernel_of(options);
  run.run.quiet = common.quiet;
  run.run.status_every = common.status_every;
  for (auto n = range.first; n <= range.last;) {
    const bulgarian::EngineChoice choice =
        bulgarian::auto_engine(static_cast<int>(n), target, free_memory);
    if (choice.engine == bulgarian::Engine::forward) {
      print_result(bulgarian::analyze(static_cast<int>(n), choice.engine, choice.target), common);
      ++n;
      continue;
    }
    auto last = n;
    while (last < range.last &&
           bulgarian::auto_engine(static_cast<int>(last + 1), target, free_memory).engine ==
               bulgarian::Engine::backward)
      ++last;
    run.range = {n, last};
    bulgarian::analyze_range(run, choice.target,
                             [&](const bulgarian::Analysis& a) { print_result(a, common); });
    n = last + 1;
  }
}

// The backward engine runs through the job driver; each n is printed as soon as it is done, so
// an interrupted range keeps what it printed.
void run_analyze(const AnalyzeOptions& options, const CommonOptions& common) {
  const bulgarian::Variant variant = bulgarian::parse_variant(options.variant);
  const bulgarian::Engine engine = bulgarian::choose_engine(options.engine);
  const bulgarian::WalkKernel walk_kernel = walk_kernel_of(options);
  if (!variant.is_plain() && options.engine != "auto" && engine != bulgarian::Engine::generic)
    throw UsageError(fmt::format("--engine {}: --variant {} runs the generic engine",
                                 options.engine, variant.name()));
  const int max_n =
      variant.is_plain() ? bulgarian::analyze_max_n : bulgarian::variant_max_n(variant);
  const IntRange range = parse_int_range(options.range, "n", 1, max_n);
  if (!variant.is_plain() || engine != bulgarian::Engine::backward) {
    const std::string what =
        variant.is_plain() ? "--engine " + options.engine : "--variant " + variant.name();
    if (has_job_flags(options.job))
      throw UsageError(fmt::format(
          "{}: --checkpoint, --shard, --time-limit and --mpi run the plain game's backward "
          "engine",
          what));
    if (options.chunks_given || !options.walk_kernel.empty())
      throw UsageError(
          fmt::format("{}: --chunks and --walk-kernel are the backward engine's", what));
    const RunTarget target = resolve_backend(common);
    for (auto n = range.first; n <= range.last; ++n)
      print_result(variant.is_plain()
                       ? bulgarian::analyze(static_cast<int>(n), engine, target)
                       : bulgarian::analyze_variant(static_cast<int>(n), variant, target),
                   common);
    return;
  }
  if (options.engine == "auto" && !has_job_flags(options.job)) {
    const RunTarget target = resolve_backend(common);
    if (target.backend == Backend::gpu) {
      check_walk_kernel(options, bulgarian::walk_target(target));
      return run_auto_on_gpu(options, range, target, common);
    }
  }
  bulgarian::RangeRun run;
  run.range = range;
  run.chunks_per_n =
      options.chunks_given
          ? options.chunks
          : bulgarian::begun_chunks_per_n(options.job.checkpoint).value_or(options.chunks);
  run.walk_kernel = walk_kernel;
  const std::uint64_t chunk_count = (range.last - range.first + 1) * run.chunks_per_n;
  JobSetup setup = setup_job(options.job, common, static_cast<int>(chunk_count));
  setup.target = bulgarian::walk_target(setup.target);
  check_walk_kernel(options, setup.target);
  note_target(setup.target);
  run.run = setup.options;
  const job::Outcome out = bulgarian::analyze_range(
      run, setup.target, [&](const bulgarian::Analysis& a) { print_result(a, common); });
  if (!setup.root()) return;
  print_shard(out.status, common);
  report_stop(out.status);
}

struct GraphOptions {
  int n = 0;
  std::string format = "dot";
  std::string out;
};

struct RandomOptions {
  std::string n;
  std::string p;
  std::string runs = "1000";
  std::string steps = "1000";
  std::string seed = "1";
  std::string start;
  std::string plot;
};

bulgarian::RandomSpec parse_random(const RandomOptions& o) {
  bulgarian::RandomSpec spec;
  const int n = static_cast<int>(parse_int(o.n, "n", 1, bulgarian::max_trace_cards));
  spec.p = [&] {
    std::size_t used = 0;
    double p = -1;
    try {
      p = std::stod(o.p, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != o.p.size() || !(p > 0 && p <= 1))
      throw UsageError(fmt::format("--p: '{}' is not a probability in (0, 1]", o.p));
    return p;
  }();
  spec.runs = static_cast<std::uint64_t>(parse_int(o.runs, "--runs", 1, std::int64_t{1} << 40));
  spec.steps = static_cast<std::uint64_t>(parse_int(o.steps, "--steps", 0, std::int64_t{1} << 40));
  spec.seed = static_cast<std::uint64_t>(
      parse_int(o.seed, "--seed", 0, std::numeric_limits<std::int64_t>::max()));
  spec.start = o.start.empty() ? std::vector<int>{n}
                               : bulgarian::parse_partition(o.start, bulgarian::max_trace_cards);
  const std::int64_t total = std::accumulate(spec.start.begin(), spec.start.end(), std::int64_t{0});
  if (total != n)
    throw UsageError(fmt::format("--start: '{}' has {} cards, not n = {}", o.start, total, n));
  return spec;
}

void run_random(const RandomOptions& options, const CommonOptions& common) {
  const bulgarian::RandomSpec spec = parse_random(options);
  const OutputFile plot(options.plot, "--plot");
  // The GPU engine keeps a chain's piles in a fixed array; more cards play on the CPU.
  const bool fits_gpu =
      std::accumulate(spec.start.begin(), spec.start.end(), 0) <= partition::max_n;
  const std::string beyond =
      fmt::format("bulgarian random of more than {} cards", partition::max_n);
  RunTarget target;
  if (fits_gpu)
    target = resolve_backend(common);
  else
    target.threads = host_only_threads(common, beyond.c_str());
  note_target(target);
  const bulgarian::RandomResult r = bulgarian::run_random(spec, target);
  if (common.json)
    emit_json(bulgarian::to_json(r));
  else
    fmt::print("{}", bulgarian::to_text(r, common.quiet));
  // The answer is out before the picture is drawn: a picture that fails costs only itself.
  if (plot.wanted()) try {
      plot.write(bulgarian::random_plot_svg(r));
    } catch (const std::runtime_error& e) {
      throw UsageError(fmt::format("--plot {}: {}", options.plot, e.what()));
    }
}

}  // namespace

void add_bulgarian_commands(CLI::App& app, const CommonOptions& common) {
  CLI::App* bulgarian =
      app.add_subcommand("bulgarian", "Bulgarian solitaire: traces, cycles, transients");
  bulgarian->require_subcommand(1);
  bulgarian->footer("Example:\n  piles bulgarian analyze 10");

  auto trace_options = std::make_shared<TraceOptions>();
  CLI::App* trace = bulgarian->add_subcommand("trace", "Play from one start until a state repeats");
  trace
      ->add_option("PARTITION", trace_options->start,
                   "Positive parts, e.g. 5,2,2 or 5 2 2; any number of cards. Variants: "
                   "carolina takes the piles in their order, montreal the row with 0 for an "
                   "empty position, multiplayer each player's parts, players separated by '/'")
      ->required();
  trace->add_option("--variant", trace_options->variant,
                    "plain | carolina | multiplayer:P | montreal | austrian:L (default plain)");
  trace->add_option("--bank", trace_options->bank,
                    "Cards in the bank at the start (austrian:L only; default 0)");
  trace->add_flag("--list", trace_options->list,
                  "List every partition along the way (by default listed when the trace takes "
                  "at most 1000 moves, and not with --quiet)");
  trace->footer("Example:\n  piles bulgarian trace 5,2,2");
  trace->callback([trace_options, &common] { run_trace(*trace_options, common); });

  auto analyze = std::make_shared<AnalyzeOptions>();
  CLI::App* analyze_cmd = bulgarian->add_subcommand(
      "analyze", "Cycles, longest transient, Garden of Eden and transient histogram for each n");
  analyze_cmd->add_option("N", analyze->range, "n, or a range N..M")->required();
  analyze_cmd->add_option("--engine", analyze->engine,
                          "auto | forward | backward | generic (auto: the faster for the size; "
                          "a variant runs the generic engine)");
  analyze_cmd->add_option("--variant", analyze->variant,
                          "plain | carolina | multiplayer:P | austrian:L (default plain)");
  analyze_cmd->add_option_function<std::string>(
      "--chunks",
      [analyze](const std::string& text) {
        analyze->chunks =
            static_cast<int>(parse_int(text, "--chunks", 1, bulgarian::max_chunks_per_n));
        analyze->chunks_given = true;
      },
      "Chunks per n of the backward engine's job (default 64, or the --checkpoint journal's)");
  analyze_cmd->add_option(
      "--walk-kernel", analyze->walk_kernel,
      "rounds | lanes | lanes-leaves: the backward walk's GPU kernel (default rounds)");
  add_job_options(*analyze_cmd, analyze->job);
  analyze_cmd->footer("Example:\n  piles bulgarian analyze 1..30 --quiet");
  analyze_cmd->callback([analyze, &common] { run_analyze(*analyze, common); });

  auto files = std::make_shared<std::vector<std::string>>();
  CLI::App* merge = bulgarian->add_subcommand(
      "merge", "Combine the journals of analyze's shards into every n's analysis");
  merge->add_option("FILE", *files, "Journals written by analyze --shard ... --checkpoint FILE")
      ->required()
      ->check(file_name);
  merge->footer("Example:\n  piles bulgarian merge a.0.jnl a.1.jnl");
  merge->callback([files, &common] {
    host_only_threads(common, "bulgarian merge");
    bulgarian::merge_range(*files, [&](const bulgarian::Analysis& a) { print_result(a, common); });
  });

  auto graph = std::make_shared<GraphOptions>();
  auto graph_n = std::make_shared<std::string>();
  CLI::App* graph_cmd = bulgarian->add_subcommand(
      "graph", "The transition graph of every partition of n, through Graphviz");
  graph_cmd->add_option("N", *graph_n, "n (p(n) at most 5000, so n <= 29)")->required();
  graph_cmd->add_option("--format", graph->format, "dot | svg | png (default dot)");
  graph_cmd->add_option("-o,--output", graph->out, "File to write (default stdout)")
      ->check(file_name);
  graph_cmd->footer("Example:\n  piles bulgarian graph 6 --format svg -o six.svg");
  graph_cmd->callback([graph, graph_n, &common] {
    host_only_threads(common, "bulgarian graph");
    const int n = static_cast<int>(parse_int(*graph_n, "n", 1, partition::max_n));
    if (!common.json) return bulgarian::write_graph(n, graph->format, graph->out);
    if (graph->format != "dot" || !graph->out.empty())
      throw UsageError(
          "--json: the graph goes to stdout as JSON; --format and -o are for Graphviz");
    emit_json(bulgarian::graph_json(n));
  });

  auto random = std::make_shared<RandomOptions>();
  CLI::App* random_cmd = bulgarian->add_subcommand(
      "random", "The stochastic game: each pile gives a card with probability p");
  random_cmd->add_option("N", random->n, "Number of cards")->required();
  random_cmd->add_option("--p", random->p, "Probability that a pile gives a card, in (0, 1]")
      ->required();
  random_cmd->add_option("--runs", random->runs, "Independent chains (default 1000)");
  random_cmd->add_option("--steps", random->steps, "Moves per chain (default 1000)");
  random_cmd->add_option("--seed", random->seed, "Seed; same seed, same result (default 1)");
  random_cmd->add_option("--start", random->start, "Start partition (default one pile of n)");
  random_cmd->add_option("--plot", random->plot, "Also draw the mean shape to this SVG file")
      ->check(file_name);
  random_cmd->footer("Example:\n  piles bulgarian random 10 --p 0.5 --runs 100");
  random_cmd->callback([random, &common] { run_random(*random, common); });
}

}  // namespace piles::cli
