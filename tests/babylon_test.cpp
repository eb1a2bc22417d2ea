#include <gtest/gtest.h>

#include <initializer_list>
#include <set>
#include <tuple>
#include <vector>

#include "core/babylon.hpp"

namespace {

using piles::babylon::Bits;
using piles::babylon::Bits256;
using piles::babylon::decode;
using piles::babylon::encode;
using piles::babylon::Move;
using piles::babylon::Position;

// One list of stack heights per colour.
Position make(std::initializer_list<std::initializer_list<int>> colours) {
  Position p;
  for (const auto& heights : colours) {
    for (int h : heights) p.colour[p.colours].add(h);
    ++p.colours;
  }
  return p;
}

Bits key(const Position& p) {
  const auto e = encode<Bits>(p);
  EXPECT_EQ(e.known, -1);
  return e.key;
}

int known(const Position& p) {
  return encode<Bits>(p).known;
}

// The heights of each colour, sorted, as a sorted list: what a position is up to relabelling.
std::multiset<std::multiset<int>> shape(const Position& p) {
  std::multiset<std::multiset<int>> s;
  for (int c = 0; c < p.colours; ++c) {
    std::multiset<int> heights;
    int r = 0;
    for (Bits rest = p.colour[c].present; rest; rest &= rest - 1, ++r)
      for (int i = 0; i < p.colour[c].count[r]; ++i)
        heights.insert(piles::babylon::lowest_bit(rest));
    if (!heights.empty()) s.insert(heights);
  }
  return s;
}

}  // namespace

TEST(BabylonState, KeyIgnoresColourNamesAndStackOrder) {
  EXPECT_EQ(key(make({{1, 2, 1}, {3}, {1, 1}})), key(make({{1, 1}, {1, 1, 2}, {3}})));
}

TEST(BabylonState, KeySeparatesDifferentStates) {
  // Same multiset of heights, different colours on top: different games.
  EXPECT_NE(key(make({{2, 1}, {1, 1}})), key(make({{2}, {1, 1, 1}})));
  EXPECT_NE(key(make({{2, 1}, {1, 1}})), key(make({{2, 1, 1}, {1}})));
  EXPECT_NE(key(make({{3, 1}, {2, 2}})), key(make({{3, 2}, {1, 2}})));
}

TEST(BabylonState, ColoursWithoutStacksVanish) {
  EXPECT_EQ(key(make({{2, 1}, {}, {1, 1}})), key(make({{1, 1}, {1, 2}})));
}

TEST(BabylonState, DecodeInvertsEncode) {
  for (const Position& p : {make({{1, 1, 1}, {1, 1}}), make({{5, 3, 3, 1}, {2, 2}, {4, 1}}),
                            make({{7}, {4, 2, 1}}), make({{1, 1, 1, 1, 1, 1, 1, 1}, {9, 9}})}) {
    const Bits k = key(p);
    const Position back = decode(k);
    EXPECT_EQ(shape(back), shape(p));
    EXPECT_EQ(key(back), k);
  }
}

TEST(BabylonState, WideKeysAgreeWithNarrowOnes) {
  const Position p = make({{5, 3, 3, 1}, {2, 2}, {4, 1}, {6, 1, 1}});
  const auto wide = encode<Bits256>(p);
  ASSERT_EQ(wide.known, -1);
  EXPECT_EQ(wide.key, Bits256(key(p)));
  EXPECT_EQ(shape(decode(wide.key)), shape(p));
}

TEST(BabylonState, WideKeysHoldLargeStarts) {
  // 60 + 50 chips: 2 * 110 + 2 = 222 bits, far beyond 128.
  Position p;
  p.colours = 2;
  for (int i = 0; i < 60; ++i) p.colour[0].add(1);
  for (int i = 0; i < 50; ++i) p.colour[1].add(1);
  const auto e = encode<Bits256>(p);
  ASSERT_EQ(e.known, -1);
  EXPECT_EQ(piles::babylon::start_key_bits(110, 2), 222);
  EXPECT_EQ(shape(decode(e.key)), shape(p));
}

TEST(BabylonState, DeadStacksAreDropped) {
  // The lone 3 can never be matched by stacks of 2 (sums 2, 4), so only the blue game is left:
  // two stacks, one move, the mover wins.
  EXPECT_EQ(known(make({{3}, {2, 2}})), 1);
  // A lone 3 beside 2 and 1 can still be covered (2 + 1 = 3): no shortcut.
  EXPECT_EQ(encode<Bits>(make({{3}, {2, 1}})).known, -1);
  // Dropping the dead 5 leaves the same game as never having had it.
  EXPECT_EQ(key(make({{5}, {2, 1}, {1}})), key(make({{2, 1}, {1}})));
}

TEST(BabylonState, OneColourLeftIsDecidedByParity) {
  EXPECT_EQ(known(make({{1, 1, 1}})), 0);  // two moves left: the mover loses
  EXPECT_EQ(known(make({{1, 1, 1, 1}})), 1);
  EXPECT_EQ(known(make({{4}, {}})), 0);  // no move at all
}

TEST(BabylonState, MovesComeOncePerDistinctResult) {
  std::vector<std::tuple<int, int, int, int>> moves;
  const Position start = make({{1, 1, 1}, {1, 1}});
  piles::babylon::for_each_move(start, [&](const Move& m) {
    moves.emplace_back(m.top_colour, m.top_height, m.bottom_colour, m.bottom_height);
  });
  // A on A, B on B, A on B, B on A.
  EXPECT_EQ(moves.size(), 4u);

  int same_colour = 0;
  piles::babylon::for_each_move(make({{2, 1}, {3}}), [&](const Move& m) {
    if (m.top_colour == m.bottom_colour) ++same_colour;
  });
  EXPECT_EQ(same_colour, 1);  // 2 on 1 and 1 on 2 are one move
}

TEST(BabylonState, UndoRestoresThePosition) {
  Position p = make({{3, 1, 1}, {1, 2}});
  const Bits before = key(p);
  piles::babylon::for_each_move(Position(p), [&](const Move& m) {
    piles::babylon::apply(p, m);
    piles::babylon::undo(p, m);
    EXPECT_EQ(key(p), before);
  });
}
