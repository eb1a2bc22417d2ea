// Bad and odd input across every command and option: each is refused before any work with one
// line "piles: error: ..." naming what is wrong, exit status 2 and nothing on stdout; and the
// conventions of the command line (bare piles, piles help, -V, --version --json, an example in
// every help).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "build_info.hpp"
#include "host/common/backend.hpp"
#include "tests/support/run_piles.hpp"
#include "tests/support/temp_dir.hpp"

using piles::testing::run_piles;

namespace {

struct Case {
  std::string args;   // "{dir}" stands for a fresh empty folder
  std::string names;  // a part of the one error line
  std::string env = "";
};

std::string with_dir(std::string text, const std::string& dir) {
  for (auto at = text.find("{dir}"); at != std::string::npos; at = text.find("{dir}"))
    text.replace(at, 5, dir);
  return text;
}

void expect_usage_errors(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    piles::testing::TempDir dir;
    const auto r = run_piles(with_dir(c.args, dir.path().string()), "", c.env);
    EXPECT_TRUE(piles::testing::is_usage_error(r, with_dir(c.names, dir.path().string())))
        << c.env << " piles " << c.args;
  }
}

// Whatever the machine: the GPU-only options of a run on CPU threads are refused as well as
// typos and values out of range.
const std::vector<Case> everywhere = {
    // The program and its common options.
    {"juggle", "unknown command juggle (piles takes topswops,"},
    {"topswop solve 5", "unknown command topswop; did you mean topswops?"},
    {"hlep", "unknown command hlep; did you mean help?"},
    {"--frobnicate topswops play 1", "unknown option --frobnicate"},
    {"--thread 1 topswops play 1", "unknown option --thread; did you mean --threads?"},
    {"--checkpoint j topswops solve 5",
     "--checkpoint is an option of piles topswops solve: give it after solve"},
    {"--mpi bulgarian analyze 9",
     "--mpi is an option of piles bulgarian analyze: give it after analyze"},
    {"--threads", "--threads needs a value"},
    {"topswops play 1 --threads", "--threads needs a value"},
    {"--threads x topswops play 1", "--threads: 'x' is not an integer"},
    {"--threads -1 topswops play 1", "--threads: '-1' is out of range (0..65536)"},
    {"--threads 65537 topswops play 1", "--threads: '65537' is out of range"},
    {"--threads 1 --threads 2 topswops play 1", "--threads is given more than once"},
    {"--backend gpx topswops play 1",
     "--backend: 'gpx' is not one of auto, cpu, gpu; did you "
     "mean gpu?"},
    {"--backend fpga topswops play 1", "--backend: 'fpga' is not one of auto, cpu, gpu"},
    {"--backend", "--backend needs a value"},
    {"--status-every x topswops play 1", "--status-every: 'x' is not a positive number"},
    {"--status-every -5 topswops play 1", "--status-every: '-5'"},
    {"--status-every '' topswops play 1", "--status-every"},
    {"--devices banana topswops play 1", "--devices"},
    {"--json=maybe topswops play 1",
     "--json is a flag: 'maybe' is not a value it takes (give --json alone)"},
    {"topswops solve 5 --mpi=x", "--mpi is a flag: 'x' is not a value it takes"},
    {"--threads 2",
     "piles: a command is required (topswops, bulgarian, nim, babylon, results, "
     "selftest, bench, journal, help)"},
    {"help juggle", "unknown command juggle"},
    {"help topswops slove", "unknown command slove; did you mean solve?"},
    {"help topswops play deck", "piles topswops play: has no command deck"},
    {"topswops play 1", "PILES_REQUIRE_GPU: 'yes' is not 0 or 1", "PILES_REQUIRE_GPU=yes"},
    {"topswops play 1", "PILES_REQUIRE_GPU: 'true' is not 0 or 1", "PILES_REQUIRE_GPU=true"},
    {"--version", "PILES_REQUIRE_GPU: '2' is not 0 or 1", "PILES_REQUIRE_GPU=2"},
    {"topswops play 1", "PILES_CPU_PATH: 'bogus' is not a path", "PILES_CPU_PATH=bogus"},
    // topswops: the group and play.
    {"topswops",
     "piles topswops: a command is required (play, grow, solve, estimate, tail, merge)"},
    {"topswops estimat 13 --bound 80", "unknown command estimat; did you mean estimate?"},
    {"topswops slove 10 --threads 1", "unknown command slove; did you mean solve?"},
    {"topswops play", "piles topswops play: DECK is required"},
    {"topswops play ''", "empty"},
    {"topswops play 1,1", "1,1"},
    {"topswops play 0", "0"},
    {"topswops play 2,3", "2,3"},
    {"topswops play a,b", "deck: 'a' is not an integer"},
    {"topswops play 1,,2", "empty entry"},
    {"topswops play 1, --json", "empty entry"},
    {"topswops play 1 --bound 3", "unknown option --bound"},
    {"topswops play 1 --backend gpu", "--backend gpu: topswops play has no GPU engine"},
    {"topswops play 1 --devices 0", "--devices: topswops play has no GPU engine"},
    // topswops solve.
    {"topswops solve", "piles topswops solve: N is required"},
    {"topswops solve 0", "N: '0' is out of range (1..24)"},
    {"topswops solve 25", "N: '25' is out of range (1..24)"},
    {"topswops solve ten", "N: 'ten' is not an integer"},
    {"topswops solve 5.5", "N: '5.5' is not an integer"},
    {"topswops solve ''", "N: empty value"},
    {"topswops solve 5 6", "piles topswops solve: unexpected argument '6'"},
    {"topswops solve 5 --final sortd",
     "--final: 'sortd' is not one of any, sorted; did you mean "
     "sorted?"},
    {"topswops solve 5 --final", "--final needs a value"},
    {"topswops solve 5 --engine lockstp", "did you mean lockstep?"},
    {"topswops solve 5 --engine simd", "--engine: 'simd' is not one of dfs, lockstep, backward"},
    {"topswops solve 5 --engine backward", "add --final sorted"},
    {"topswops solve 5 --prune home", "--prune: only the backward engine"},
    {"topswops solve 5 --final sorted --prune hom", "--prune: 'hom' is not one of"},
    {"topswops solve 5 --gpu-kernel dfs --backend cpu", "--gpu-kernel dfs: this run is on CPU"},
    {"topswops solve 5 --gpu-kernel lean --backend cpu", "--gpu-kernel lean: this run is on CPU"},
    {"topswops solve 5 --engine lockstep --gpu-kernel dfs --backend cpu",
     "--gpu-kernel dfs: this run is on CPU"},
    {"topswops solve 5 --gpu-kernel lokstep", "did you mean lockstep?"},
    {"topswops solve 5 --small-slices gpu --backend cpu", "--small-slices gpu: only a GPU run"},
    {"topswops solve 5 --small-slices host --backend cpu", "--small-slices host: only a GPU run"},
    {"topswops solve 5 --small-slices cpu", "--small-slices: 'cpu' is not one of host, gpu"},
    {"topswops solve 5 --bound -1", "--bound: '-1' is out of range"},
    {"topswops solve 5 --bound x", "--bound: 'x' is not an integer"},
    {"topswops solve 5 --bound +-0", "--bound: '+-0' is not an integer"},
    {"topswops solve 5 --bound 1000001", "--bound: '1000001' is out of range"},
    {"topswops solve 5 --quick 5", "--quick: runs from 17 cards on"},
    {"topswops solve 18 --quick 5 --bound 80", "--quick: --bound gives the start already"},
    {"topswops solve 18 --quick 5 --shard 0/2 --checkpoint {dir}/j", "--quick: a shard"},
    {"topswops solve 12 --final sorted --engine backward --quick 5 --backend cpu",
     "--quick: runs from 17 cards on"},
    {"topswops solve 5 --quick -1", "--quick: '-1' is not a positive number of seconds"},
    {"topswops solve 5 --quick abc", "--quick: 'abc'"},
    {"topswops solve 5 --checkpoint ''", "--checkpoint: the file name is empty"},
    {"topswops solve 5 --checkpoint", "--checkpoint needs a value"},
    {"topswops solve 5 --checkpoint /nonexistent/x.jnl", "/nonexistent/x.jnl"},
    {"topswops solve 5 --checkpoint /dev/zero", "not a regular file"},
    {"topswops solve 5 --checkpoint {dir}", "not a regular file"},
    {"topswops solve 5 --time-limit 5", "--time-limit: needs --checkpoint"},
    // From 17 cards a run opens with a quick search: the options are checked before it.
    {"topswops solve 18 --time-limit 10", "--time-limit: needs --checkpoint"},
    {"topswops solve 5 --time-limit 0 --checkpoint {dir}/j", "--time-limit: '0'"},
    {"topswops solve 5 --time-limit x --checkpoint {dir}/j", "--time-limit: 'x'"},
    {"topswops solve 5 --shard 0/2", "--shard: needs --checkpoint"},
    {"topswops solve 5 --shard 2/2 --checkpoint {dir}/j", "--shard"},
    {"topswops solve 5 --shard x --checkpoint {dir}/j", "--shard"},
    {"topswops solve 5 --shard 0/0 --checkpoint {dir}/j", "--shard"},
    {"topswops solve 5 --slice 0", "--slice: '0' is not a positive number of seconds"},
    {"topswops solve 5 --slice -1", "--slice: '-1'"},
    {"topswops solve 5 --slice abc", "--slice: 'abc'"},
    {"topswops solve 5 --tail ''", "--tail: the file name is empty"},
    {"topswops solve 5 --tail {dir}/absent", "{dir}/absent"},
    {"topswops solve 5 --probes 3", "unknown option --probes"},
    {"topswops solve 5 --checkpiont j", "unknown option --checkpiont; did you mean --checkpoint?"},
    {"topswops solve 5 --devices 0 --backend cpu", "--devices: the CPU backend has no devices"},
    {"topswops solve 5 --devices 0,0", "--devices"},
    {"topswops solve 5 --devices ''", "--devices"},
    // topswops estimate.
    {"topswops estimate", "piles topswops estimate: N is required"},
    {"topswops estimate 0", "N: '0' is out of range"},
    {"topswops estimate 25", "N: '25' is out of range"},
    {"topswops estimate 10 --probes 0", "--probes: '0' is out of range"},
    {"topswops estimate 10 --probes x", "--probes: 'x' is not an integer"},
    {"topswops estimate 10 --final x", "--final: 'x' is not one of any, sorted"},
    {"topswops estimate 10 --bound x", "--bound: 'x' is not an integer"},
    {"topswops estimate 10 --engine bfs", "--engine: 'bfs' is not one of dfs, backward"},
    {"topswops estimate 10 --engine backward",
     "--engine backward: it searches back from the sorted deck, so only games ending sorted (add "
     "--final sorted)"},
    {"topswops estimate 10 --backend gpu", "--backend gpu: topswops estimate has no GPU engine"},
    {"topswops estimate 10 --checkpoint j", "unknown option --checkpoint"},
    // topswops tail.
    {"topswops tail 12", "topswops tail: needs --checkpoint FILE"},
    {"topswops tail 2 --checkpoint {dir}/t", "N: '2' is out of range (3..24)"},
    {"topswops tail x --checkpoint {dir}/t", "N: 'x' is not an integer"},
    {"topswops tail 9 --from 0 --checkpoint {dir}/t", "--from: '0' is out of range"},
    {"topswops tail 9 --checkpoint ''", "--checkpoint: the file name is empty"},
    {"topswops tail 9 --backend gpu --checkpoint {dir}/t",
     "--backend gpu: topswops tail runs on CPU threads only"},
    {"topswops tail 9 --final sorted", "unknown option --final"},
    {"topswops tail", "piles topswops tail: N is required"},
    // topswops merge.
    {"topswops merge", "piles topswops merge: FILE is required"},
    {"topswops merge ''", "FILE: the file name is empty"},
    {"topswops merge {dir}/absent.jnl", "{dir}/absent.jnl"},
    {"topswops merge /dev/zero", "not a regular file"},
    {"topswops merge {dir}/a --backend gpu", "--backend gpu: topswops merge has no GPU engine"},
    // bulgarian: the group and trace.
    {"bulgarian", "piles bulgarian: a command is required"},
    {"bulgarain analyze 10", "unknown command bulgarain; did you mean bulgarian?"},
    {"bulgarian anlyze 10 --chunks 4", "unknown command anlyze; did you mean analyze?"},
    {"bulgarian trace", "piles bulgarian trace: PARTITION is required"},
    {"bulgarian trace ''", "empty"},
    {"bulgarian trace a", "a"},
    {"bulgarian trace 1,,2", "empty entry"},
    {"bulgarian trace 3,0", "'0' is out of range"},
    {"bulgarian trace 2000000000", "'2000000000' is out of range (1..1000000000)"},
    {"bulgarian trace 3,2 --bank 3", "--bank: '3' is for --variant austrian:L only"},
    {"bulgarian trace 3,2 --variant bogus", "--variant: 'bogus' is not one of plain, carolina"},
    {"bulgarian trace 3,2 --variant carolin", "did you mean carolina?"},
    {"bulgarian trace 3,2 --variant multiplayer:0", "--variant multiplayer: '0' is out of range"},
    {"bulgarian trace 3,2 --variant austrian:x", "'x' is not an integer"},
    {"bulgarian trace 3,2 --backend gpu", "--backend gpu: bulgarian trace has no GPU engine"},
    {"bulgarian trace 3,2 --devices 0", "--devices: bulgarian trace has no GPU engine"},
    {"bulgarian trace 3,2 --chunks 4", "unknown option --chunks"},
    // bulgarian analyze.
    {"bulgarian analyze", "piles bulgarian analyze: N is required"},
    {"bulgarian analyze 0", "n: '0' is out of range"},
    {"bulgarian analyze x", "n: 'x' is not an integer"},
    {"bulgarian analyze 5..3", "n: empty range '5..3'"},
    {"bulgarian analyze 1..", "n: empty value"},
    {"bulgarian analyze 10 --engine forwrd",
     "--engine: 'forwrd' is not one of auto, forward, "
     "backward, generic; did you mean forward?"},
    {"bulgarian analyze 10 --chunks 0", "--chunks: '0' is out of range (1..65536)"},
    {"bulgarian analyze 10 --chunks 65537", "--chunks: '65537' is out of range (1..65536)"},
    {"bulgarian analyze 10 --chunks x", "--chunks: 'x' is not an integer"},
    {"bulgarian analyze 10 --engine forward --chunks 4",
     "--engine forward: --chunks and --walk-kernel are the backward engine's"},
    {"bulgarian analyze 10 --engine generic --walk-kernel lanes",
     "--engine generic: --chunks and --walk-kernel are the backward engine's"},
    {"bulgarian analyze 10 --walk-kernel lane",
     "--walk-kernel: 'lane' is not one of rounds, "
     "lanes, lanes-leaves; did you mean lanes?"},
    {"bulgarian analyze 10 --walk-kernel lanes --backend cpu",
     "--walk-kernel lanes: this run walks on CPU threads"},
    {"bulgarian analyze 10 --variant carolina --engine forward",
     "--engine forward: --variant carolina runs the generic engine"},
    {"bulgarian analyze 10 --engine forward --checkpoint {dir}/j",
     "--engine forward: --checkpoint, --shard, --time-limit and --mpi"},
    {"bulgarian analyze 10 --checkpoint ''", "--checkpoint: the file name is empty"},
    {"bulgarian analyze 10 --time-limit 3", "--time-limit: needs --checkpoint"},
    {"bulgarian analyze 10 --slice x", "--slice: 'x'"},
    {"bulgarian analyze 10 --shard 1/0 --checkpoint {dir}/j", "--shard"},
    {"bulgarian analyze 34 --variant carolina", "'34' is out of range (1..33)"},
    // bulgarian merge and graph.
    {"bulgarian merge", "piles bulgarian merge: FILE is required"},
    {"bulgarian merge ''", "FILE: the file name is empty"},
    {"bulgarian merge {dir}/absent", "{dir}/absent"},
    {"bulgarian merge {dir}/a --backend gpu", "--backend gpu: bulgarian merge has no GPU engine"},
    {"bulgarian graph", "piles bulgarian graph: N is required"},
    {"bulgarian graph 0", "n: '0' is out of range"},
    {"bulgarian graph 30", "n = 30: 5604 partitions are too many to draw"},
    {"bulgarian graph x", "n: 'x' is not an integer"},
    {"bulgarian graph 5 --format sgv",
     "--format: 'sgv' is not one of dot, svg, png; did you "
     "mean svg?"},
    {"bulgarian graph 5 --format jpeg", "--format: 'jpeg' is not one of dot, svg, png"},
    {"bulgarian graph 5 -o ''", "the file name is empty"},
    {"bulgarian graph 5 -o /nonexistent/x.dot", "/nonexistent/x.dot"},
    {"bulgarian graph 5 --backend gpu", "--backend gpu: bulgarian graph has no GPU engine"},
    // bulgarian random.
    {"bulgarian random 10", "piles bulgarian random: --p is required"},
    {"bulgarian random 10 --p 0", "--p: '0' is not a probability in (0, 1]"},
    {"bulgarian random 10 --p 1.5", "--p: '1.5' is not a probability"},
    {"bulgarian random 10 --p x", "--p: 'x' is not a probability"},
    {"bulgarian random 10 --p 0.5 --runs 0", "--runs: '0' is out of range"},
    {"bulgarian random 10 --p 0.5 --steps -1", "--steps: '-1' is out of range"},
    {"bulgarian random 10 --p 0.5 --seed x", "--seed: 'x' is not an integer"},
    {"bulgarian random 10 --p 0.5 --start 5,4", "--start: '5,4' has 9 cards, not n = 10"},
    {"bulgarian random 10 --p 0.5 --plot ''", "--plot: the file name is empty"},
    {"bulgarian random 10 --p 0.5 --plot /nonexistent/x.svg", "/nonexistent/x.svg"},
    {"bulgarian random 0 --p 0.5", "n: '0' is out of range"},
    // nim.
    {"nim", "piles nim: a command is required (grundy, count)"},
    {"nim grundy --upto 10", "piles nim grundy: --k is required"},
    {"nim grundy --k 3", "piles nim grundy: --upto is required"},
    {"nim grundy --k 1 --upto 10", "--k: '1' is out of range (at least 2)"},
    {"nim grundy --k x --upto 10", "--k: 'x' is not an integer"},
    {"nim grundy --k 3 --upto 0", "--upto: '0' is out of range"},
    {"nim grundy --k 3 --upto x", "--upto: 'x' is not an integer"},
    {"nim grundy --k 3 --upto 10000000000", "--upto: '10000000000' is out of range"},
    {"nim grundy --k 3 --upto 10 --bfile ''", "--bfile: the file name is empty"},
    {"nim grundy --k 3 --upto 10 --bfile /nonexistent/b.txt", "/nonexistent/b.txt"},
    {"nim grundy --k 3 --upto 10 --backend gpu", "--backend gpu: nim has no GPU engine"},
    {"nim grundy --k 3 --upto 10 --devices 0", "--devices: nim has no GPU engine"},
    {"nim count", "piles nim count: N is required"},
    {"nim count 0", "N: '0' is out of range"},
    {"nim count x", "N: 'x' is not an integer"},
    {"nim count 10 --k 1", "--k: '1' is out of range"},
    {"nim count 10 --mod 0", "--mod: '0' is out of range"},
    {"nim count 10 --mod x", "--mod: 'x' is not an integer"},
    {"nim count 10 --engine dirct",
     "--engine: 'dirct' is not one of shortcut, direct; did you "
     "mean direct?"},
    {"nim count 41 --engine direct", "N: '41' is out of range (1..40)"},
    {"nim count 10 --backend gpu", "--backend gpu: nim has no GPU engine"},
    {"nim cuont 10", "unknown command cuont; did you mean count?"},
    // babylon.
    {"babylon", "piles babylon: a command is required"},
    {"babylon solve", "piles babylon solve: COUNTS is required"},
    {"babylon solve ''", "empty"},
    {"babylon solve x", "x"},
    {"babylon solve 1,,2", "empty entry"},
    {"babylon solve 3 3 --backend gpu", "--backend gpu: babylon has no GPU engine"},
    {"babylon solve 3 3 --devices 0", "--devices: babylon has no GPU engine"},
    {"babylon table", "piles babylon table: --max-chips is required"},
    {"babylon table --max-chips x", "--max-chips: 'x' is not an integer"},
    {"babylon table --max-chips 1", "--max-chips: '1' is out of range"},
    {"babylon table --colours 1 --max-chips 5", "--colors: '1' is out of range"},
    {"babylon table --colors x --max-chips 5", "--colors: 'x' is not an integer"},
    {"babylon table --max-chips 6 --checkpoint ''", "--checkpoint: the file name is empty"},
    {"babylon table --max-chips 6 --time-limit 5", "--time-limit: needs --checkpoint"},
    {"babylon table --max-chips 6 --backend gpu", "--backend gpu: babylon has no GPU engine"},
    {"babylon table --max-chps 6", "unknown option --max-chps; did you mean --max-chips?"},
    {"babylon merge", "piles babylon merge: FILE is required"},
    {"babylon merge ''", "FILE: the file name is empty"},
    {"babylon merge {dir}/absent", "{dir}/absent"},
    {"babylon play", "piles babylon play: COUNTS is required"},
    {"babylon play 2 2 --side frist",
     "--side: 'frist' is not one of first, second; did you mean "
     "first?"},
    {"babylon play 2 2 --side", "--side needs a value"},
    {"babylon play 2 2 --backend gpu", "--backend gpu: babylon has no GPU engine"},
    // results, selftest, bench.
    {"results --preset quik", "--preset: 'quik' is not one of quick, full; did you mean quick?"},
    {"results -o ''", "the file name is empty"},
    {"results extra", "piles results: unexpected argument 'extra'"},
    {"selftest extra", "piles selftest: unexpected argument 'extra'"},
    {"selftest --frobnicate", "unknown option --frobnicate (see piles selftest --help)"},
    {"bench --backend bth",
     "--backend: 'bth' is not one of auto, cpu, gpu, both; did you mean "
     "both?"},
    {"bench --json /nonexistent/x.json", "/nonexistent/x.json"},
    // journal.
    {"journal", "journal"},
    {"journal repiar f", "unknown command repiar; did you mean repair?"},
    {"journal repair", "FILE is required"},
    {"journal repair /nonexistent/f.jnl", "/nonexistent/f.jnl"},
    {"journal repair ''", "empty"},
    {"journal show", "FILE is required"},
    {"journal show /nonexistent/f.jnl", "/nonexistent/f.jnl"},
    {"journal show {dir}", "{dir}"},
};

}  // namespace

