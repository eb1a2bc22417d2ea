#include "host/cli/job_options.hpp"

#include <fmt/format.h>

#include "host/cli/suggest.hpp"
#include "host/common/error.hpp"
#include "host/common/parse.hpp"
#include "host/mpi/launcher.hpp"

namespace piles::cli {

void add_job_options(CLI::App& command, JobArgs& args) {
  command
      .add_option("--checkpoint", args.checkpoint,
                  "Journal of finished chunks: resumes from it, appends to it")
      ->check(file_name);
  command.add_option("--shard", args.shard,
                     "I/K: only chunks I mod K, a partial result in the --checkpoint journal");
  command.add_option("--slice", args.slice,
                     "Seconds of work per engine call (default 30): the bar and the journal "
                     "move, a kill loses at most one slice");
  command.add_option("--time-limit", args.time_limit,
                     "Stop cleanly after about this many seconds (exit status 3); needs "
                     "--checkpoint, and the same command resumes");
  command.add_flag("--mpi", args.mpi,
                   "Spread the chunks over the ranks of an MPI job (mpirun -np K piles ...)");
}

JobSetup setup_job(const JobArgs& args, const CommonOptions& common, int max_shards,
                   const char* host_only) {
  JobSetup setup;
  job::Options& o = setup.options;
  o.checkpoint = args.checkpoint;
  if (!args.shard.empty()) o.shard = job::parse_shard(args.shard, max_shards);
  if (!args.slice.empty()) o.slice_seconds = parse_seconds(args.slice, "--slice");
  if (!args.time_limit.empty()) o.time_limit = parse_seconds(args.time_limit, "--time-limit");
  o.quiet = common.quiet;
  o.status_every = common.status_every;
  CommonOptions device = common;
  if (host_only) {
    if (common.backend == "gpu")
      throw UsageError(fmt::format("--backend gpu: {} runs on CPU threads only", host_only));
    device.backend = "cpu";
  }
  if (!args.mpi)
    if (const auto launch = mpi::launched_with_others())
      throw UsageError(fmt::format(
          "started by an MPI launcher as one of {} processes ({}) but without --mpi: each would "
          "run the whole job and write the same journal; add --mpi to share the chunks among "
          "them",
          launch->size, launch->variable));
  if (args.mpi) {
    setup.session = std::make_unique<mpi::Session>();
    o.session = setup.session.get();
    setup.target = mpi::resolve_rank_backend(*setup.session, device);
  } else {
    setup.target = resolve_backend(device);
    setup.notice =
        std::make_unique<job::InterruptNotice>(o.started, job::interrupt_loss(o.checkpoint));
  }
  return setup;
}

void report_stop(const job::Status& status) {
  if (status.stopped)
    throw Stopped(
        fmt::format("{} with {} of {} chunks done; run the same command again to resume "
                    "from the journal",
                    status.stopped_by == "SIGTERM" ? "SIGTERM received" : "time limit reached",
                    status.chunks_done, status.chunks));
}

}  // namespace piles::cli
