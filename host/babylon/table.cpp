#include "host/babylon/table.hpp"

#include <fmt/format.h>

#include <chrono>
#include <system_error>
#include <utility>
#include <vector>

#include "host/babylon/solver.hpp"
#include "host/babylon/start.hpp"
#include "host/common/checkpoint.hpp"
#include "host/common/clock.hpp"
#include "host/common/error.hpp"
#include "host/common/json_integer.hpp"
#include "host/common/output.hpp"
#include "host/common/parallel.hpp"

namespace piles::babylon {
namespace {

// How a table is cut into chunks: one start each, or (journals begun before starts were
// chunks of their own) every start of one chip total.
enum class Cut { starts, totals };

class TableJob {
 public:
  TableJob(int colours, int max_chips, int threads, Cut cut)
      : colours_(colours), max_chips_(max_chips), cut_(cut), solver_(threads) {
    if (max_chips < colours)
      throw UsageError(fmt::format("--max-chips {}: a start with {} colours has at least {} chips",
                                   max_chips, colours, colours));
    check_start(std::vector<int>(colours, 1));
    std::vector<int> largest(colours, 1);
    largest.back() = max_chips - (colours - 1);
    check_start(largest);
    std::vector<std::vector<std::vector<int>>> by_total(max_chips - colours + 1);
    for (std::vector<int>& counts : table_starts(colours, max_chips))
      by_total[max_chips - chips_of(counts)].push_back(std::move(counts));
    for (std::vector<std::vector<int>>& total : by_total) {
      if (cut == Cut::totals) {
        chunks_.push_back(std::move(total));
        continue;
      }
      for (std::vector<int>& counts : total) chunks_.push_back({std::move(counts)});
    }
  }

  job::Job describe() {
    job::Job j;
    j.identity = {{"game", "babylon"}, {"colours", colours_}, {"max_chips", max_chips_}};
    if (cut_ == Cut::starts) j.identity["chunk"] = "start";
    j.chunk_count = chunks_.size();
    std::vector<job::Chunk>& round = j.rounds.emplace_back();
    for (job::Chunk c = 0; c < j.chunk_count; ++c) round.push_back(c);
    j.weight = [this](job::Chunk c) { return std::max<std::uint64_t>(1, chunks_[c].size()); };
    // A slice gives every thread a total.
    j.slice_floor = [this](const RunTarget& run) {
      return static_cast<std::uint64_t>(run.threads) * starts_of_total(max_chips_);
    };
    j.label = fmt::format("babylon table {} colours", colours_);
    // The share done in starts, the rate in the states the answer counts.
    j.unit = "states";
    j.measure = [](const nlohmann::json& payload) {
      std::uint64_t states = 0;
      for (const nlohmann::json& row : payload.at("rows"))
        states += row.at("searched").get<std::uint64_t>();
      return states;
    };
    j.check = [this](job::Chunk c, const nlohmann::json& payload, const std::string& where) {
      rows_from_json(c, payload, where);
    };
    // Starts of one total share most of their positions, and two threads on one total would
    // search them at the same time: the slice's starts go to the threads a total at a time,
    // each thread solving its total's starts in order. `cancel` is asked before each start and
    // inside it, every few thousand positions; each chunk is handed over as soon as its starts
    // are solved.
    j.run = [this](const std::vector<job::Chunk>& chunks, int, const RunTarget& run,
                   const job::ChunkDone& done, const UnitsDone&, const Cancel& cancel) {
      std::vector<std::vector<job::Chunk>> totals;
      for (const job::Chunk c : chunks) {
        if (totals.empty() ||
            chips_of(chunks_[c].front()) != chips_of(chunks_[totals.back().front()].front()))
          totals.emplace_back();
        totals.back().push_back(c);
      }
      parallel_for_each(static_cast<int>(totals.size()), run.threads, [&](int i) {
        for (const job::Chunk c : totals[i]) {
          const auto start = std::chrono::steady_clock::now();
          nlohmann::json rows = nlohmann::json::array();
          for (const std::vector<int>& counts : chunks_[c]) {
            if (cancelled(cancel)) throw Cancelled();
            const auto s0 = std::chrono::steady_clock::now();
            std::uint64_t searched = 0;
            const bool wins = solver_.mover_wins(start_position(counts), searched, cancel);
            rows.push_back({{"counts", counts},
                            {"first_wins", wins},
                            {"searched", searched},
                            {"seconds", seconds_since(s0)}});
          }
          done(c, {{"rows", std::move(rows)}}, seconds_since(start));
        }
      });
    };
    return j;
  }

  // The rows of the chunks in `records`, in table order: the chunks run from the largest total
  // down, and the table lists the smallest first.
  Table assemble(const job::Outcome& outcome, const RunTarget& target) const {
    Table t;
    t.colours = colours_;
    t.max_chips = max_chips_;
    t.threads = target.threads;
    t.ranks = target.ranks;
    std::vector<std::vector<TableRow>> by_total(max_chips_ + 1);
    for (const auto& [c, record] : outcome.records)
      for (TableRow& row : rows_from_json(c, record.payload, "chunk"))
        by_total[row.chips].push_back(std::move(row));
    for (std::vector<TableRow>& rows : by_total)
      for (TableRow& row : rows) t.rows.push_back(std::move(row));
    t.memo_states = solver_.memo_states();
    t.wide_states = solver_.wide_states();
    t.memo_bytes = solver_.memo_bytes();
    t.seconds = outcome.seconds;
    t.run = outcome.status;
    return t;
  }

