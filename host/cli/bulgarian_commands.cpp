#include <fmt/format.h>

#include <memory>
#include <numeric>
#include <string>

#include "host/bulgarian/trace.hpp"
#include "host/cli/commands.hpp"
#include "host/common/output.hpp"

namespace piles::cli {
namespace {

void run_trace(const std::string& text, const CommonOptions& common) {
  const bulgarian::Trace t = bulgarian::trace(bulgarian::parse_partition(text));
  if (common.json) {
    emit_json({{"start", t.start},
               {"trace", t.partitions},
               {"transient", t.transient},
               {"cycle_length", t.cycle_length}});
    return;
  }
  const int n = std::accumulate(t.start.begin(), t.start.end(), 0);
  fmt::print("start         {}   n = {}\ntransient     {}\ncycle length  {}\n", paren_list(t.start),
             n, t.transient, t.cycle_length);
  if (common.quiet) return;
  for (std::size_t i = 0; i < t.partitions.size(); ++i) {
    const char* mark = static_cast<int>(i) == t.transient                   ? "   <- cycle"
                       : i + 1 == t.partitions.size() && t.cycle_length > 1 ? "   (repeat)"
                                                                            : "";
    fmt::print("{:5}  {}{}\n", i, paren_list(t.partitions[i]), mark);
  }
}

}  // namespace

void add_bulgarian_commands(CLI::App& app, const CommonOptions& common) {
  CLI::App* bulgarian =
      app.add_subcommand("bulgarian", "Bulgarian solitaire: traces, cycles, transients");
  bulgarian->require_subcommand(1);

  auto start = std::make_shared<std::string>();
  CLI::App* trace =
      bulgarian->add_subcommand("trace", "Play from one partition until a partition repeats");
  trace->add_option("PARTITION", *start, "Comma-separated positive parts, e.g. 5,2,2")->required();
  trace->callback([start, &common] { run_trace(*start, common); });
}

}  // namespace piles::cli
