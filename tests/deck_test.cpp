#include <gtest/gtest.h>

#include <array>

#include "core/deck.hpp"

TEST(Deck, FlipReversesTopCards) {
  std::array<std::uint8_t, 5> cards = {3, 1, 4, 5, 2};
  piles::deck::flip(cards.data(), 3);
  EXPECT_EQ(cards, (std::array<std::uint8_t, 5>{4, 1, 3, 5, 2}));
  piles::deck::flip(cards.data(), 1);
  EXPECT_EQ(cards, (std::array<std::uint8_t, 5>{4, 1, 3, 5, 2}));
  piles::deck::flip(cards.data(), 5);
  EXPECT_EQ(cards, (std::array<std::uint8_t, 5>{2, 5, 3, 1, 4}));
}

TEST(Deck, SortedMeansIdentity) {
  const std::array<std::uint8_t, 4> sorted = {1, 2, 3, 4}, other = {1, 3, 2, 4};
  EXPECT_TRUE(piles::deck::is_sorted(sorted.data(), 4));
  EXPECT_FALSE(piles::deck::is_sorted(other.data(), 4));
}
