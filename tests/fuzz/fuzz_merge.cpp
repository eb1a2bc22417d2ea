// The merge commands of the three journaled games, and the reader of tail journals, on any
// journal, alone and beside a real shard journal (before and after it), with the merged answer
// rendered as the command prints it. The input is a journal whose checksums are made right first
// (fuzz_journal covers the checksum check). A journal that does not merge may only be refused
// with UsageError, and a merge may not depend on the order of its files.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "host/babylon/report.hpp"
#include "host/babylon/table.hpp"
#include "host/bulgarian/range_job.hpp"
#include "host/bulgarian/report.hpp"
#include "host/common/error.hpp"
#include "host/topswops/report.hpp"
#include "host/topswops/solve.hpp"
#include "host/topswops/tail_job.hpp"
#include "tests/fuzz/support.hpp"

namespace {

using piles::fuzz::require;
using Files = std::vector<std::string>;

struct Game {
  std::function<void(const Files&)> merge;  // merges and renders, as the game's merge command
  std::string shard;                        // shard 0 of 2 of a small problem of the game
};

// Shard 0 of 2 of each game's small problem, as `piles <game> ... --shard 0/2 --checkpoint`
// writes it; the seed corpus holds shard 1 and whole journals of the same problems.
std::vector<Game> games() {
  piles::job::Options shard;
  shard.shard = piles::job::Shard{0, 2};
  shard.quiet = true;
  const piles::RunTarget cpu;
  std::vector<Game> all;

  Game topswops{[](const Files& files) {
                  const piles::topswops::Solution s = piles::topswops::merge(files);
                  piles::topswops::to_json(s).dump();
                  piles::topswops::to_text(s, false);
                },
                piles::fuzz::scratch("topswops-shard0").string()};
  piles::topswops::SolveOptions solve;
  solve.n = 9;
  solve.run = shard;
  solve.run.checkpoint = topswops.shard;
  piles::topswops::solve(solve, cpu);
  all.push_back(topswops);

  const auto print = [](const piles::bulgarian::Analysis& a) {
    piles::bulgarian::to_json(a).dump();
    piles::bulgarian::to_text(a, false);
  };
  Game bulgarian{[print](const Files& files) { piles::bulgarian::merge_range(files, print); },
                 piles::fuzz::scratch("bulgarian-shard0").string()};
  piles::bulgarian::RangeRun range;
  range.range = {3, 5};
  range.chunks_per_n = 2;
  range.run = shard;
  range.run.checkpoint = bulgarian.shard;
  piles::bulgarian::analyze_range(range, cpu, print);
  all.push_back(bulgarian);

  Game babylon{[](const Files& files) {
                 const piles::babylon::Table t = piles::babylon::merge_tables(files);
                 for (const auto& line : piles::babylon::to_json_lines(t)) line.dump();
                 piles::babylon::to_text(t, false);
               },
               piles::fuzz::scratch("babylon-shard0").string()};
  piles::babylon::TableRun table;
  table.max_chips = 5;
  table.run = shard;
  table.run.checkpoint = babylon.shard;
  piles::babylon::solve_table(table, cpu);
  all.push_back(babylon);

  // A tail of n = 9 is one chunk: its whole journal stands beside the input.
  Game tail{[](const Files& files) { piles::topswops::read_tail(files); },
            piles::fuzz::scratch("tail-whole").string()};
  piles::topswops::TailOptions tail_options;
  tail_options.n = 9;
  tail_options.run.quiet = true;
  tail_options.run.checkpoint = tail.shard;
  piles::topswops::run_tail(tail_options, cpu);
  all.push_back(tail);
  return all;
}

bool merges(const Game& game, const Files& files) {
  try {
    game.merge(files);
    return true;
  } catch (const piles::UsageError&) {
    return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<Game> all = games();
  const std::string journal = piles::fuzz::scratch("journal").string();
  piles::fuzz::write_file(journal,
                          piles::fuzz::fix_checksums({reinterpret_cast<const char*>(data), size}));
  for (const Game& game : all) {
    merges(game, {journal});
    require(merges(game, {game.shard, journal}) == merges(game, {journal, game.shard}),
            "a merge does not depend on the order of its files");
  }
  return 0;
}
