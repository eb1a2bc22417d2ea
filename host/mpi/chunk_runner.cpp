#include "host/mpi/chunk_runner.hpp"

#include "host/common/clock.hpp"
#include "host/common/error.hpp"
#include "host/common/provenance.hpp"

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
#include <stdexcept>
#include <thread>
#endif

namespace piles::mpi {

RunTarget resolve_rank_backend(const Session& session, const CommonOptions& options) {
#ifdef PILES_HAVE_CUDA
  gpu::use_device(session.local_rank());
#endif
  if (options.devices != "all")
    throw UsageError(
        "--devices with --mpi: each rank takes one device of its node, by its rank there");
  CommonOptions per_rank = options;
  if (per_rank.threads == 0)
    per_rank.threads = std::max(1, omp_get_num_procs() / session.local_size());
  RunTarget target = resolve_backend(per_rank);
  if (target.backend == Backend::gpu) {
    const int count = static_cast<int>(target.devices.size());
    target = target.on_device(session.local_rank() % count);
    target.device = gpu_description();
  }
  target.ranks = session.size();
  note_target(target);
  return target;
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

constexpr int tag_work = 1, tag_result = 2, tag_stop = 3, tag_ready = 4;

void check(int status, const char* what) {
  if (status != MPI_SUCCESS) throw std::runtime_error(std::string("MPI failure in ") + what);
}

void put_u64(std::string& out, std::uint64_t x) {
  out.append(reinterpret_cast<const char*>(&x), sizeof x);
}

std::uint64_t get_u64(const std::string& in, std::size_t& at) {
  std::uint64_t x = 0;
  if (at + sizeof x > in.size()) throw std::runtime_error("MPI result message cut short");
  std::memcpy(&x, in.data() + at, sizeof x);
  at += sizeof x;
  return x;
}

// A result message: how many chunks the rank wants next, then each chunk's id, the length of
// its partial and the partial's bytes.
std::string pack(std::uint64_t want, const std::vector<std::uint64_t>& chunks,
                 const std::vector<std::string>& partials) {
  std::string message;
  put_u64(message, want);
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    put_u64(message, chunks[i]);
    put_u64(message, partials[i].size());
    message += partials[i];
  }
  return message;
}

// The partials of one grant, its time recorded in the rank's sizer for the next request.
std::vector<std::string> compute_grant(const ChunkWork& work,
                                       const std::vector<std::uint64_t>& chunks,
                                       SliceSizer& sizer) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::string> partials = work.compute(chunks);
  if (partials.size() != chunks.size())
    throw std::logic_error("a grant's computation returned the wrong number of partials");
  sizer.record(chunks.size(), seconds_since(start));
  return partials;
}

void worker(const ChunkWork& work) {
  SliceSizer sizer(work.slice_seconds, work.min_grant, work.min_grant);
  std::string ready;
  put_u64(ready, sizer.next());
  check(MPI_Send(ready.data(), static_cast<int>(ready.size()), MPI_CHAR, 0, tag_ready,
                 MPI_COMM_WORLD),
        "send");
  while (true) {
    MPI_Status status;
    check(MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &status), "probe");
    int count = 0;
    MPI_Get_count(&status, MPI_UINT64_T, &count);
    std::vector<std::uint64_t> chunks(std::max(count, 1));
    check(MPI_Recv(chunks.data(), std::max(count, 1), MPI_UINT64_T, 0, status.MPI_TAG,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE),
          "recv");
    if (status.MPI_TAG == tag_stop) return;
    chunks.resize(count);
    std::string message;
    try {
      message = pack(sizer.next(), chunks, compute_grant(work, chunks, sizer));
    } catch (const std::exception& e) {
      // Rank 0 would wait forever for these chunks: stop the whole job.
      std::fprintf(stderr, "piles: error: chunks from %llu: %s\n",
                   static_cast<unsigned long long>(chunks.front()), e.what());
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    check(MPI_Send(message.data(), static_cast<int>(message.size()), MPI_CHAR, 0, tag_result,
                   MPI_COMM_WORLD),
          "send");
  }
}

// Rank 0 grants chunks to the workers and computes chunks itself on a second thread, so no
// rank sits idle; only the main thread calls MPI. It polls rather than blocks so that its
// waiting does not take a core from the computing threads.
void dispatcher(const Session& session, const ChunkWork& work) {
  std::mutex mutex;  // guards next and every call of collect
  std::size_t next = 0;
  auto take = [&](std::uint64_t want) {
    std::lock_guard lock(mutex);
    const std::size_t count = std::min<std::size_t>(want, work.todo.size() - next);
    std::vector<std::uint64_t> chunks(work.todo.begin() + next, work.todo.begin() + next + count);
    next += count;
    return chunks;
  };
  std::exception_ptr local_failure;
  std::thread local([&] {
    try {
      SliceSizer sizer(work.slice_seconds, work.min_grant, work.min_grant);
      for (auto chunks = take(sizer.next()); !chunks.empty(); chunks = take(sizer.next())) {
        const std::vector<std::string> partials = compute_grant(work, chunks, sizer);
        std::lock_guard lock(mutex);
        for (std::size_t i = 0; i < chunks.size(); ++i) work.collect(chunks[i], partials[i]);
      }
    } catch (...) {
      local_failure = std::current_exception();
    }
  });
  // A rank told to stop may already be asking for the next run's chunks: its messages wait.
  std::vector<bool> stopped(session.size(), false);
  int busy = 0, stops = 0;
  auto grant = [&](int to, std::uint64_t want) {
    const std::vector<std::uint64_t> chunks = take(std::max<std::uint64_t>(want, 1));
    if (!chunks.empty()) {
      check(MPI_Send(chunks.data(), static_cast<int>(chunks.size()), MPI_UINT64_T, to, tag_work,
                     MPI_COMM_WORLD),
            "send");
      ++busy;
    } else {
      const std::uint64_t none = 0;
      check(MPI_Send(&none, 1, MPI_UINT64_T, to, tag_stop, MPI_COMM_WORLD), "send");
      stopped[to] = true;
      ++stops;
    }
  };
  while (busy > 0 || stops < session.size() - 1) {
    MPI_Status status;
    int ready = 0;
    for (int r = 1; r < session.size() && !ready; ++r)
      if (!stopped[r]) check(MPI_Iprobe(r, MPI_ANY_TAG, MPI_COMM_WORLD, &ready, &status), "probe");
    if (!ready) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    int bytes = 0;
    MPI_Get_count(&status, MPI_CHAR, &bytes);
    std::string message(bytes, '\0');
    check(MPI_Recv(message.data(), bytes, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE),
          "recv");
    std::size_t at = 0;
    const std::uint64_t want = get_u64(message, at);
    if (status.MPI_TAG == tag_result) {
      --busy;
      std::lock_guard lock(mutex);
      while (at < message.size()) {
        const std::uint64_t chunk = get_u64(message, at), length = get_u64(message, at);
        if (at + length > message.size()) throw std::runtime_error("MPI result message cut short");
        work.collect(chunk, message.substr(at, length));
        at += length;
      }
    }
    grant(status.MPI_SOURCE, want);
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
  // A rank leaving on an error (rank 0 refusing its journal, say) must not wait in
  // MPI_Finalize for ranks that wait for it: it exits without, and the launcher, seeing a rank
  // end that way, stops the others.
  if (std::uncaught_exceptions() > 0) return;
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
