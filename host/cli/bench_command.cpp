#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "build_info.hpp"
#include "host/benchmark/suite.hpp"
#include "host/cli/commands.hpp"
#include "host/cli/suggest.hpp"
#include "host/common/error.hpp"
#include "host/common/machine.hpp"
#include "host/common/output.hpp"
#include "host/common/output_file.hpp"
#include "host/topswops/cpu_path.hpp"

namespace piles::cli {
namespace {

struct BenchOptions {
  std::string backend;  // empty: the common --backend
  std::string json_file;
};

// "29.7 M nodes/s"
std::string rate_text(const benchmark::Measure& m) {
  const double rate = m.rate();
  if (rate >= 1e9) return fmt::format("{:.2f} G {}/s", rate / 1e9, m.unit);
  if (rate >= 1e6) return fmt::format("{:.1f} M {}/s", rate / 1e6, m.unit);
  return fmt::format("{:.0f} {}/s", rate, m.unit);
}

nlohmann::json to_json(const benchmark::Measure& m) {
  return {{"instance", m.instance},
          {"engine", m.engine},
          {"backend", backend_name(m.backend)},
          {"unit", m.unit},
          {"work", m.work},
          {"answer", m.answer},
          {"signature", m.signature()},
          {"seconds", significant(m.seconds)},
          {"rate", significant(m.rate())}};
}

// GPU against CPU on each instance both ran: the signatures must agree.
nlohmann::json ratios(const std::vector<benchmark::Measure>& cpu,
                      const std::vector<benchmark::Measure>& gpu) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& g : gpu)
    for (const auto& c : cpu) {
      if (c.instance != g.instance) continue;
      if (c.signature() != g.signature())
        throw std::runtime_error(fmt::format("bench: {} gives {} on {} but {} on {}", g.instance,
                                             g.signature(), g.engine, c.signature(), c.engine));
      out.push_back({{"instance", g.instance},
                     {"gpu", g.engine},
                     {"cpu", c.engine},
                     {"speedup", significant(g.seconds > 0 ? c.seconds / g.seconds : 0)}});
    }
  return out;
}

void run_bench(const BenchOptions& options, const CommonOptions& common, bool json_to_stdout) {
  const OutputFile json_file(options.json_file, "--json");
  const std::string want = options.backend.empty() ? common.backend : options.backend;
  std::vector<RunTarget> targets;
  CommonOptions each = common;
  for (const char* backend : want == "both" ? std::vector<const char*>{"cpu", "gpu"}
                                            : std::vector<const char*>{want.c_str()}) {
    each.backend = backend;
    targets.push_back(resolve_backend(each));
  }
  const std::string device = gpu_description();
  const std::string driver = gpu_driver();
  nlohmann::json record = {
      {"piles", version},
      {"commit", commit},
      {"date", utc_now()},
      {"cpu", cpu_model()},
      {"machine", machine_description()},
      {"topswops_cpu_path", topswops::cpu_path_text()},
      {"threads", targets.front().threads},
      {"device", device.empty() ? "none (" + gpu_unavailable_reason() + ")" : device},
      {"driver", driver.empty() ? "none" : driver}};
  if (!json_to_stdout)
    fmt::print(
        "piles bench: piles {} ({}), {}\n{}, {}; GPU: {}{}\nTopswops CPU path: "
        "{}\n\n{:<54} "
        "{:<18} {:<44} {:>9}  {}\n",
        version, commit, record["date"].get<std::string>(), machine_description(),
        plural(targets.front().threads, "thread"), record["device"].get<std::string>(),
        driver.empty() ? "" : ", driver " + driver, topswops::cpu_path_text(), "instance", "engine",
        "signature", "seconds", "rate");
  std::vector<std::vector<benchmark::Measure>> runs;
  nlohmann::json measures = nlohmann::json::array();
  for (const RunTarget& target : targets) {
    select_device(target);
    runs.push_back(benchmark::run_suite(target, [&](const benchmark::Measure& m) {
      measures.push_back(to_json(m));
      if (json_to_stdout) return;
      fmt::print("{:<54} {:<18} {:<44} {:>9.3f}  {}\n", m.instance, m.engine, m.signature(),
                 m.seconds, rate_text(m));
      std::fflush(stdout);
    }));
  }
  record["measures"] = measures;
  if (runs.size() == 2) {
    record["gpu_over_cpu"] = ratios(runs[0], runs[1]);
    if (!json_to_stdout)
      for (const auto& r : record["gpu_over_cpu"])
        fmt::print("{:<54} {} is {:.1f}x {}\n", r["instance"].get<std::string>(),
                   r["gpu"].get<std::string>(), r["speedup"].get<double>(),
                   r["cpu"].get<std::string>());
  }
  if (json_to_stdout) emit_json(record);
  if (json_file.wanted()) json_file.write(json_text(record, 2) + '\n');
}

}  // namespace

void add_bench_command(CLI::App& app, const CommonOptions& common) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* bench = app.add_subcommand(
      "bench",
      "Fixed instances of the four games: each engine's work count and answer (the signature, "
      "equal on every machine) and its rate");
  bench
      ->add_option("--backend", options->backend,
                   "cpu | gpu | both (GPU against CPU in one run, with the ratio) | auto")
      ->check(one_of({"auto", "cpu", "gpu", "both"}));
  CLI::Option* json =
      bench
          ->add_option("--json", options->json_file,
                       "The record as JSON: in FILE, or on stdout when no FILE is given")
          ->expected(0, 1);
  bench->footer("Example:\n  piles bench --json bench.json");
  bench->callback([options, json, &common] {
    const bool to_stdout = common.json || (json->count() > 0 && options->json_file.empty());
    run_bench(*options, common, to_stdout);
  });
}

}  // namespace piles::cli
