#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/temp_dir.hpp"

namespace piles::testing {

struct CliResult {
  int status = -1;
  std::string out, err;
  nlohmann::json json() const { return nlohmann::json::parse(out); }
};

// The binary under test: $PILES_BINARY where set (a GPU bundle's tests run from wherever the
// bundle was copied to), else the one this build made.
inline std::string piles_binary() {
  const char* path = std::getenv("PILES_BINARY");
  return path && *path ? path : PILES_BINARY;
}

// Runs the real `piles` binary with `args` (shell words), feeding `input` on stdin, with the
// `env` assignments (shell words, e.g. "PILES_REQUIRE_GPU=1") in its environment; returns its
// exit status and what it printed on each stream.
inline CliResult run_piles(const std::string& args, const std::string& input = "",
                           const std::string& env = "") {
  char dir_template[] = "/tmp/piles_cli_XXXXXX";
  const std::string dir = mkdtemp(dir_template);
  const std::string in = dir + "/in", out = dir + "/out", err = dir + "/err";
  std::ofstream(in, std::ios::binary) << input;
  const std::string command =
      env + " " + piles_binary() + " " + args + " <" + in + " >" + out + " 2>" + err;
  const int raw = std::system(command.c_str());
  CliResult r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  r.out = slurp(out);
  r.err = slurp(err);
  std::system(("rm -rf " + dir).c_str());
  return r;
}

// A JSON answer without the fields that say where and by what it was made
// (host/common/provenance.hpp): two runs that agree differ only there.
inline nlohmann::json without_provenance(nlohmann::json j) {
  for (const char* key : {"version", "commit", "host", "backend", "threads", "ranks", "devices"})
    j.erase(key);
  return j;
}

// The contract for bad input: exit status 2, nothing on stdout, and one line on stderr that
// starts "piles: error: " and names the bad value.
inline ::testing::AssertionResult is_usage_error(const CliResult& r, const std::string& names) {
  if (r.status != 2) return ::testing::AssertionFailure() << "status " << r.status << ": " << r.err;
  if (!r.out.empty()) return ::testing::AssertionFailure() << "stdout: " << r.out;
  if (r.err.rfind("piles: error: ", 0) != 0 || std::count(r.err.begin(), r.err.end(), '\n') != 1)
    return ::testing::AssertionFailure() << "not one error line: " << r.err;
  if (r.err.find(names) == std::string::npos)
    return ::testing::AssertionFailure() << "does not name '" << names << "': " << r.err;
  return ::testing::AssertionSuccess();
}

}  // namespace piles::testing
