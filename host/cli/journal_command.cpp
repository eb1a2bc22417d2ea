#include <fmt/format.h>

#include <memory>
#include <string>

#include "host/cli/commands.hpp"
#include "host/cli/suggest.hpp"
#include "host/common/checkpoint.hpp"
#include "host/common/output.hpp"

namespace piles::cli {
namespace {

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
  journal->footer("Example:\n  piles journal repair f18.journal");
  auto file = std::make_shared<std::string>();
  CLI::App* repair = journal->add_subcommand(
      "repair",
      "Keep a damaged journal's lines before its first damaged one and move the rest to "
      "FILE.damaged, so that the run resumes");
  repair->add_option("FILE", *file, "The journal (of --checkpoint)")->required()->check(file_name);
  repair->footer("Example:\n  piles journal repair f18.journal");
  repair->callback([file, &common] { run_repair(*file, common); });
}

}  // namespace piles::cli
