#pragma once

#include <string>
#include <vector>

namespace piles {

// Runs a program found on PATH with `args` (args[0] its name) and waits for it; its stdout and
// stderr go to the files named (empty: this process's own). Returns true when it exited with
// status 0; throws std::runtime_error when it cannot be started, saying what to install.
bool run_program(const std::vector<std::string>& args, const std::string& package,
                 const std::string& stdout_file = "", const std::string& stderr_file = "");

}  // namespace piles