TEST(CliSweep, EveryBadInputIsOneLineAndExitTwo) {
  EXPECT_GE(everywhere.size(), 150u);
  expect_usage_errors(everywhere);
}

// Where no GPU answers, asking for one is refused by every command that has a GPU engine, as
// by the others.
TEST(CliSweep, AGpuAskedForWhereNoneAnswersIsRefused) {
  if (piles::gpu_unavailable_reason().empty()) GTEST_SKIP() << "a GPU answers here";
  const std::string why = piles::cuda_build() ? "no CUDA device answered" : "no GPU support";
  expect_usage_errors({
      {"topswops solve 5 --backend gpu", why},
      {"topswops solve 5 --backend gpu --gpu-kernel dfs", why},
      {"topswops solve 5 --backend gpu --engine lockstep", why},
      {"bulgarian analyze 10 --backend gpu", why},
      {"bulgarian random 10 --p 0.5 --backend gpu", why},
      {"selftest --backend gpu", why},
      {"bench --backend gpu", why},
      {"--backend gpu results --out {dir}/r", why},
      {"topswops solve 5 --devices 0", "--devices: device 0 does not exist"},
  });
}

// Where a GPU answers, the CPU engines' options are refused on a run that goes to it.
TEST(CliSweep, TheCpuModelOfTheGpuIsRefusedOnTheGpu) {
  if (!piles::gpu_unavailable_reason().empty()) GTEST_SKIP() << "no GPU answers here";
  expect_usage_errors({
      {"topswops solve 5 --backend gpu --engine lockstep",
       "--engine lockstep: the GPU's search "
       "on CPU threads"},
  });
}

