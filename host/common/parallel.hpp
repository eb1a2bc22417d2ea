#pragma once

#include <exception>
#include <mutex>

namespace piles {

// Calls body(i) for every i in [0, n) on `threads` OpenMP threads, each taking one index at a
// time. An exception may not leave an OpenMP region (the program would abort), so the first one
// is kept, indices not yet started are skipped, and it is rethrown once every thread is done.
template <class Body>
void parallel_for_each(int n, int threads, const Body& body) {
  std::mutex mutex;
  std::exception_ptr failure;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (int i = 0; i < n; ++i) {
    {
      const std::lock_guard lock(mutex);
      if (failure) continue;
    }
    try {
      body(i);
    } catch (...) {
      const std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace piles
