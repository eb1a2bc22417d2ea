#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "host/cli/commands.hpp"
#include "host/common/output.hpp"
#include "host/selftest/selftest.hpp"

namespace piles::cli {
namespace {

void print_check(const selftest::CheckResult& r, const CommonOptions& common) {
  if (common.json) {
    emit_json({{"check", r.engine},
               {"instance", r.instance},
               {"ok", r.ok()},
               {"expected", r.expected},
               {"got", r.got},
               {"seconds", r.seconds}});
    return;
  }
  if (common.quiet && r.ok()) return;
  if (r.ok())
    fmt::print("ok    {:<24} {}: {} ({:.2f} s)\n", r.engine, r.instance, r.got, r.seconds);
  else
    fmt::print("FAIL  {:<24} {}: expected {}, got {} ({:.2f} s)\n", r.engine, r.instance,
               r.expected, r.got, r.seconds);
  std::fflush(stdout);
}

void run_selftest(const CommonOptions& common) {
  const RunTarget target = resolve_backend(common);
  select_device(target);
  if (!common.json && !common.quiet)
    fmt::print("piles selftest on {} ({}, {} host threads)\n", backend_name(target.backend),
               target.device, target.threads);
  const auto results =
      selftest::run(selftest::all_checks(target),
                    [&common](const selftest::CheckResult& r) { print_check(r, common); });
  const auto failing = [](const selftest::CheckResult& r) { return !r.ok(); };
  const auto failed = std::count_if(results.begin(), results.end(), failing);
  // The tally is the answer, which --quiet keeps.
  if (!common.json) fmt::print("{}, {} failed\n", plural(results.size(), "check"), failed);
  if (const auto first = std::find_if(results.begin(), results.end(), failing);
      first != results.end())
    throw std::runtime_error(fmt::format("selftest: {} of {} checks failed, the first {} {}",
                                         failed, results.size(), first->engine, first->instance));
}

}  // namespace

void add_selftest_command(CLI::App& app, const CommonOptions& common) {
  CLI::App* selftest = app.add_subcommand(
      "selftest",
      "Known answers on every engine of the backend (--backend gpu: the GPU engines against "
      "published values and the CPU); exit 0 only when all pass");
  selftest->footer("Example:\n  piles selftest --backend cpu");
  selftest->callback([&common] { run_selftest(common); });
}

}  // namespace piles::cli
