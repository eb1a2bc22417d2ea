#include <gtest/gtest.h>

#include "core/babylon_state.hpp"

using piles::babylon::State;

namespace {

State make(std::initializer_list<std::initializer_list<int>> colours) {
  State s;
  for (const auto& heights : colours) {
    int i = 0;
    for (int h : heights) s.height[s.colours][i++] = static_cast<std::uint8_t>(h);
    s.stacks[s.colours++] = static_cast<std::uint8_t>(i);
  }
  piles::babylon::canonicalize(s);
  return s;
}

}  // namespace

TEST(BabylonState, KeyIgnoresColourNamesAndStackOrder) {
  const auto a = piles::babylon::key(make({{1, 2, 1}, {3}, {1, 1}}));
  const auto b = piles::babylon::key(make({{1, 1}, {1, 1, 2}, {3}}));
  EXPECT_EQ(a, b);
}

TEST(BabylonState, KeySeparatesDifferentStates) {
  // Same multiset of heights, different colours on top: different games.
  const auto a = piles::babylon::key(make({{2, 1}, {1}}));
  const auto b = piles::babylon::key(make({{2}, {1, 1}}));
  const auto c = piles::babylon::key(make({{2, 1, 1}}));
  EXPECT_FALSE(a == b);
  EXPECT_FALSE(a == c);
  EXPECT_FALSE(b == c);
}

TEST(BabylonState, ColoursWithoutStacksVanish) {
  const auto a = piles::babylon::key(make({{2}, {}, {1}}));
  const auto b = piles::babylon::key(make({{1}, {2}}));
  EXPECT_EQ(a, b);
}
