// Several devices of one node sharing a job (--devices): the list is checked with one line, the
// worker pool hands every item out once, a faster device takes more, and a run on stand-in
// devices (CPU engines, no GPU needed) gives the one-worker run's answer, journal and resume;
// a device that fails ends the run with one line naming it and its chunk, losing nothing.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "host/bulgarian/range_job.hpp"
#include "host/common/backend.hpp"
#include "host/common/error.hpp"
#include "host/common/slices.hpp"
#include "host/job/driver.hpp"
#include "host/topswops/report.hpp"
#include "host/topswops/solve.hpp"
#include "tests/support/run_piles.hpp"
#include "tests/support/temp_dir.hpp"

namespace {

using piles::RunTarget;
using piles::job::Chunk;

std::string usage_error(const std::string& text, int count) {
  try {
    piles::parse_devices(text, count);
  } catch (const piles::UsageError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(Devices, AllIsEveryDeviceAndAListKeepsItsOrder) {
  EXPECT_EQ(piles::parse_devices("all", 3), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(piles::parse_devices("all", 0), std::vector<int>{});
  EXPECT_EQ(piles::parse_devices("2,0", 3), (std::vector<int>{2, 0}));
  EXPECT_EQ(piles::parse_devices("1", 2), std::vector<int>{1});
}

TEST(Devices, BadListsAreOneLineUsageErrors) {
  EXPECT_EQ(usage_error("9", 2),
            "--devices: device 9 does not exist (this machine has 2 devices: 0..1)");
  EXPECT_EQ(usage_error("banana", 2),
            "--devices: 'banana' is not all or a list of device numbers such as 0,2");
  EXPECT_EQ(usage_error("", 2), "--devices: the list is empty");
  EXPECT_EQ(usage_error("0,1,0", 2), "--devices: device 0 is listed twice");
  for (const char* bad : {",", "0,", ",1", "0,,1", "-1", "0 1", "1.0", "99999999999"})
    EXPECT_NE(usage_error(bad, 2).find("is not all or a list"), std::string::npos) << bad;
}

TEST(Devices, CpuAfterTheDevicesAddsTheCpuWorker) {
  const auto list = piles::parse_device_list("1,cpu", 2);
  EXPECT_EQ(list.devices, std::vector<int>{1});
  EXPECT_TRUE(list.cpu);
  EXPECT_FALSE(piles::parse_device_list("all", 2).cpu);
  EXPECT_EQ(piles::parse_device_list("all,cpu", 3).devices, (std::vector<int>{0, 1, 2}));
  const auto error = [](const char* text) {
    try {
      piles::parse_device_list(text, 2);
    } catch (const piles::UsageError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(error("cpu"),
            "--devices: cpu alone is the CPU backend (--backend cpu); name devices beside it, such "
            "as all,cpu");
  EXPECT_EQ(error("0,cpu,cpu"), "--devices: cpu is listed twice");
  EXPECT_EQ(error("cpu,cpu"), "--devices: cpu is listed twice");
  EXPECT_EQ(error("cpu,0"), "--devices: cpu goes last, after the devices (such as 0,1,cpu)");
  EXPECT_EQ(error("3,cpu"),
            "--devices: device 3 does not exist (this machine has 2 devices: 0..1)");
}

TEST(Devices, TheCommandLineRefusesBadListsWithExitTwo) {
  for (const char* bad : {"banana", "''", "1,1", "9", "cpu", "cpu,0"}) {
    const auto r =
        piles::testing::run_piles(std::string(" --devices ") + bad + " topswops solve 8 --quiet");
    EXPECT_TRUE(piles::testing::is_usage_error(r, "--devices")) << bad;
  }
  const auto cpu = piles::testing::run_piles(" --backend cpu --devices 0 topswops solve 8");
  EXPECT_TRUE(piles::testing::is_usage_error(cpu, "--devices"));
}

TEST(SlicesOnWorkers, EveryItemRunsOnceAndTheFasterWorkerTakesMore) {
  std::vector<std::uint64_t> items(200);
  for (std::size_t i = 0; i < items.size(); ++i) items[i] = i;
  std::vector<piles::SliceSizer> sizers;
  for (int w = 0; w < 2; ++w) sizers.emplace_back(0.01, 1, 1);
  std::mutex mutex;
  std::multiset<std::uint64_t> seen;
  std::map<int, int> taken;
  const bool finished = piles::run_in_slices_on(
      items, [](std::uint64_t) { return std::uint64_t{1}; }, sizers,
      [&](int w, const std::vector<std::uint64_t>& batch) {
        // Worker 1 is five times as slow an item.
        std::this_thread::sleep_for(std::chrono::microseconds(w == 0 ? 200 : 1000) *
                                    static_cast<int>(batch.size()));
        const std::lock_guard lock(mutex);
        seen.insert(batch.begin(), batch.end());
        taken[w] += static_cast<int>(batch.size());
      });
  EXPECT_TRUE(finished);
  EXPECT_EQ(seen, std::multiset<std::uint64_t>(items.begin(), items.end()));
  EXPECT_GT(taken[0], 2 * taken[1]);
  EXPECT_GT(taken[1], 0);
}

TEST(SlicesOnWorkers, AFailureEndsTheRunAndIsRethrown) {
  std::vector<std::uint64_t> items(100);
  for (std::size_t i = 0; i < items.size(); ++i) items[i] = i;
  std::vector<piles::SliceSizer> sizers;
  for (int w = 0; w < 3; ++w) sizers.emplace_back(1e9, 1, 1);
  std::atomic<int> after = 0;
  std::atomic<bool> failed = false;
  EXPECT_THROW(piles::run_in_slices_on(
                   items, [](std::uint64_t) { return std::uint64_t{1}; }, sizers,
                   [&](int w, const std::vector<std::uint64_t>&) {
                     if (failed) ++after;
                     if (w == 1) {
                       failed = true;
                       throw std::runtime_error("worker 1 broke");
                     }
                     std::this_thread::sleep_for(std::chrono::milliseconds(2));
                   }),
               std::runtime_error);
  // The others finish what they hold, at most one batch each, and take no more.
  EXPECT_LE(after, 2);
}

TEST(SlicesOnWorkers, AStopEndsEveryWorker) {
  std::vector<std::uint64_t> items(1000, 0);
  std::vector<piles::SliceSizer> sizers;
  for (int w = 0; w < 2; ++w) sizers.emplace_back(1e9, 1, 1);
  std::atomic<int> runs = 0;
  EXPECT_FALSE(piles::run_in_slices_on(
      items, [](std::uint64_t) { return std::uint64_t{1}; }, sizers,
      [&](int, const std::vector<std::uint64_t>&) { ++runs; }, [&] { return runs >= 4; }));
  EXPECT_GE(runs, 4);
  EXPECT_LE(runs, 5);
}

// Three stand-in devices: CPU targets whose device list the driver shares the chunks over.
RunTarget stand_ins(int count) {
  RunTarget target;
  target.threads = 1;
  for (int d = 0; d < count; ++d) target.devices.push_back(d);
  return target;
}

piles::topswops::Solution solve(int n, const RunTarget& target, const std::string& journal) {
  piles::topswops::SolveOptions options;
  options.n = n;
  options.run.quiet = true;
  options.run.checkpoint = journal;
  options.run.slice_seconds = 0.01;
  return piles::topswops::solve(options, target);
}

// A journal's chunk records ("CHUNK {...} CHECKSUM") without their seconds, by chunk.
std::map<Chunk, nlohmann::json> chunk_records(const std::string& journal) {
  std::map<Chunk, nlohmann::json> out;
  std::ifstream in(journal);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string first;
    words >> first;
    if (first.empty() || !std::isdigit(static_cast<unsigned char>(first[0]))) continue;
    std::string rest;
    std::getline(words, rest);
    // The record, then its checksum.
    nlohmann::json j = nlohmann::json::parse(rest.substr(0, rest.rfind(' ')));
    j.erase("seconds");
    out[std::stoull(first)] = j;
  }
  return out;
}

TEST(StandInDevices, ThreeDevicesGiveTheOneWorkerAnswerAndJournal) {
  piles::testing::TempDir dir;
  const auto one = solve(11, stand_ins(1), dir.file("one.journal"));
  const auto three = solve(11, stand_ins(3), dir.file("three.journal"));
  EXPECT_EQ(three.result.best, 51);  // f(11), OEIS A000375
  EXPECT_EQ(three.result.best, one.result.best);
  EXPECT_EQ(three.result.count, one.result.count);
  EXPECT_EQ(three.result.nodes, one.result.nodes);
  ASSERT_EQ(three.devices.size(), 3u);
  std::uint64_t chunks = 0;
  for (const auto& d : three.devices) chunks += d.chunks;
  EXPECT_EQ(chunks, static_cast<std::uint64_t>(three.run.chunks));
  EXPECT_TRUE(one.devices.empty());
  EXPECT_EQ(piles::topswops::to_json(three).at("device_shares").size(), 3u);
  EXPECT_NE(piles::topswops::to_text(three, false).find("\n  device 2 "), std::string::npos);
  EXPECT_FALSE(piles::topswops::to_json(one).contains("device_shares"));
  const auto records = chunk_records(dir.file("three.journal"));
  EXPECT_EQ(records.size(), static_cast<std::size_t>(three.run.chunks));
  EXPECT_EQ(records, chunk_records(dir.file("one.journal")));
}

// Two stand-in devices and the CPU worker (--devices 0,1,cpu): the same answer and journal as one
// worker, the chunks shared among all three, the CPU's share named "cpu".
TEST(StandInDevices, TheCpuWorkerSharesTheChunksBesideTheDevices) {
  piles::testing::TempDir dir;
  RunTarget target = stand_ins(2);
  target.threads = 3;
  target.cpu_worker = true;
  EXPECT_EQ(target.on_cpu_worker().threads, 1);
  EXPECT_TRUE(target.on_cpu_worker().devices.empty());
  const auto one = solve(11, stand_ins(1), dir.file("one.journal"));
  const auto three = solve(11, target, dir.file("three.journal"));
  EXPECT_EQ(three.result.best, 51);  // f(11), OEIS A000375
  EXPECT_EQ(three.result.count, one.result.count);
  EXPECT_EQ(three.result.nodes, one.result.nodes);
  ASSERT_EQ(three.devices.size(), 3u);
  EXPECT_EQ(three.devices.back().device, piles::job::DeviceShare::cpu);
  std::uint64_t chunks = 0;
  for (const auto& d : three.devices) chunks += d.chunks;
  EXPECT_EQ(chunks, static_cast<std::uint64_t>(three.run.chunks));
  EXPECT_EQ(piles::topswops::to_json(three).at("device_shares").at(2).at("device"), "cpu");
  EXPECT_NE(piles::topswops::to_text(three, false).find("\n  cpu            "), std::string::npos)
      << piles::topswops::to_text(three, false);
  EXPECT_EQ(chunk_records(dir.file("three.journal")), chunk_records(dir.file("one.journal")));
}

// The Bulgarian walk's chunks on a stand-in device and the CPU worker: the analyses and the
// journal of one worker.
TEST(StandInDevices, ABulgarianRangeOnADeviceAndTheCpuWorkerGivesTheOneWorkerAnswer) {
  piles::testing::TempDir dir;
  const auto analyses = [&](const RunTarget& target, const std::string& journal) {
    piles::bulgarian::RangeRun run;
    run.range = {40, 44};
    run.chunks_per_n = 8;
    run.run.quiet = true;
    run.run.checkpoint = journal;
    run.run.slice_seconds = 0.001;
    std::vector<piles::bulgarian::Analysis> out;
    const auto outcome = piles::bulgarian::analyze_range(
        run, target, [&](const piles::bulgarian::Analysis& a) { out.push_back(a); });
    return std::pair{out, outcome};
  };
  RunTarget both = stand_ins(1);
  both.threads = 2;
  both.cpu_worker = true;
  const auto [one, alone] = analyses(stand_ins(1), dir.file("one.journal"));
  const auto [two, shared] = analyses(both, dir.file("two.journal"));
  ASSERT_EQ(one.size(), 5u);
  ASSERT_EQ(two.size(), 5u);
  for (std::size_t i = 0; i < one.size(); ++i)
    EXPECT_TRUE(two[i].same_structure(one[i])) << "n = " << two[i].n;
  ASSERT_EQ(shared.devices.size(), 2u);
  EXPECT_EQ(shared.devices[0].chunks + shared.devices[1].chunks, 5u * 8);
  EXPECT_EQ(chunk_records(dir.file("two.journal")), chunk_records(dir.file("one.journal")));
  EXPECT_EQ(alone.records.size(), 5u * 8);
}

TEST(StandInDevices, AJournalCutShortResumesOnThreeDevices) {
  piles::testing::TempDir dir;
  const std::string journal = dir.file("cut.journal");
  const auto whole = solve(11, stand_ins(1), journal);
  std::ifstream in(journal);
  std::string kept, line;
  for (int i = 0; i < 2 + whole.run.chunks / 2 && std::getline(in, line); ++i) kept += line + "\n";
  in.close();
  std::ofstream(journal, std::ios::trunc) << kept;
  const auto resumed = solve(11, stand_ins(3), journal);
  EXPECT_EQ(resumed.run.chunks_resumed, whole.run.chunks / 2);
  EXPECT_EQ(resumed.result.best, whole.result.best);
  EXPECT_EQ(resumed.result.count, whole.result.count);
  EXPECT_EQ(resumed.result.nodes, whole.result.nodes);
}

// A job of 60 chunks whose payload is the chunk's square; while `fail` holds, device 1 fails at
// the first chunk from 30 on that it is given, and says which in `failed_at`.
piles::job::Job squares(const std::atomic<bool>& fail, std::atomic<long>& failed_at) {
  piles::job::Job job;
  job.identity = {{"game", "devices test"}};
  job.chunk_count = 60;
  job.rounds = {{}};
  for (Chunk c = 0; c < job.chunk_count; ++c) job.rounds[0].push_back(c);
  job.weight = [](Chunk) { return std::uint64_t{1}; };
  job.slice_floor = [](const RunTarget&) { return std::uint64_t{1}; };
  job.check = [](Chunk, const nlohmann::json&, const std::string&) {};
  job.label = "devices test";
  job.unit = "chunks";
  job.run = [&fail, &failed_at](const std::vector<Chunk>& chunks, int, const RunTarget& on,
                                const piles::job::ChunkDone& done, const piles::UnitsDone&,
                                const piles::Cancel&) {
    for (Chunk c : chunks) {
      if (fail && on.device_index == 1 && c >= 30) {
        failed_at = static_cast<long>(c);
        throw std::runtime_error("out of memory\nmore");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      done(c, {{"square", c * c}}, 0.001);
    }
  };
  return job;
}

TEST(StandInDevices, AFailingDeviceEndsTheRunWithOneLineAndLosesNothing) {
  piles::testing::TempDir dir;
  std::atomic<bool> fail = true;
  std::atomic<long> failed_at = -1;
  const piles::job::Job job = squares(fail, failed_at);
  piles::job::Options options;
  options.quiet = true;
  options.checkpoint = dir.file("squares.journal");
  options.slice_seconds = 0.002;
  std::string message;
  try {
    piles::job::run(job, options, stand_ins(3));
  } catch (const std::runtime_error& e) {
    message = e.what();
  }
  ASSERT_GE(failed_at, 30);
  EXPECT_EQ(message.rfind(fmt::format("device 1, chunk {}: out of memory", failed_at.load()), 0),
            0u)
      << message;
  const auto journaled = chunk_records(options.checkpoint);
  EXPECT_FALSE(journaled.contains(failed_at));
  EXPECT_GE(journaled.size(), 20u);
  for (const auto& [chunk, record] : journaled) EXPECT_EQ(record.at("square"), chunk * chunk);
  // The same run without the fault resumes from every chunk the journal kept.
  fail = false;
  const auto out = piles::job::run(job, options, stand_ins(3));
  EXPECT_EQ(out.status.chunks_resumed, static_cast<int>(journaled.size()));
  ASSERT_EQ(out.records.size(), 60u);
  for (const auto& [chunk, record] : out.records)
    EXPECT_EQ(record.payload.at("square"), chunk * chunk);
}

}  // namespace
