#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace piles::testing {

struct CliResult {
  int status = -1;
  std::string out, err;
  nlohmann::json json() const { return nlohmann::json::parse(out); }
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Runs the real `piles` binary with `args` (shell words), feeding `input` on stdin; returns
// its exit status and what it printed on each stream.
inline CliResult run_piles(const std::string& args, const std::string& input = "") {
  char dir_template[] = "/tmp/piles_cli_XXXXXX";
  const std::string dir = mkdtemp(dir_template);
  const std::string in = dir + "/in", out = dir + "/out", err = dir + "/err";
  std::ofstream(in, std::ios::binary) << input;
  const std::string command =
      std::string(PILES_BINARY) + " " + args + " <" + in + " >" + out + " 2>" + err;
  const int raw = std::system(command.c_str());
  CliResult r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  r.out = slurp(out);
  r.err = slurp(err);
  std::system(("rm -rf " + dir).c_str());
  return r;
}

}  // namespace piles::testing
