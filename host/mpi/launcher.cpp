#include "host/mpi/launcher.hpp"

#include <charconv>
#include <cstdlib>
#include <string_view>

namespace piles::mpi {

std::optional<Launch> launched_with_others() {
  // Open MPI's mpirun, PMI launchers (MPICH's hydra, srun --mpi=pmi2), MVAPICH, and srun itself
  // (a job step's task count; a batch script is no step).
  for (const char* name :
       {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MV2_COMM_WORLD_SIZE", "SLURM_STEP_NUM_TASKS"}) {
    const char* value = std::getenv(name);
    if (!value) continue;
    const std::string_view text(value);
    int size = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), size);
    if (error == std::errc() && end == text.data() + text.size() && size > 1)
      return Launch{size, std::string(name) + "=" + value};
  }
  return std::nullopt;
}

}  // namespace piles::mpi