// GNU style: the bare program says how it is used, on stderr, with exit status 2; asked for,
// the help goes to stdout with status 0.
TEST(CliConventions, BarePilesPrintsTheUsageAndExitsTwo) {
  const auto bare = run_piles("");
  EXPECT_EQ(bare.status, 2);
  EXPECT_TRUE(bare.out.empty()) << bare.out;
  EXPECT_EQ(bare.err, run_piles("--help").out);
  EXPECT_NE(bare.err.find("Usage: piles [OPTIONS] [SUBCOMMAND]"), std::string::npos) << bare.err;
}

TEST(CliConventions, HelpCommandPrintsTheHelpOfTheCommandNamed) {
  for (const std::string command : {"", "topswops", "topswops solve", "bulgarian analyze",
                                    "nim count", "babylon play", "results", "help"}) {
    const auto help = run_piles("help " + command);
    const auto flag = run_piles(command + " --help");
    EXPECT_EQ(help.status, 0) << command << ": " << help.err;
    EXPECT_EQ(flag.status, 0) << command;
    EXPECT_TRUE(help.err.empty()) << help.err;
    EXPECT_EQ(help.out, flag.out) << command;
    EXPECT_NE(help.out.find("Usage: piles " + command), std::string::npos) << help.out;
  }
}

