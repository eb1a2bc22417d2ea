#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "host/common/backend.hpp"
#include "host/job/driver.hpp"
#include "host/job/termination.hpp"
#include "host/mpi/chunk_runner.hpp"

namespace piles::cli {

// The flags of every command that runs through the job driver, declared once.
struct JobArgs {
  std::string checkpoint, shard, slice, time_limit;
  bool mpi = false;
};
void add_job_options(CLI::App& command, JobArgs& args);

// A run's driver options, MPI session and device, resolved from the flags; and, but for an MPI
// rank (its launcher stops it), the line that a Ctrl-C or SIGTERM from now on ends it with.
struct JobSetup {
  std::unique_ptr<mpi::Session> session;
  std::unique_ptr<job::InterruptNotice> notice;
  job::Options options;
  RunTarget target;
  bool root() const { return !session || session->root(); }
};
// `max_shards`: the most shards the job can be cut into. A job that runs on the host only
// (`host_only` names it) gets CPU threads whatever --backend auto finds, and refuses
// --backend gpu.
JobSetup setup_job(const JobArgs& args, const CommonOptions& common, int max_shards,
                   const char* host_only = nullptr);

// After a run's result is printed: exit status 3 when the time limit stopped it.
void report_stop(const job::Status& status);

}  // namespace piles::cli
