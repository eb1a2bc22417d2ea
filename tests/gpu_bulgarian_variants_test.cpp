// The generic forward engine on the GPU against its CPU twin, on the plain game and on every
// variant with a finite set of states. Skips where no CUDA device answers.
#include <gtest/gtest.h>

#include "host/bulgarian/analysis.hpp"
#include "host/bulgarian/variant_analysis.hpp"
#include "host/bulgarian/variants.hpp"
#include "tests/support/gpu.hpp"
#include "tests/support/targets.hpp"

namespace piles::bulgarian {
namespace {

using piles::testing::target;

class GpuBulgarianVariants : public ::testing::Test {
 protected:
  void SetUp() override { PILES_NEED_GPU(); }
};

TEST_F(GpuBulgarianVariants, GenericEngineMatchesCpuOnThePlainGame) {
  for (int n : {1, 2, 10, 36, 60, 75}) {
    SCOPED_TRACE(n);
    const Analysis gpu = analyze(n, Engine::generic, target(Backend::gpu));
    EXPECT_TRUE(gpu.same_structure(analyze(n, Engine::generic, target(Backend::cpu))));
    EXPECT_TRUE(gpu.same_structure(analyze(n, Engine::backward, target(Backend::cpu))));
  }
}

TEST_F(GpuBulgarianVariants, VariantsMatchCpu) {
  const std::pair<const char*, std::vector<int>> cases[] = {
      {"carolina", {1, 2, 12, 20, 26}},
      {"multiplayer:1", {1, 20, 50}},
      {"multiplayer:2", {1, 10, 30, 40}},
      {"multiplayer:3", {5, 20, 28}},
      {"austrian:1", {1, 30}},
      {"austrian:3", {1, 10, 40, 80}},
      {"austrian:7", {10, 50, 70}},
  };
  for (const auto& [name, sizes] : cases)
    for (const int n : sizes) {
      SCOPED_TRACE(::testing::Message() << name << ", n = " << n);
      const Variant v = parse_variant(name);
      const Analysis gpu = analyze_variant(n, v, target(Backend::gpu));
      EXPECT_TRUE(gpu.same_structure(analyze_variant(n, v, target(Backend::cpu))));
    }
}

}  // namespace
}  // namespace piles::bulgarian
