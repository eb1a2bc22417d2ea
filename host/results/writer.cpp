#include "host/results/writer.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "build_info.hpp"
#include "host/common/clock.hpp"
#include "host/common/error.hpp"
#include "host/common/gnuplot.hpp"
#include "host/common/machine.hpp"
#include "host/common/output_file.hpp"

namespace piles::results {
Writer::Writer(std::filesystem::path dir, std::string preset, RunTarget target, bool quiet,
               double status_every)
    : dir_(std::move(dir)),
      preset_(std::move(preset)),
      target_(std::move(target)),
      quiet_(quiet),
      status_every_(status_every),
      started_(utc_now()),
      progress_("results", unknown_total, "files", 0,
                {.quiet = quiet, .status_every = status_every, .lines_only = true}) {
  // Tried before any table is computed, so that a bad --out costs a usage line, not the work.
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (!ec && !std::filesystem::is_directory(dir_, ec))
    ec = std::make_error_code(std::errc::not_a_directory);
  if (!ec && ::access(dir_.c_str(), W_OK) != 0)
    ec = std::error_code(errno, std::generic_category());
  if (ec)
    throw UsageError(fmt::format("--out {}: cannot be written ({})", dir_.string(), ec.message()));
}

std::vector<std::string> Writer::journals(const std::string& game) const {
  std::vector<std::string> out;
  if (std::filesystem::is_directory(runs(game)))
    for (const auto& entry : std::filesystem::directory_iterator(runs(game)))
      if (entry.path().extension() == ".journal") out.push_back(entry.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string Writer::journal_time(double seconds) {
  return fmt::format(
      "{:.0f} s of journal chunk seconds, added up (chunks run side by side each "
      "count)",
      seconds);
}

std::string Writer::provenance(std::string_view what) const {
  return fmt::format("made by `piles results --preset {}` ({}); piles {}", preset_, what, version);
}

std::filesystem::path Writer::external(const std::string& file, const std::string& description) {
  const std::filesystem::path path = dir_ / file;
  std::filesystem::create_directories(path.parent_path());
  written_.emplace_back(file, description);
  if (!quiet_) fmt::print(stderr, "results: writing {}\n", path.string());
  progress_.add(1);
  return path;
}

void Writer::markdown(const std::string& file, const std::string& title, std::string_view what,
                      const std::string& body) {
  write_text_file(external(file, title),
                  fmt::format("# {}\n\n_{}_\n\n{}", title, provenance(what), body));
}

void Writer::commented(const std::string& file, const std::string& description,
                       std::string_view what, const std::string& body) {
  write_text_file(external(file, description),
                  fmt::format("# {}\n# {}\n{}", description, provenance(what), body));
}

void Writer::plot(const std::string& file, const std::string& description,
                  const std::string& script) {
  write_text_file(external(file, description), svg_from_gnuplot(script));
}

void Writer::run_record(const std::string& folder, const std::string& tables, double seconds,
                        const std::string& details) {
  runs_[folder].records.push_back({tables, details, seconds});
}

void Writer::write_game(const std::string& folder, void (*write)(Writer&)) {
  const auto t0 = std::chrono::steady_clock::now();
  progress_.note(folder + " tables");
  write(*this);
  folders_.push_back(folder);
  runs_[folder].seconds = seconds_since(t0);
}

void Writer::write_runs(const std::string& folder, const Runs& runs) {
  std::string md = fmt::format(
      "# {}: the last run\n\n"
      "_Rewritten by every `piles results` run: when, on what and how long. The other files "
      "in this folder hold answers only and change only when an answer does._\n\n"
      "| | |\n|---|---|\n| command | `piles results --preset {}` |\n| piles | {} |\n"
      "| started | {} |\n| machine | {} |\n| backend | {} |\n| device | {} |\n"
      "| threads | {} |\n| wall time, every table here | {:.1f} s |\n\n"
      "| tables | seconds |\n|---|---:|\n",
      folder, preset_, version, started_, machine_description(), backend_name(target_.backend),
      target_.device, target_.threads, runs.seconds);
  for (const Record& r : runs.records) md += fmt::format("| {} | {:.3f} |\n", r.tables, r.seconds);
  for (const Record& r : runs.records)
    if (!r.details.empty()) md += fmt::format("\n## {}\n\n{}", r.tables, r.details);
  write_text_file(
      external(folder + "/RUNS.md",
               fmt::format("{}: when, on what and how long its tables were last made", folder)),
      md);
}

void Writer::finish() {
  progress_.note("the index");
  for (const std::string& folder : folders_) write_runs(folder, runs_.at(folder));
  write_frontier();
  write_index();
  progress_.finish();
}

void Writer::write_frontier() {
  std::string md =
      "Where piles goes past the published record, or checks a published claim further than "
      "its authors did. Every figure here is read from the file named in its row, which this "
      "run wrote; how long each took is in [RUNS.md](RUNS.md).\n\n"
      "| result | published before | piles | reproduce | file |\n"
      "|---|---|---|---|---|\n";
  std::string times = fmt::format(
      "# FRONTIER.md: how long each result took\n\n"
      "_Rewritten by every `piles results` run. Wall-clock seconds of the run started {} on {} "
      "({} backend, {} threads), unless the row says they come from a journal._\n\n"
      "| result | time |\n|---|---|\n",
      started_, machine_description(), backend_name(target_.backend), target_.threads);
  for (const FrontierRow& r : frontier_) {
    md += fmt::format("| {} | {} | {} | `{}` | [{}]({}) |\n", r.result, r.literature, r.computed,
                      r.command, r.file, r.file);
    times += fmt::format("| {} | {} |\n", r.result, r.took);
  }
  md +=
      "\n## Check it yourself\n\nEach command below, run from the top of the repository, "
      "prints what follows it, and the documentation check runs it: `make test` in seconds, "
      "the slow ones `make results PRESET=full`.\n";
  for (const FrontierRow& r : frontier_) {
    if (!r.checks.empty()) md += fmt::format("\n### {}\n", r.result);
    for (const FrontierCheck& c : r.checks)
      md += fmt::format("\n{}```\n$ piles {}\n{}```\n",
                        c.slow ? "Slow (minutes on 2 cores):\n\n<!-- piles-docs: slow -->\n\n" : "",
                        c.command, c.output);
  }
  if (!waits_.empty()) {
    md +=
        "\n## Waiting for a GPU\n\nOut of reach of 2 CPU cores: what a GPU, or many cores, "
        "would settle; every figure here is from a run that made it.\n\n";
    for (const std::string& w : waits_) md += fmt::format("- {}\n", w);
  }
  markdown("FRONTIER.md", "piles: past the published record", "every table", md);
  write_text_file(external("RUNS.md", "how long each FRONTIER.md result took in the last run"),
                  times);
}

void Writer::write_index() const {
  std::string body = "| file | what it holds |\n|---|---|\n";
  for (const auto& [file, description] : written_)
    body += fmt::format("| [{0}]({0}) | {1} |\n", file, description);
  write_text_file(
      dir_ / "README.md",
      fmt::format("# piles results\n\n_{}_\n\nRegenerate with `make results` (or `piles "
                  "results --preset quick|full`). The tables, plots and this index hold "
                  "answers only, so a rerun changes a file only where an answer changes; "
                  "each folder's RUNS.md says when, on what and how long its tables were "
                  "last made. Benchmark records are in [bench/](bench/), written by the "
                  "`bench_*` programs.\n\n{}",
                  provenance("every table"), body));
}

}  // namespace piles::results
