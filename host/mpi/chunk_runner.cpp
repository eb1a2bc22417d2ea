#include "host/mpi/chunk_runner.hpp"

#include "host/common/error.hpp"

#include <omp.h>

#include <algorithm>
#ifdef PILES_HAVE_CUDA
#include "kernels/device.hpp"
#endif

#ifdef PILES_HAVE_MPI
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#endif

namespace piles::mpi {

bool available() {
#ifdef PILES_HAVE_MPI
  return true;
#else
  return false;
#endif
}

RunTarget resolve_rank_backend(const Session& session, const CommonOptions& options) {
#ifdef PILES_HAVE_CUDA
  gpu::use_device(session.local_rank());
#endif
  CommonOptions per_rank = options;
  if (per_rank.threads == 0)
    per_rank.threads = std::max(1, omp_get_num_procs() / session.local_size());
  return resolve_backend(per_rank);
}

#ifndef PILES_HAVE_MPI

Session::Session() {
  throw UsageError("--mpi: this build of piles has no MPI support");
}
Session::~Session() = default;
void run_chunks(const Session&, const ChunkWork&) {}
std::string broadcast(const Session&, const std::string& from_root) {
  return from_root;
}

#else

namespace {

constexpr int tag_work = 1, tag_result = 2, tag_stop = 3;

void check(int status, const char* what) {
  if (status != MPI_SUCCESS) throw std::runtime_error(std::string("MPI failure in ") + what);
}

// A result message: the chunk id, then the partial's bytes.
std::string pack(std::uint64_t chunk, const std::string& partial) {
  std::string message(sizeof chunk, '\0');
  std::memcpy(message.data(), &chunk, sizeof chunk);
  return message + partial;
}

void worker(const ChunkWork& work) {
  while (true) {
    std::uint64_t chunk = 0;
    MPI_Status status;
    check(MPI_Recv(&chunk, 1, MPI_UINT64_T, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status), "recv");
    if (status.MPI_TAG == tag_stop) return;
    std::string message;
    try {
      message = pack(chunk, work.compute(chunk));
    } catch (const std::exception& e) {
      // Rank 0 would wait forever for this chunk: stop the whole job.
      std::fprintf(stderr, "piles: error: chunk %llu: %s\n", static_cast<unsigned long long>(chunk),
                   e.what());
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    check(MPI_Send(message.data(), static_cast<int>(message.size()), MPI_CHAR, 0, tag_result,
                   MPI_COMM_WORLD),
          "send");
  }
}

// Rank 0 hands chunks to the workers and computes chunks itself on a second thread, so no
// rank sits idle; only the main thread calls MPI. It polls rather than blocks so that its
// waiting does not take a core from the computing threads.
void dispatcher(const Session& session, const ChunkWork& work) {
  std::mutex mutex;  // guards next and every call of collect
  std::size_t next = 0;
  auto take = [&]() -> std::optional<std::uint64_t> {
    std::lock_guard lock(mutex);
    if (next == work.todo.size()) return std::nullopt;
    return work.todo[next++];
  };
  std::exception_ptr local_failure;
  std::thread local([&] {
    try {
      while (const auto chunk = take()) {
        const std::string partial = work.compute(*chunk);
        std::lock_guard lock(mutex);
        work.collect(*chunk, partial);
      }
    } catch (...) {
      local_failure = std::current_exception();
    }
  });
  int busy = 0;
  auto hand_out = [&](int to) {
    if (const auto chunk = take()) {
      check(MPI_Send(&*chunk, 1, MPI_UINT64_T, to, tag_work, MPI_COMM_WORLD), "send");
      ++busy;
    } else {
      const std::uint64_t none = 0;
      check(MPI_Send(&none, 1, MPI_UINT64_T, to, tag_stop, MPI_COMM_WORLD), "send");
    }
  };
  for (int r = 1; r < session.size(); ++r) hand_out(r);
  while (busy > 0) {
    MPI_Status status;
    int ready = 0;
    check(MPI_Iprobe(MPI_ANY_SOURCE, tag_result, MPI_COMM_WORLD, &ready, &status), "probe");
    if (!ready) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    int bytes = 0;
    MPI_Get_count(&status, MPI_CHAR, &bytes);
    std::string message(bytes, '\0');
    check(MPI_Recv(message.data(), bytes, MPI_CHAR, status.MPI_SOURCE, tag_result, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE),
          "recv");
    --busy;
    std::uint64_t chunk = 0;
    std::memcpy(&chunk, message.data(), sizeof chunk);
    {
      std::lock_guard lock(mutex);
      work.collect(chunk, message.substr(sizeof chunk));
    }
    hand_out(status.MPI_SOURCE);
  }
  local.join();
  if (local_failure) std::rethrow_exception(local_failure);
}

}  // namespace

Session::Session() {
  int provided = 0;
  // Ranks run OpenMP threads inside, but only the main thread calls MPI.
  check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "init");
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local_rank_);
  MPI_Comm_size(node, &local_size_);
  MPI_Comm_free(&node);
}

Session::~Session() {
  MPI_Finalize();
}

void run_chunks(const Session& session, const ChunkWork& work) {
  if (session.root())
    dispatcher(session, work);
  else
    worker(work);
}

std::string broadcast(const Session&, const std::string& from_root) {
  std::uint64_t size = from_root.size();
  check(MPI_Bcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD), "bcast");
  std::string out = from_root;
  out.resize(size);
  check(MPI_Bcast(out.data(), static_cast<int>(size), MPI_CHAR, 0, MPI_COMM_WORLD), "bcast");
  return out;
}

#endif

}  // namespace piles::mpi
