#pragma once

#include <CLI/CLI.hpp>

#include "host/common/backend.hpp"

namespace piles::cli {

// Each game adds its subcommands; `common` is filled in before any callback runs.
void add_topswops_commands(CLI::App& app, const CommonOptions& common);
void add_bulgarian_commands(CLI::App& app, const CommonOptions& common);
void add_nim_commands(CLI::App& app, const CommonOptions& common);
void add_babylon_commands(CLI::App& app, const CommonOptions& common);
void add_results_command(CLI::App& app, const CommonOptions& common);
void add_selftest_command(CLI::App& app, const CommonOptions& common);
void add_bench_command(CLI::App& app, const CommonOptions& common);
void add_journal_command(CLI::App& app, const CommonOptions& common);

// Parses and runs; returns the exit status (0 ok, 1 internal or device failure, 2 bad input).
int run(int argc, char** argv);

}  // namespace piles::cli
