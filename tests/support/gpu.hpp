#pragma once

#include <gtest/gtest.h>

#include "host/common/backend.hpp"

// For the start of a GPU test (or its SetUp): where no CUDA device answers, the test is skipped,
// or, under PILES_REQUIRE_GPU=1, fails; either way with CUDA's reason.
#define PILES_NEED_GPU()                                                                 \
  do {                                                                                   \
    const std::string piles_gpu_reason = ::piles::gpu_unavailable_reason();              \
    if (!piles_gpu_reason.empty()) {                                                     \
      if (::piles::require_gpu()) FAIL() << "PILES_REQUIRE_GPU=1: " << piles_gpu_reason; \
      GTEST_SKIP() << "no CUDA device: " << piles_gpu_reason;                            \
    }                                                                                    \
  } while (0)
