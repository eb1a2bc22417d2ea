#pragma once

#include "host/common/backend.hpp"

namespace piles::testing {

// What the engine tests run on: the backend and its (host) thread count.
inline RunTarget target(Backend backend, int threads = 2) {
  RunTarget t;
  t.backend = backend;
  t.threads = threads;
  return t;
}

inline RunTarget cpu(int threads = 2) {
  return target(Backend::cpu, threads);
}

}  // namespace piles::testing
