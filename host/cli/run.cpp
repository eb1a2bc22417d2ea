#include <fmt/format.h>

#include <cstdio>
#include <string>
#include <vector>

#include "build_info.hpp"
#include "host/cli/commands.hpp"
#include "host/cli/suggest.hpp"
#include "host/common/error.hpp"
#include "host/common/parse.hpp"
#include "host/topswops/cpu_path.hpp"

namespace piles::cli {
namespace {

// More threads than any machine piles runs on has; a larger count is a typo.
constexpr std::int64_t max_threads = 1 << 16;

// The first line of a message, with the middle of an overlong one (a pasted 100,000-card
// deck echoed back) cut out: what was wrong is said at its end.
std::string first_line(const std::string& text) {
  constexpr std::size_t head = 160, tail = 120;
  const std::string line = text.substr(0, text.find('\n'));
  if (line.size() <= head + tail + 5) return line;
  return line.substr(0, head) + " ... " + line.substr(line.size() - tail);
}

int fail(int status, const std::string& message) {
  std::fflush(stdout);
  fmt::print(stderr, "piles: error: {}\n", first_line(message));
  return status;
}

void print_version() {
  const std::string device = gpu_description();
  const std::string cuda =
      cuda_build() ? fmt::format("yes (architectures {})", cuda_architectures) : "no";
  fmt::print(
      "piles {}\ncommit: {}\nbuild: {}, {}\nTopswops CPU path: {}\nCUDA build: {}\nGPU: {}\n",
      version, commit, build_type, compiler, topswops::cpu_path_text(), cuda,
      device.empty() ? fmt::format("none ({})", gpu_unavailable_reason()) : device);
  if (device.empty()) return;
  // Every device of the machine, for a user choosing among them or checking a node.
  const std::string release = nvidia_driver_release();
  fmt::print("GPU driver: NVIDIA {} (CUDA {})\n", release.empty() ? "?" : release, gpu_driver());
  const std::vector<std::string> all = gpu_descriptions();
  fmt::print("GPU devices: {}\n", all.size());
  for (std::size_t i = 0; i < all.size(); ++i) fmt::print("  {}: {}\n", i, all[i]);
}

// The flags every command takes are the top level's (so they go before or after the command);
// each command's --help lists them too.
void add_footer(CLI::App& command, const std::string& footer) {
  for (CLI::App* sub : command.get_subcommands({})) {
    sub->footer(footer);
    add_footer(*sub, footer);
  }
}

void list_common_options(CLI::App& app) {
  std::string footer = "Common options, before or after the command:";
  for (const CLI::Option* option : app.get_options())
    if (option->get_name() != "--help" && option->get_name() != "--version")
      footer += fmt::format("\n  {:<16} {}", option->get_name(), option->get_description());
  add_footer(app, footer);
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
      "Print the version, commit, build, Topswops CPU path, whether this build has CUDA, and the "
      "GPU found");
  app.add_option("--backend", common.backend, "auto | cpu | gpu (auto: GPU when one answers)")
      ->check(CLI::IsMember({"auto", "cpu", "gpu"}));
  app.add_option_function<std::string>(
      "--threads",
      [&common](const std::string& text) {
        common.threads = static_cast<int>(parse_int(text, "--threads", 0, max_threads));
      },
      "CPU threads (0: all)");
  app.add_option("--devices", common.devices,
                 "GPUs that share a job's chunks: all (default) | N[,N...]");
  app.add_flag("--json", common.json, "One JSON object per result on stdout");
  app.add_flag("--quiet", common.quiet,
               "Only the result; no progress bar or status lines, no detail");
  app.add_option_function<std::string>(
         "--status-every",
         [&common](const std::string& text) {
           common.status_every = text == "0" ? 0 : parse_seconds(text, "--status-every");
         },
         "Seconds between status lines on stderr when it is not a terminal (default 30; 0: none)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);

  add_topswops_commands(app, common);
  add_bulgarian_commands(app, common);
  add_nim_commands(app, common);
  add_babylon_commands(app, common);
  add_results_command(app, common);
  add_selftest_command(app, common);
  add_bench_command(app, common);
  add_journal_command(app, common);
  list_common_options(app);

  try {
    topswops::cpu_path();  // a bad PILES_CPU_PATH fails every command alike, before any work
    app.parse(argc, argv);
    if (app.get_subcommands().empty())
      return fail(2, "a subcommand is required (see piles --help)");
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    return fail(2, explain_parse_error(app, e));
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
