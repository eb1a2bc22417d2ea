#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "host/common/backend.hpp"
#include "host/common/slices.hpp"

namespace piles::mpi {

// The MPI environment of one `--mpi` run: initialised on construction, finalised on
// destruction. Throws UsageError in a build without MPI.
class Session {
 public:
  Session();
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  int local_rank() const { return local_rank_; }  // rank among the processes on this node
  int local_size() const { return local_size_; }  // processes on this node
  bool root() const { return rank_ == 0; }

 private:
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
};

// The backend of one rank: its node-local GPU (rank r on a node takes device r modulo the
// devices there), or CPU threads sharing the node's cores with the other ranks on it unless
// --threads says otherwise.
RunTarget resolve_rank_backend(const Session& session, const CommonOptions& options);

// A run split into numbered chunks whose partial results travel as strings. Every rank builds
// the same problem first; rank 0 then grants chunk ids to whichever rank asks (itself included,
// on a second thread) and collects the partials, one at a time, as they come back. A rank asks
// for min_grant chunks at first, enough to fill its engine (a GPU rank wants about a million
// prefixes in flight, not one chunk), then for about slice_seconds of work at the rate it has
// measured, so that a killed job loses little.
struct ChunkWork {
  std::vector<std::uint64_t> todo;  // read on rank 0 only
  // Run on every rank: the partials of one grant's chunks, in the order given.
  std::function<std::vector<std::string>(const std::vector<std::uint64_t>& chunks)> compute;
  std::function<void(std::uint64_t chunk, const std::string&)> collect;  // run on rank 0
  std::uint64_t min_grant = 1;
  double slice_seconds = default_slice_seconds;
};

void run_chunks(const Session& session, const ChunkWork& work);

// Ranks other than 0 learn rank 0's decision (for example the final answer) this way.
std::string broadcast(const Session& session, const std::string& from_root);

}  // namespace piles::mpi
