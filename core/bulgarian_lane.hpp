#pragma once

#include <cstdint>

#include "core/bulgarian.hpp"

// The backward walk of core/bulgarian.hpp cut into units of work, for a warp whose 32 lanes
// each walk their own subtree of the predecessor forest. A thread that runs walk_forest to the
// end of its subtree keeps about one lane in twelve busy (lane use 0.084 on an H100 at n = 90):
// the warp waits for its largest subtree. Here a lane's walk is a state machine whose step is
// one unit (one descent to a predecessor with its visit, or one ascent by a forward move); each
// pass the warp runs the unit most of its lanes want, and a lane whose walk is done takes
// another at once: first from a busy lane of its own warp (can_split, rest_of below), else from the
// device's pool of walks, which busy warps feed while it runs low. The GPU kernel and the
// host's twin run this code; the partitions it visits are those of walk_forest.
namespace piles::bulgarian::lanes {

// The unit a lane takes at its next pass; `idle`: its walk is done and it wants another.
enum Unit : std::int32_t { descend, ascend, idle };
inline constexpr int unit_kinds = 2;  // descend, ascend: the units that do work

struct Lane {
  ForestWalker w;  // w.next: the candidate group to try at w.node
  std::int32_t unit = idle;
};

// The unit after the lane came to w.node with candidate w.next to try: down while there is a
// candidate, up until the walk's base, then another walk.
PILES_HD inline void plan(Lane& a) {
  const ForestNode& x = a.w.node;
  a.unit = x.is_candidate(a.w.next) ? descend : x.depth == a.w.base ? idle : ascend;
}

// Starts a lane on a walk: a fresh one visits its root first (a visit, not a unit: the host's
// top hands out roots not yet visited).
template <class Visit>
PILES_HD void load(Lane& a, const ForestWalker& w, Visit& visit) {
  a.w = w;
  if (a.w.fresh) {
    visit(a.w.node.depth, a.w.node.is_leaf());
    a.w.fresh = 0;
  }
  plan(a);
}

// One unit, the one a.unit names (descend or ascend); returns the depth of the deepest partition
// it visited (-1: none, an ascent). LeavesInPlace: a child that is a leaf (child_is_leaf), or a
// twig with its leaf (child_is_twig), is visited from its parent, as walk_forest<true> does on
// the CPU, in one descent unit where stepping down to it and back took two units (four for a
// twig and its leaf); the lane stays on the parent, with the candidate after it to try.
template <bool LeavesInPlace = false, class Visit>
PILES_HD int step(Lane& a, Visit& visit) {
  ForestNode& x = a.w.node;
  int visited = -1;
  if (a.unit == descend) {
    bool leaf = true;
    if (LeavesInPlace && x.child_is_leaf(a.w.next)) {
      visited = x.depth + 1;
      ++a.w.next;
    } else if (LeavesInPlace && x.child_is_twig(a.w.next)) {
      visit(x.depth + 1, false);
      visited = x.depth + 2;
      ++a.w.next;
    } else {
      x.descend(a.w.next);
      visited = x.depth;
      leaf = x.is_leaf();
      a.w.next = x.head;
    }
    visit(visited, leaf);  // once, where the ways meet: a warp whose lanes part issues it once
  } else {
    a.w.next = x.ascend() + 1;
  }
  plan(a);
  return visited;
}

// A partition at `depth` from the walk a lane had when it visited that depth (step's return):
// its node, or where step visited a leaf or a twig's leaf in place below it, that partition,
// made from the candidate before w.next (a twig's one candidate is its head).
PILES_HD inline ForestNode node_at_depth(const ForestWalker& w, int depth) {
  ForestNode x = w.node;
  if (depth > x.depth) x.descend(w.next - 1);
  if (depth > x.depth) x.descend(x.head);
  return x;
}

// The unit a warp runs in a pass: descents when at least as many lanes want one as want an
// ascent, else ascents. The other lanes wait, so the warp issues one unit's code per pass for
// at least half of its busy lanes, and lanes that wait pile up in the same unit.
PILES_HD constexpr int voted_unit(int descents, int ascents) {
  return descents >= ascents ? descend : ascend;
}

// A lane can give work away when it stands below its walk's base with a child still to try:
// the walk then holds two disjoint parts, the rest of the subtree below w.node and everything
// after it (the untried siblings along the path up to the base).
PILES_HD inline bool can_split(const Lane& a) {
  return a.unit == descend && a.w.node.depth > a.w.base;
}

// The part of a splittable walk w that comes after the subtree below its node: the same node
// with nothing left to try there, so it first climbs. It needs no stack and no climb to make.
PILES_HD inline ForestWalker rest_of(const ForestWalker& w) {
  ForestWalker rest = w;
  rest.next = rest.node.tail;
  rest.fresh = 0;
  return rest;
}

// The giver's side of a split: it keeps the subtree below its node, which becomes its base.
// With rest_of, every partition of the walk is in exactly one part, and the two parts take
// the units the walk would have: the climb moves from one lane to the other.
PILES_HD inline void keep_below(Lane& a) {
  a.w.base = a.w.node.depth;
}

// The taker's side: lanes of a warp hand a walk over by shuffles of the giver's own walk, and
// the taker makes the rest of it here.
PILES_HD inline void take_rest(Lane& a, const ForestWalker& giver) {
  a.w = rest_of(giver);
  plan(a);
}

// The device's pool of walks starts with the host's queue. A warp whose lanes are all busy
// splits walks into it while it holds fewer than pool_low_water(lanes) walks, at most one a
// lane and pass, so that a warp whose own lanes cannot split (too few walks left in it) finds
// work at once; warps give each other nothing directly.
PILES_HD constexpr std::uint64_t pool_low_water(std::uint64_t lanes) {
  return lanes / 8;
}

}  // namespace piles::bulgarian::lanes
