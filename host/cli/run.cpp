#include <fmt/format.h>

#include <cstdio>
#include <string>

#include "build_info.hpp"
#include "host/cli/commands.hpp"
#include "host/common/error.hpp"

namespace piles::cli {
namespace {

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

int fail(int status, const std::string& message) {
  std::fflush(stdout);
  fmt::print(stderr, "piles: error: {}\n", first_line(message));
  return status;
}

void print_version() {
  const std::string device = gpu_description();
  fmt::print("piles {}\nCUDA build: {}\nGPU: {}\n", version, cuda_build() ? "yes" : "no",
             device.empty() ? fmt::format("none ({})", gpu_unavailable_reason()) : device);
}

}  // namespace

int run(int argc, char** argv) {
  CLI::App app{
      "piles: exhaustive search for Topswops, Bulgarian solitaire, Babylon and Scatterstone Nim"};
  app.fallthrough();  // common flags may follow the subcommand
  app.require_subcommand(0, 1);
  CommonOptions common;
  app.add_flag_callback(
      "--version",
      [] {
        print_version();
        throw CLI::Success();
      },
      "Print the version, whether this build has CUDA, and the GPU found");
  app.add_option("--backend", common.backend, "auto | cpu | gpu (auto: GPU when one answers)")
      ->check(CLI::IsMember({"auto", "cpu", "gpu"}));
  app.add_option("--threads", common.threads, "CPU threads (0: all)")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--json", common.json, "One JSON object per result on stdout");
  app.add_flag("--quiet", common.quiet, "Only the result; no progress bar, no detail");

  add_topswops_commands(app, common);
  add_bulgarian_commands(app, common);
  add_nim_commands(app, common);
  add_babylon_commands(app, common);
  add_results_command(app, common);

  try {
    app.parse(argc, argv);
    if (app.get_subcommands().empty())
      return fail(2, "a subcommand is required (see piles --help)");
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    return fail(2, e.what());
  } catch (const UsageError& e) {
    return fail(2, e.what());
  } catch (const Stopped& e) {
    std::fflush(stdout);
    fmt::print(stderr, "piles: stopped: {}\n", first_line(e.what()));
    return 3;
  } catch (const std::exception& e) {
    return fail(1, e.what());
  }
  return 0;
}

}  // namespace piles::cli
