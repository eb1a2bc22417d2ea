#pragma once

#include <cstdint>

#include "core/bulgarian.hpp"

// The backward walk of core/bulgarian.hpp cut into units of work, for a warp whose 32 lanes
// each walk their own subtree of the predecessor forest. A thread that runs walk_forest to the
// end of its subtree keeps about one lane in twelve busy (lane use 0.084 on an H100 at n = 90):
// the warp waits for its largest subtree. Here a lane's walk is a state machine whose step is
// one unit (one descent to a predecessor with its visit, or one ascent by a forward move); each
// pass the warp runs the unit most of its lanes want, and a lane whose subtree is done takes
// the next one from a shared queue at once. The GPU kernel and the host's twin run this code;
// the partitions it visits are those of walk_forest, in the same order.
namespace piles::bulgarian::lanes {

// The unit a lane takes at its next pass. `idle`: its subtree is done and it wants another;
// `done`: the queue is empty.
enum Unit : std::int32_t { descend, ascend, idle, done };
inline constexpr int unit_kinds = 2;  // descend, ascend: the units that do work

struct Lane {
  ForestWalker w;  // w.next: the candidate group to try at w.node
  std::int32_t unit = idle;
};

// The unit after the lane came to w.node with candidate w.next to try: down while there is a
// candidate, up until the subtree's root, then another subtree.
PILES_HD inline void plan(Lane& a) {
  const ForestNode& x = a.w.node;
  a.unit = x.is_candidate(a.w.next) ? descend : x.depth == a.w.base ? idle : ascend;
}

// Starts a lane on a walk from the queue: a fresh one visits its root first (a visit, not a
// unit: the host's top and a split hand out roots not yet visited).
template <class Visit>
PILES_HD void load(Lane& a, const ForestWalker& w, Visit& visit) {
  a.w = w;
  if (a.w.fresh) {
    visit(a.w.node.depth, a.w.node.is_leaf());
    a.w.fresh = 0;
  }
  plan(a);
}

// One unit, the one a.unit names (descend or ascend).
template <class Visit>
PILES_HD void step(Lane& a, Visit& visit) {
  ForestNode& x = a.w.node;
  if (a.unit == descend) {
    x.descend(a.w.next);
    visit(x.depth, x.is_leaf());
    a.w.next = x.head;
  } else {
    a.w.next = x.ascend() + 1;
  }
  plan(a);
}

// The unit a warp runs in a pass: descents when at least as many lanes want one as want an
// ascent, else ascents. The other lanes wait, so the warp issues one unit's code per pass for
// at least half of its busy lanes, and lanes that wait pile up in the same unit.
PILES_HD constexpr int voted_unit(int descents, int ascents) {
  return descents >= ascents ? descend : ascend;
}

// Once the queue is empty, a warp stops as soon as fewer than park_below_busy (all) of its lanes
// are busy, parking its open walks for the host to split into the next launch's queue, provided
// it has run min_passes_before_park passes in the launch (so that every launch moves every walk
// it takes on). On the host twin, parking at 16 busy lanes gave lane use 0.64 at n = 100..120
// and at 32 0.66-0.68 with a third of the serial passes: the long walks' tails, split, fill
// whole warps again.
inline constexpr int park_below_busy = 32;
inline constexpr std::uint64_t min_passes_before_park = 64;

}  // namespace piles::bulgarian::lanes
