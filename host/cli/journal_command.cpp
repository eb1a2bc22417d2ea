#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "host/babylon/table.hpp"
#include "host/bulgarian/range_job.hpp"
#include "host/cli/commands.hpp"
#include "host/cli/suggest.hpp"
#include "host/common/checkpoint.hpp"
#include "host/common/error.hpp"
#include "host/common/journal_problem.hpp"
#include "host/common/output.hpp"
#include "host/common/progress.hpp"
#include "host/topswops/solve.hpp"
#include "host/topswops/tail_job.hpp"

namespace piles::cli {
namespace {

// The survey of a journal, by the game whose job wrote it.
job::Survey survey_of(const std::string& file, const nlohmann::json& problem,
                      const CommonOptions& common) {
  const std::string game = journal_text(problem, "game");
  if (game == "topswops")
    return journal_text(problem, "search").starts_with("tail/")
               ? topswops::survey_tail(file)
               : topswops::survey_journal(file, resolve_threads(common.threads));
  if (game == "bulgarian") return bulgarian::survey_range(file);
  if (game == "babylon") return babylon::survey_table(file);
  throw UsageError(fmt::format("{}: not the journal of a game piles runs as a job", file));
}

// What the journal's "run" lines say of the processes that wrote it: a few distinct values of
// one field, in the order first met ("cpu, gpu"; "a, b, c and 4 more").
std::string distinct(const std::vector<nlohmann::json>& runs, const char* key) {
  constexpr std::size_t shown = 3;
  std::vector<std::string> values;
  std::set<std::string> seen;
  for (const nlohmann::json& run : runs) {
    const std::string value = journal_text(run, key);
    if (!value.empty() && seen.insert(value).second) values.push_back(value);
  }
  if (values.size() <= shown) return fmt::format("{}", fmt::join(values, ", "));
  return fmt::format("{} and {} more", fmt::join(values.begin(), values.begin() + shown, ", "),
                     values.size() - shown);
}

void show(const std::string& file, const CommonOptions& common) {
  const JournalContents contents = read_journal(file);
  const job::Survey s = survey_of(file, contents.problem, common);
  const std::string words = problem_words(contents.problem);
  const bool complete = s.chunks_done == s.chunks;
  // The work left where the job weighs it, and its time at the pace of the chunks done so far
  // (their units over their seconds added up): in the chunks' seconds too, which are a GPU's
  // on a device and add up the threads' where chunks ran side by side on CPU threads.
  const bool weighed = s.work && !complete;
  const job::Survey::Work work = s.work.value_or(job::Survey::Work{});
  std::optional<double> seconds_left;
  if (weighed && work.done > 0 && s.seconds > 0) seconds_left = work.left * s.seconds / work.done;
  // The command that takes the journal up again, where it is not complete.
  const std::string shard = s.shard ? " --shard " + s.shard->name() : "";
  const std::string go_on =
      complete ? ""
               : fmt::format("piles {}{}{} --checkpoint {}", words, s.go_on_options, shard, file);
  const std::string first =
      contents.runs.empty() ? "" : journal_text(contents.runs.front(), "started");
  const std::string last =
      contents.runs.empty() ? "" : journal_text(contents.runs.back(), "started");
  if (common.json) {
    nlohmann::json j = {{"journal", file},
                        {"problem", words},
                        {"chunks", s.chunks},
                        {"chunks_done", s.chunks_done},
                        {"complete", complete},
                        {"rounds", s.rounds},
                        {"rounds_complete", s.rounds_complete},
                        {"seconds", significant(s.seconds)},
                        {"runs", contents.runs.size()},
                        {"first_started", first},
                        {"last_started", last}};
    if (s.shard) {
      j["shard"] = s.shard->name();
      j["job_chunks"] = s.job_chunks;
    }
    if (s.best) j["best"] = *s.best;
    if (!complete) j["go_on"] = go_on;
    if (weighed) {
      j["unit"] = s.unit;
      j["units_done"] = std::llround(work.done);
      j["units_left"] = std::llround(work.left);
    }
    if (seconds_left) j["seconds_left"] = significant(*seconds_left);
    if (s.open_round) {
      j["open_round"] = *s.open_round;
      j["open_round_chunks"] = s.open_round_chunks;
      j["open_round_done"] = s.open_round_done;
    }
    emit_json(j);
    return;
  }
  std::string out = fmt::format("{}: {}\n", file, words);
  if (s.shard)
    out += fmt::format("  shard      {}: its {} of the job's {} chunks\n", s.shard->name(),
                       group_digits(s.chunks), group_digits(s.job_chunks));
  out += fmt::format("  chunks     {} of {} ({:.1f}%){}\n", group_digits(s.chunks_done),
                     group_digits(s.chunks),
                     s.chunks ? 100.0 * static_cast<double>(s.chunks_done) / s.chunks : 100.0,
                     !complete ? ""
                     : s.shard ? ", complete: merge it with the other shards' journals"
                               : ", complete: merge gives the answer");
  out += fmt::format("  rounds     {} of {} complete", s.rounds_complete, s.rounds);
  if (s.open_round)
    out += fmt::format(", round {} has {} of {}", *s.open_round, group_digits(s.open_round_done),
                       plural(s.open_round_chunks, "chunk"));
  out += "\n";
  if (s.best)
    out += fmt::format("  best       {}{}\n", *s.best > 0 ? std::to_string(*s.best) : "none",
                       complete && !s.shard ? ""
                       : *s.best > 0        ? " so far"
                                            : " yet");
  out += fmt::format("  computing  {} s, the chunks' seconds added up\n",
                     group_digits(static_cast<std::uint64_t>(std::llround(s.seconds))));
  if (weighed) {
    const double all = work.done + work.left;
    out += fmt::format("  left       about {} of {} {} ({:.1f}%)\n", scientific(work.left),
                       scientific(all), s.unit, all > 0 ? 100 * work.left / all : 0.0);
    if (seconds_left)
      out += fmt::format(
          "  time left  about {} of the chunks' seconds, at their pace so far ({} {}/s)\n",
          human_seconds(*seconds_left), human_count(work.done / s.seconds), s.unit);
  }
  if (!contents.runs.empty())
    out += fmt::format("  runs       {}, started {}{}; {} on {}\n", contents.runs.size(), first,
                       first == last ? "" : " to " + last, distinct(contents.runs, "backend"),
                       distinct(contents.runs, "host"));
  if (!complete) out += fmt::format("  go on      {}\n", go_on);
  fmt::print("{}", out);
}

void run_show(const std::vector<std::string>& files, const CommonOptions& common) {
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (i > 0 && !common.json) fmt::print("\n");
    show(files[i], common);
  }
}

void run_repair(const std::string& file, const CommonOptions& common) {
  const JournalRepair r = repair_journal(file);
  if (common.json) {
    nlohmann::json j = {
        {"journal", file}, {"lines_kept", r.lines_kept}, {"lines_moved", r.lines_moved}};
    if (!r.aside.empty()) j["damaged_lines_file"] = r.aside.string();
    emit_json(j);
  } else if (r.lines_moved == 0) {
    fmt::print("{}: no damaged line, nothing to repair ({})\n", file, plural(r.lines_kept, "line"));
  } else {
    fmt::print(
        "{}: kept the {} before the first damaged one; {} set aside in {}; a resume computes "
        "their chunks again\n",
        file, plural(r.lines_kept, "line"), plural(r.lines_moved, "line"), r.aside.string());
  }
}

}  // namespace

void add_journal_command(CLI::App& app, const CommonOptions& common) {
  CLI::App* journal = app.add_subcommand("journal", "Look after the journals of --checkpoint");
  journal->require_subcommand(1);
  journal->footer("Example:\n  piles journal show f18.journal");
  auto file = std::make_shared<std::string>();
  CLI::App* repair = journal->add_subcommand(
      "repair",
      "Keep a damaged journal's lines before its first damaged one and move the rest to "
      "FILE.damaged, so that the run resumes");
  repair->add_option("FILE", *file, "The journal (of --checkpoint)")->required()->check(file_name);
  repair->footer("Example:\n  piles journal repair f18.journal");
  repair->callback([file, &common] { run_repair(*file, common); });
  auto files = std::make_shared<std::vector<std::string>>();
  CLI::App* show = journal->add_subcommand(
      "show",
      "How far journals have come: chunks and rounds done, the best so far, the work left and its "
      "time, their runs, and the command that goes on with one not complete");
  show->add_option("FILE", *files, "Journals (of --checkpoint)")->required()->check(file_name);
  show->footer("Example:\n  piles journal show results/topswops/runs/solve_18.journal");
  show->callback([files, &common] { run_show(*files, common); });
}

}  // namespace piles::cli
