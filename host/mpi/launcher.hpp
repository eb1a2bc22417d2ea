#pragma once

#include <optional>
#include <string>

namespace piles::mpi {

// A process that an MPI launcher (mpirun, mpiexec, srun) started as one of several, read from
// the variables the launchers set, so that it can be told before any MPI call is made.
struct Launch {
  int size = 1;          // processes started together
  std::string variable;  // the variable that says so, e.g. "OMPI_COMM_WORLD_SIZE=4"
};

// The launch this process belongs to, when it is one of two or more processes.
std::optional<Launch> launched_with_others();

}  // namespace piles::mpi
