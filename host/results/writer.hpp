#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "host/common/backend.hpp"
#include "host/common/progress.hpp"

namespace piles::results {

// A command that checks a FRONTIER.md row, with what it prints: the documentation check runs
// it and compares (the slow ones only in `make results PRESET=full`). Its output must hold
// answers only, so that FRONTIER.md changes only when an answer does.
struct FrontierCheck {
  std::string command;  // without the leading "piles "
  std::string output;
  bool slow = false;  // minutes on 2 cores: not for the test suite
};

// One row of FRONTIER.md: a result that goes past (or checks) the literature.
struct FrontierRow {
  std::string result;      // what was computed, in words
  std::string literature;  // what had been published, with its source
  std::string computed;    // what piles found
  std::string command;     // the command that reproduces it
  std::string file;        // the file under results/ that holds the numbers
  std::string took;        // how long it took: "83 s" (this run) or where the time comes from
  std::vector<FrontierCheck> checks;
};

// Writes the files under results/ and remembers what each one is, for the index. The tables,
// plots and the index hold answers only and name the command that made them, so a rerun
// changes a file only where an answer changes. Whatever varies from run to run (date,
// machine, backend, threads, timings, memory, work counts that depend on thread timing)
// goes to one RUNS.md per folder; how long each FRONTIER.md result took goes to the top
// folder's RUNS.md.
class Writer {
 public:
  Writer(std::filesystem::path dir, std::string preset, RunTarget target, bool quiet,
         double status_every = default_status_every);

  bool full() const { return preset_ == "full"; }
  const std::filesystem::path& dir() const { return dir_; }
  const RunTarget& target() const { return target_; }
  bool quiet() const { return quiet_; }
  // Between the status lines of the long runs it starts (--status-every).
  double status_every() const { return status_every_; }

  // <dir>/<game>/runs: the long runs (journals, b-files) that the full preset makes and every
  // preset reads back, so that a stopped run resumes and `make results` stays quick.
  std::filesystem::path runs(const std::string& game) const { return dir_ / game / "runs"; }
  // The journals in runs(game), sorted; none when the folder is missing.
  std::vector<std::string> journals(const std::string& game) const;
  // A file of runs(game) as a command run from the top of the repository names it.
  static std::string command_path(const std::string& game, const std::string& file) {
    return "results/" + game + "/runs/" + std::filesystem::path(file).filename().string();
  }
  // How long a result read from journals took: their chunk seconds, which count chunks that
  // ran side by side each in full and so are not wall time.
  static std::string journal_time(double seconds);

  // One line: "made by `piles results --preset quick` (<what>); piles 0.1.0".
  std::string provenance(std::string_view what) const;

  // Markdown: a title, the provenance in italics, then the body.
  void markdown(const std::string& file, const std::string& title, std::string_view what,
                const std::string& body);
  // Text formats with line comments (CSV, b-files, gnuplot data): provenance as '# ' lines.
  void commented(const std::string& file, const std::string& description, std::string_view what,
                 const std::string& body);
  // An SVG plot drawn by gnuplot from `script` (which must not set the terminal or output).
  void plot(const std::string& file, const std::string& description, const std::string& script);

  // A file another program writes (a Graphviz picture): creates its folder, lists it in the
  // index, and returns where to write it.
  std::filesystem::path external(const std::string& file, const std::string& description);

  // For <folder>/RUNS.md: how long the work behind `tables` took in this run, and optionally a
  // section of markdown with the figures that vary from run to run.
  void run_record(const std::string& folder, const std::string& tables, double seconds,
                  const std::string& details = "");

  // A row of results/FRONTIER.md, and a line of its "waiting for a GPU" list: written by
  // finish(), in the order the games added them.
  void frontier(FrontierRow row) { frontier_.push_back(std::move(row)); }
  void waits_for_gpu(std::string what) { waits_.push_back(std::move(what)); }

  // Runs one game's writer, all of whose files go under `folder`, and times it for RUNS.md.
  void write_game(const std::string& folder, void (*write)(Writer&));

  // The RUNS.md files, FRONTIER.md, then results/README.md listing every file written in this run.
  void finish();

 private:
  struct Record {
    std::string tables, details;
    double seconds = 0;
  };
  struct Runs {
    double seconds = 0;
    std::vector<Record> records;
  };

  void write_runs(const std::string& folder, const Runs& runs);
  void write_index() const;
  void write_frontier();

  std::filesystem::path dir_;
  std::string preset_;
  RunTarget target_;
  bool quiet_;
  double status_every_;
  std::string started_;  // UTC date and time of the run
  std::vector<std::pair<std::string, std::string>> written_;
  std::vector<std::string> folders_;  // in the order the games ran
  std::map<std::string, Runs> runs_;
  std::vector<FrontierRow> frontier_;
  std::vector<std::string> waits_;
  // Status lines of the whole run in a log (--status-every): the files written and the game at
  // work. On a terminal the runs it starts draw their own bars.
  Progress progress_;
};

}  // namespace piles::results