TEST(CliConventions, DashCapitalVIsVersion) {
  const auto v = run_piles("-V");
  EXPECT_EQ(v.status, 0) << v.err;
  EXPECT_EQ(v.out, run_piles("--version").out);
  EXPECT_NE(v.out.find(std::string("piles ") + piles::version), std::string::npos) << v.out;
}

// The version block as one JSON object, the same facts as the text, the flags in either order.
TEST(CliConventions, VersionWithJsonIsOneJsonObject) {
  for (const char* args : {"--version --json", "--json --version", "-V --json"}) {
    const auto r = run_piles(args);
    ASSERT_EQ(r.status, 0) << args << ": " << r.err;
    ASSERT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
    const auto j = r.json();
    EXPECT_EQ(j.at("version"), piles::version);
    EXPECT_EQ(j.at("commit"), piles::commit);
    EXPECT_EQ(j.at("build_type"), piles::build_type);
    EXPECT_EQ(j.at("cuda_build"), piles::cuda_build());
    const std::string device = piles::gpu_description();
    if (device.empty()) {
      EXPECT_TRUE(j.at("gpu").is_null()) << j;
      EXPECT_EQ(j.at("gpu_unavailable"), piles::gpu_unavailable_reason());
    } else {
      EXPECT_EQ(j.at("gpu"), device);
      EXPECT_EQ(j.at("gpu_devices").size(), piles::gpu_descriptions().size());
    }
  }
}

