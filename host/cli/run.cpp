#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "build_info.hpp"
#include "host/cli/commands.hpp"
#include "host/cli/suggest.hpp"
#include "host/common/backend.hpp"
#include "host/common/error.hpp"
#include "host/common/output.hpp"
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

// The version block as one JSON object: the same facts as the text, for a script or a record.
void print_version_json() {
  const std::string device = gpu_description();
  nlohmann::json j = {{"version", version},
                      {"commit", commit},
                      {"build_type", build_type},
                      {"compiler", compiler},
                      {"topswops_cpu_path", topswops::cpu_path_text()},
                      {"cuda_build", cuda_build()},
                      {"gpu", device.empty() ? nlohmann::json() : nlohmann::json(device)}};
  if (cuda_build()) j["cuda_architectures"] = cuda_architectures;
  if (device.empty()) {
    j["gpu_unavailable"] = gpu_unavailable_reason();
  } else {
    j["gpu_driver"] = {{"release", nvidia_driver_release()}, {"cuda", gpu_driver()}};
    j["gpu_devices"] = gpu_descriptions();
  }
  // Not emit_json: the run's fields (backend, threads) would describe a run that is not made.
  fmt::print("{}\n", json_text(j));
}

void print_version(bool json) {
  if (json) return print_version_json();
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
// each command's --help lists them too, below the command's own footer (its example).
void add_footer(CLI::App& command, const std::string& footer) {
  for (CLI::App* sub : command.get_subcommands({})) {
    const std::string own = sub->get_footer();
    sub->footer(own.empty() ? footer : own + "\n\n" + footer);
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
      "piles: exhaustive search for Topswops, Bulgarian solitaire, Babylon and Scatterstone Nim",
      "piles"};
  app.fallthrough();  // common flags may follow the subcommand
  app.require_subcommand(0, 1);
  app.footer(
      "Examples:\n  piles topswops solve 12\n  piles help topswops solve   (the same as piles "
      "topswops solve --help)");
  CommonOptions common;
  // Option callbacks run once the whole line is read, so a --json after -V counts.
  app.add_flag_callback(
      "-V,--version",
      [&app] {
        print_version(app.get_option("--json")->count() > 0);
        throw CLI::Success();
      },
      "Print the version, commit, build, Topswops CPU path, whether this build has CUDA, and the "
      "GPU found (with --json: as one JSON object)");
  app.add_option("--backend", common.backend, "auto | cpu | gpu (auto: GPU when one answers)")
      ->check(one_of({"auto", "cpu", "gpu"}));
  app.add_option_function<std::string>(
      "--threads",
      [&common](const std::string& text) {
        common.threads = static_cast<int>(parse_int(text, "--threads", 0, max_threads));
      },
      "CPU threads (0: all)");
  app.add_option("--devices", common.devices,
                 "GPUs that share a job's chunks: all (default) | N[,N...]; ,cpu after them adds "
                 "the host's threads");
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
  auto help_words = std::make_shared<std::vector<std::string>>();
  CLI::App* help = app.add_subcommand("help", "Print the help of piles or of a command");
  help->add_option("COMMAND", *help_words, "A command and its subcommand, e.g. topswops solve");
  help->footer("Example:\n  piles help bulgarian analyze");
  help->callback([&app, help_words] {
    const CLI::App& command = find_command(app, *help_words);
    const std::string name = fmt::format("piles {}", fmt::join(*help_words, " "));
    // The formatter itself: App::help would show the help of the command running, this one.
    fmt::print("{}", app.get_formatter()->make_help(&command, help_words->empty() ? "piles" : name,
                                                    CLI::AppFormatMode::Normal));
  });
  list_common_options(app);

  // GNU style: the bare program is a usage error, and says how it is used.
  if (argc <= 1) {
    fmt::print(stderr, "{}", app.help());
    return 2;
  }
  try {
    // A bad PILES_CPU_PATH or PILES_REQUIRE_GPU fails every command alike, before any work.
    topswops::cpu_path();
    require_gpu();
    app.parse(argc, argv);
    if (app.get_subcommands().empty()) {
      std::vector<std::string> names;
      for (const CLI::App* command : app.get_subcommands({})) names.push_back(command->get_name());
      return fail(2, fmt::format("piles: a command is required ({})", fmt::join(names, ", ")));
    }
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