 private:
  static int chips_of(const std::vector<int>& counts) {
    int chips = 0;
    for (const int c : counts) chips += c;
    return chips;
  }

  std::uint64_t starts_of_total(int chips) const {
    std::uint64_t count = 0;
    for (const std::vector<std::vector<int>>& chunk : chunks_)
      for (const std::vector<int>& counts : chunk) count += chips_of(counts) == chips;
    return std::max<std::uint64_t>(count, 1);
  }

  std::vector<TableRow> rows_from_json(job::Chunk c, const nlohmann::json& payload,
                                       const std::string& where) const {
    std::vector<TableRow> rows;
    try {
      const nlohmann::json& list = payload.at("rows");
      if (list.size() == chunks_[c].size())
        for (std::size_t i = 0; i < list.size(); ++i) {
          TableRow row;
          row.counts = json_integers<int>(list[i].at("counts"));
          if (row.counts != chunks_[c][i]) break;
          row.chips = chips_of(row.counts);
          row.first_wins = list[i].at("first_wins").get<bool>();
          row.searched = json_integer<std::uint64_t>(list[i].at("searched"));
          row.seconds = list[i].at("seconds").get<double>();
          rows.push_back(std::move(row));
        }
    } catch (const nlohmann::json::exception&) {
      rows.clear();
    }
    if (rows.size() != chunks_[c].size())
      throw UsageError(
          cut_ == Cut::totals
              ? fmt::format("{}: not the starts of {} chips", where, chips_of(chunks_[c].front()))
              : fmt::format("{}: not the start {}", where, comma_list(chunks_[c].front())));
    return rows;
  }

  int colours_, max_chips_;
  Cut cut_;
  std::vector<std::vector<std::vector<int>>> chunks_;  // [chunk]: its starts, of one total
  Solver solver_;
};

// The table job a journal names.
TableJob journal_job(const std::string& journal) {
  int colours = 0, max_chips = 0;
  bool known_cut = true;
  Cut cut = Cut::totals;
  job::read_identity(journal, "babylon", [&](const nlohmann::json& p) {
    colours = json_integer<int>(p.at("colours"));
    max_chips = json_integer<int>(p.at("max_chips"));
    if (p.contains("chunk")) {
      known_cut = p.at("chunk") == "start";
      cut = Cut::starts;
    }
  });
  if (!known_cut || colours < 2 || colours > max_colours || max_chips > max_start_chips(colours))
    throw UsageError(fmt::format("{}: not a Babylon journal", journal));
  return TableJob(colours, max_chips, 1, cut);
}

// A journal begun by an earlier piles, which cut tables by chip totals, goes on in its chunks;
// anything else the driver's own journal check answers.
Cut cut_of_checkpoint(const std::string& checkpoint, int colours, int max_chips) {
  if (!journal_begun(checkpoint)) return Cut::starts;
  try {
    const nlohmann::json problem = read_journal(checkpoint).problem;
    if (problem ==
        nlohmann::json{{"game", "babylon"}, {"colours", colours}, {"max_chips", max_chips}})
      return Cut::totals;
  } catch (const std::exception&) {
  }
  return Cut::starts;
}

// A table read from journals: no threads of this process computed it.
RunTarget merged_target() {
  RunTarget target;
  target.threads = 0;
  return target;
}

}  // namespace

Table solve_table(const TableRun& run, const RunTarget& target) {
  TableJob table(run.colours, run.max_chips, target.threads,
                 cut_of_checkpoint(run.run.checkpoint, run.colours, run.max_chips));
  return table.assemble(job::run(table.describe(), run.run, target), target);
}

Table solve_table(int colours, int max_chips, int threads) {
  TableRun run;
  run.colours = colours;
  run.max_chips = max_chips;
  run.run.quiet = true;
  RunTarget cpu;
  cpu.threads = threads;
  return solve_table(run, cpu);
}

Table merge_tables(const std::vector<std::string>& journals) {
  if (journals.empty()) throw UsageError("merge: no journal files given");
  TableJob table = journal_job(journals.front());
  return table.assemble(job::merge(table.describe(), journals), merged_target());
}

job::Survey survey_table(const std::string& journal) {
  TableJob table = journal_job(journal);
  return job::survey(table.describe(), journal);
}

std::optional<Table> finished_table(const std::string& journal) {
  TableJob table = journal_job(journal);
  // One round holds every chip total, so the journal's finished rounds are all or nothing.
  const job::Outcome outcome = job::read_finished(table.describe(), journal);
  if (outcome.status.stopped) return std::nullopt;
  return table.assemble(outcome, merged_target());
}

std::string table_command(const Table& t) {
  return fmt::format("babylon table --colors {} --max-chips {}", t.colours, t.max_chips);
}

}  // namespace piles::babylon