// Every command's help shows how it is called, with a line that runs as it stands.
TEST(CliConventions, EveryHelpHasAnExample) {
  const std::vector<std::string> commands = {"",
                                             "topswops",
                                             "topswops play",
                                             "topswops solve",
                                             "topswops estimate",
                                             "topswops tail",
                                             "topswops merge",
                                             "bulgarian",
                                             "bulgarian trace",
                                             "bulgarian analyze",
                                             "bulgarian merge",
                                             "bulgarian graph",
                                             "bulgarian random",
                                             "nim",
                                             "nim grundy",
                                             "nim count",
                                             "babylon",
                                             "babylon solve",
                                             "babylon table",
                                             "babylon merge",
                                             "babylon play",
                                             "results",
                                             "selftest",
                                             "bench",
                                             "journal",
                                             "journal repair",
                                             "journal show",
                                             "help"};
  for (const std::string& command : commands) {
    const auto r = run_piles(command + " --help");
    ASSERT_EQ(r.status, 0) << command;
    const std::string head = command.empty() ? "Examples:\n  piles " : "Example:\n  piles ";
    const auto at = r.out.find(head);
    ASSERT_NE(at, std::string::npos) << command << ":\n" << r.out;
    // The example calls this command (a group's, one of its own).
    EXPECT_EQ(r.out.compare(at + head.size(), command.size(), command), 0) << r.out;
  }
}

// PILES_REQUIRE_GPU is 0 or 1, and 0 is as if it were unset.
TEST(CliConventions, RequireGpuZeroIsOff) {
  for (const char* env : {"PILES_REQUIRE_GPU=0", "PILES_REQUIRE_GPU="}) {
    const auto r = run_piles("topswops play 3,1,2 --quiet", "", env);
    EXPECT_EQ(r.status, 0) << env << ": " << r.err;
  }
}
