#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "host/common/backend.hpp"

namespace piles {

// What made a result: this build, this machine and what this process runs on. Every JSON
// answer and every journal carries it, so a number found in a file next year still says where
// it came from.

// Called wherever a command settles its target (resolve_backend, an MPI rank's), so that the
// answers printed afterwards name it; a command that settles none is described as one CPU
// thread.
void note_target(const RunTarget& target);

// {"version", "commit", "host", "backend", "threads", "ranks", "devices"}.
nlohmann::json provenance();

// The machine's host name, or "unknown".
std::string host_name();

// "1 thread", "2 threads", "3 MPI ranks of 2 threads".
std::string threads_and_ranks(int threads, int ranks);

// "cpu, 1 thread", "cpu, 3 MPI ranks of 2 threads": what a text answer says it ran on (the
// device of a GPU target in place of "cpu").
std::string describe_target(const RunTarget& target);

}  // namespace piles
