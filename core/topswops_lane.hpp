#pragma once

#include <cstdint>

#include "core/topswops.hpp"

// The forward search of core/topswops.hpp cut into units of work, for a warp whose 32 lanes each
// search their own subtree in lockstep. A thread that runs search_below keeps about one lane in
// nine busy: after a choice each lane makes 0 to ~20 flips and the warp waits for the slowest.
// Here a lane's search is a state machine whose step is one unit of work (a choice, a flip, a
// fixed-block check, the landing of a child, a return). Each pass, the warp runs one unit for
// every lane that wants it (pass_unit), so no lane waits for another's loop, and a lane whose
// subtree is done takes the next one at once. The GPU kernel and the host's lockstep engine run
// this same code; the nodes it counts and the games it reports are those of search_below.
namespace piles::topswops {

// The GPU kernels that run these units (kernels/topswops_lockstep.cu), and whose passes the
// host's warp model follows. `lockstep`: each pass the unit most lanes want, by a vote.
// `lean`: the same vote with less issued around it, returns voted with landings and a second
// flip in a flip pass. `staged`: no vote; each pass runs its stages in a fixed order, each for
// the lanes that want it (stacking below). `staged_shared`: staged's passes, its node counts in
// shared memory rather than in the thread's local memory (the same units here).
enum class LockstepKernel { lockstep, lean, staged, staged_shared };

// "lockstep", "lean", "staged" or "staged-shared", as --gpu-kernel names them.
constexpr const char* lockstep_kernel_name(LockstepKernel k) {
  return k == LockstepKernel::staged_shared ? "staged-shared"
         : k == LockstepKernel::staged      ? "staged"
         : k == LockstepKernel::lean        ? "lean"
                                            : "lockstep";
}

// Whether a kernel runs the staged kernel's passes.
constexpr bool runs_staged(LockstepKernel k) {
  return k == LockstepKernel::staged || k == LockstepKernel::staged_shared;
}

}  // namespace piles::topswops

namespace piles::topswops::lockstep {

// The unit a lane takes at its next pass. `idle`: waiting for work; `done`: no work is left.
enum Unit : std::int32_t { choose, flip, block, land, ret, idle, done };
inline constexpr int unit_kinds = 5;  // choose..ret, the units that do work

// Where a lane's subtree starts: a node at level `base` with its choices still to open, the
// cards chosen above it in `start`, the chunk it counts for.
template <int W>
struct Seed {
  Frame<W> f;
  Deck<W> start;
  std::uint32_t chunk;
};

// The seed of a prefix (its choices from the root, as the plan keeps them), replayed.
template <int W>
PILES_HD Seed<W> seed_of(const Problem& p, const std::uint8_t* choices, int depth,
                         std::uint32_t chunk) {
  Seed<W> s;
  s.f = replay<W>(p, choices, depth, s.start);
  s.chunk = chunk;
  return s;
}

// One lane: the node whose choices are tried (f, blank on top), the child being played after
// choice k (play, steps, h), and the search's own target, which rises with the games it finds
// (as in search_below). The frames between the subtree's top and f are kept apart, in a stack
// indexed by level (base..level-1): an array indexed at run time goes to local memory on the
// GPU, and inside this struct it would take every field there with it.
template <int W>
struct Lane {
  Frame<W> f;
  Deck<W> play;
  std::int32_t steps, h, k;
  std::int32_t level, base, target;
  std::int32_t next;
  std::uint32_t chunk;
  Deck<W> start;
};

// A lane stopped by the end of a launch, with its stack, to be taken by a lane of the next one.
// Parked whole, a child half played included, it resumes at the unit it stopped at: every
// launch moves each lane it takes on, however small its budget of passes.
template <int W>
struct Parked {
  Lane<W> lane;
  SavedFrame<W> stack[max_n];
};

template <int W>
PILES_HD void park(Parked<W>& out, const Lane<W>& a, const SavedFrame<W>* stack) {
  out.lane = a;
  for (int l = a.base; l < a.level; ++l) out.stack[l] = stack[l];
}

template <int W>
PILES_HD void unpark(Lane<W>& a, SavedFrame<W>* stack, const Parked<W>& in) {
  a = in.lane;
  for (int l = a.base; l < a.level; ++l) stack[l] = in.stack[l];
}

// The next unit at f as its choices stand: a choice or a return; a return at the subtree's top
// ends the lane's work.
template <int W>
PILES_TOPSWOPS_HOT void next_at_frame(Lane<W>& a) {
  a.next = a.f.todo ? choose : a.level == a.base ? idle : ret;
}
// The same with f's choices pruned at the current target first.
template <int W>
PILES_TOPSWOPS_HOT void after_choice(Lane<W>& a, const Problem& p) {
  prune_choices(a.f, p, a.target);
  next_at_frame(a);
}

// Starts a lane on a seed's subtree, at `target`.
template <int W>
PILES_TOPSWOPS_HOT void load(Lane<W>& a, const Seed<W>& s, int level, int target,
                             const Problem& p) {
  a.f = s.f;
  a.start = s.start;
  a.chunk = s.chunk;
  a.level = a.base = level;
  a.target = target;
  open_choices(a.f);
  after_choice(a, p);
}

// One flip of the deck being played: on the GPU the packed words (byte swaps and shifts:
// flip_words), on the host the machine's fastest flip.
template <int W>
PILES_TOPSWOPS_HOT void flip_play(Deck<W>& d) {
#if defined(__CUDA_ARCH__)
  flip_words(d, d.top());
#else
  Playing<W> playing(d);
  playing.flip_top();
  d = playing.deck();
#endif
}

// The unit after a flip that leaves d's top as it is: land on a blank, else flip (for the lean
// kernel). land = flip + 2: the top's blank bit spread over a word (-1 or 0; on the GPU one
// byte permute in its sign mode), then one three-way add, where a choice between two constants
// takes three instructions.
template <int W>
PILES_TOPSWOPS_HOT std::int32_t land_or_flip(const Deck<W>& d) {
  static_assert(land == flip + 2);
#if defined(__CUDA_ARCH__)
  int blank;
  asm("prmt.b32 %0, %1, 0, 0x8888;" : "=r"(blank) : "r"(static_cast<std::uint32_t>(d.w[0])));
#else
  const int blank = is_blank(d.top()) ? -1 : 0;
#endif
  return flip - blank - blank;
}

// The lean kernel's flips of two-word decks (flip_two_words_by_permutes), by flip length: on
// the GPU a copy in shared memory, read as two 16-byte words a flip.
inline constexpr int flip_lengths = 17;  // k = 0..16, of which 2..16 flip
struct FlipTable {
  FlipSelectors by_k[flip_lengths];
};
PILES_HD constexpr FlipTable flip_table() {
  FlipTable t{};
  for (int k = 2; k < flip_lengths; ++k) t.by_k[k] = flip_selectors(k);
  return t;
}

// The flip unit: one flip of the child being played, and the unit after it. Permutes (the lean
// kernel): a two-word deck flips by the selectors flips[k] gives for its top card k (a
// FlipTable's, or on the GPU its copy in shared memory).
template <bool Permutes, int W, class Flips = const FlipSelectors*>
PILES_TOPSWOPS_HOT void flip_unit(Lane<W>& a, const Flips& flips) {
  const int top = a.play.top();
  if constexpr (Permutes && W == 2)
    flip_two_words_by_permutes(a.play, flips[top]);
  else
    flip_play(a.play);
  ++a.steps;
  if constexpr (Permutes) {
    a.next = top == a.h ? block : land_or_flip(a.play);
  } else {
    a.next = top == a.h ? block : is_blank(a.play.top()) ? land : flip;
  }
}

// The unit a warp runs in a pass: the one most of its lanes want (the later unit on a tie).
// The other lanes wait, so the warp issues one unit's code per pass, for as many lanes as it
// can: lanes that wait pile up in the same units, and the dear ones (the fixed block, a
// landing) run for many lanes at once. A choice is always followed by a flip and costs a few
// instructions, so a lane wanting one votes with the lanes wanting a flip, and takes its choice
// and its first flip in their pass (step falls through): fewer kinds of unit, more lanes a pass.
// Each lane offers vote_key(the lanes voting as it does, its kind) and the largest key wins: on
// the GPU a match, a population count and a reduction.
PILES_HD inline int vote_kind(int next) {
  return next == choose ? flip : next;
}
PILES_HD inline unsigned vote_key(int lanes, int unit) {
  return static_cast<unsigned>(lanes) << 3 | static_cast<unsigned>(unit);
}
PILES_HD inline int voted_unit(unsigned key) {
  return static_cast<int>(key & 7);
}

// The lean kernel votes returns with landings: a return is the cheapest unit and ends as a
// landing does (after_choice), so a pass that serves both serves more lanes for a few more
// instructions, where the two apart each cost a pass (the warp model: 41.05 to 37.97 warp
// instructions a node at n = 13, with stack_unit). Two instructions on the GPU; an idle or done
// lane comes out as a landing, but it never steps for it (pass_takes).
PILES_HD inline int lean_vote_kind(int next) {
  static_assert(choose < flip && flip < block && block < land && land < ret);
  const int kind = next > flip ? next : flip;
  return kind < land ? kind : land;
}

#if defined(__CUDACC__)
// The unit of this pass, for a warp whose every lane calls it; a lane steps when its
// vote_kind is that unit.
__device__ __forceinline__ int pass_unit(std::int32_t next) {
  const int kind = vote_kind(next);
  const unsigned same = __match_any_sync(~0u, kind);
  const unsigned key = kind < idle ? vote_key(__popc(same), kind) : 0u;
  return voted_unit(__reduce_max_sync(~0u, key));
}

// The same vote for the lean kernel, asked only whether this lane steps: the lanes of one kind
// share one key, so a lane steps when its key is the largest, and nothing is decoded. Where no
// lane has work every key is 0 and every lane steps, into step's default: nothing.
__device__ __forceinline__ bool pass_takes(std::int32_t next) {
  const int kind = lean_vote_kind(next);
  const unsigned same = __match_any_sync(~0u, kind);
  // vote_key as one multiply-add: left to itself, ptxas makes a shift and an or of it, two.
  unsigned key;
  asm("mad.lo.u32 %0, %1, 8, %2;" : "=r"(key) : "r"(__popc(same)), "r"(kind));
  key = next < idle ? key : 0u;
  return key == __reduce_max_sync(~0u, key);
}
#endif

// A game the lane's child ends: its start deck from the stack, its final deck, to the sink.
// Rare, so kept out of line, and given the lane's fields by value: a reference would take the
// lane's address, and with it the whole lane to local memory on the GPU.
#if defined(__CUDACC__)
#define PILES_TOPSWOPS_COLD __host__ __device__ __noinline__
#else
#define PILES_TOPSWOPS_COLD __attribute__((noinline))
#endif

template <int W, class Sink>
PILES_TOPSWOPS_COLD void report(Deck<W> start, Frame<W> f, int k, int base, int level,
                                std::uint32_t chunk, const SavedFrame<W>* stack, int n, Deck<W> end,
                                int steps, Sink sink) {
  start = stack_start(start, stack, base, level, f.unused);
  record_choice(start, f, k);
  const Deck<W> final_deck = settle_blanks(end, start, n);
  sink.game(chunk, steps, start, final_deck);
}

// The units of step, one function each (flip_unit above).
template <int W>
PILES_TOPSWOPS_HOT void choose_unit(Lane<W>& a) {
  const int k = bits::trailing_zeros32(a.f.todo);
  a.f.todo &= a.f.todo - 1;
  a.k = k;
  a.play = a.f.deck;
  // Zero-extended: from an int, ptxas extends the sign, an instruction more.
  a.play.w[0] = (a.play.w[0] & ~0xffull) | static_cast<std::uint32_t>(k);
  a.steps = a.f.steps;
  a.h = a.f.h;
  a.next = flip;
}

// Lean: both entries of the bound read and the smaller taken, with no branch (the look's entry
// is the block's own where it does not apply), and the next unit by land_or_flip.
template <bool Sorted, bool Lean = false, int W>
PILES_TOPSWOPS_HOT void block_unit(Lane<W>& a, const Problem& p, const Deck<W>& sorted) {
  // h = n before this flip: no block yet, so it is the choice's first flip when k = n.
  const bool look =
      a.h == p.n && a.k == p.n && static_cast<int>(a.f.deck.w[0] >> 8 & 0xff) != p.n - 1;
  a.h = fixed_block_cover(a.play);
  std::int32_t left = p.bound[a.h];
  if constexpr (Lean) {
    const std::int32_t looked = p.bound[look ? p.n - 1 : a.h];
    left = looked < left ? looked : left;
  } else if (look && p.bound[p.n - 1] < left) {
    left = p.bound[p.n - 1];
  }
  // A pruned choice leaves f as the last after_choice did, pruned at this target (only a
  // landing raises it): pruning it again would change nothing.
  if (a.steps + left < a.target || (Sorted && unsettled(a.play, sorted) > a.h))
    return next_at_frame(a);
  if constexpr (Lean)
    a.next = land_or_flip(a.play);
  else
    a.next = is_blank(a.play.top()) ? land : flip;
}

// The landing and the return each end in after_choice, unless told not to (ThenChoose = false:
// the lean kernel's stack_unit, which runs both in one pass and the choice once for both).
template <bool Sorted, bool ThenChoose = true, int W, class Sink>
PILES_TOPSWOPS_HOT void land_unit(Lane<W>& a, SavedFrame<W>* stack, const Problem& p,
                                  const Deck<W>& sorted, Sink& sink) {
  Frame<W> c;
  c.deck = a.play;
  c.steps = a.steps;
  c.h = a.h;
  c.unused = a.f.unused & ~(1u << a.k);
  const int level = a.level + 1;
  const bool leaf = level == p.n - 1;  // once: the report's call would lose it
  sink.node(a.chunk, level);
  if ((leaf || Sorted) && c.steps >= a.target && (!Sorted || known_in_place(c.deck, sorted))) {
    report(a.start, a.f, a.k, a.base, a.level, a.chunk, stack, p.n, c.deck, c.steps, sink);
    if constexpr (!keeps_target<Sink>) a.target = c.steps;
  }
  if (!leaf) {  // down to the child
    stack[a.level++] = save(a.f);
    a.f = c;
    open_choices(a.f);
  }
  if constexpr (ThenChoose) after_choice(a, p);
}

template <bool ThenChoose = true, int W>
PILES_TOPSWOPS_HOT void ret_unit(Lane<W>& a, SavedFrame<W>* stack, const Problem& p) {
  a.f = restore(stack[--a.level]);
  if constexpr (ThenChoose) after_choice(a, p);
}

// The lean kernel's pass of landings and returns (lean_vote_kind): each lane its own unit, then
// the choice of the next unit, issued once for both.
template <bool Sorted, int W, class Sink>
PILES_TOPSWOPS_HOT void stack_unit(Lane<W>& a, SavedFrame<W>* stack, const Problem& p,
                                   const Deck<W>& sorted, Sink& sink) {
  if (a.next == land)
    land_unit<Sorted, false>(a, stack, p, sorted, sink);
  else
    ret_unit<false>(a, stack, p);
  after_choice(a, p);
}

// The staged kernel's pass, in the order its stages run: up to stack_rounds landings and
// returns (stack_unit), then a choice with its first flip, up to flip_rounds flips in all, then
// the fixed block. A lane goes on from stage to stage in the same pass (a landing into its next
// choice and that choice's flips; a flip that puts card h in place into the block check), and a
// stage no lane wants costs the warp one branch. It spares every pass the vote and the way to
// its unit (35 warp instructions of the lean kernel's pass), and a pass serves about three
// times the units. The fixed block, the dearest unit, runs whenever a lane wants it: holding it
// back until 2 to 8 lanes wait took a ballot, a population count and a vote each pass, more
// than it saved. Two rounds of landings and returns (a lane returning twice, or landing a child
// and then returning) and four flips gave 27.6 warp instructions a node at n = 13 by the warp
// model, one round and three flips 29.3, three flips 28.5, five 28.5 again; the lean kernel
// 36.3.
inline constexpr int stack_rounds = 2;
inline constexpr int flip_rounds = 4;
PILES_HD inline bool stacking(int next) {
  return next == land || next == ret;
}

// Sink: node(chunk, level) for every node made, game(chunk, steps, start, final) for every game
// reaching the lane's target; a small object of pointers, copied into the report. Sorted: the
// problem's final (p.sorted), a template parameter so that a search for any final carries no
// code of the sorted one.
//
// A choice k = h goes to its first flip without Knuth's quick look (play_choice), which cost
// the choice unit 72 of its 80 SASS instructions in every pass that ran it. The block check
// after that flip prunes every such choice the look would, so the same nodes are made: the
// look bounds by the entry for h - s cards (s: k and the run k-1, k-2, ... under it), the block
// check by that for the block's h, which is at most h - s, and the table rises with h up to
// n - 2 cards. The entry for n - 1 (where card n settles alone) may be a tail's cap, below the
// others; the look reaches it only for k = h = n with card n-1 not right under the top, and
// there the block check takes it too.
template <bool Sorted, int W, class Sink>
PILES_TOPSWOPS_HOT void step(Lane<W>& a, SavedFrame<W>* stack, const Problem& p,
                             const Deck<W>& sorted, Sink& sink) {
  switch (a.next) {
    case choose:
      choose_unit(a);
      [[fallthrough]];
    case flip:
      return flip_unit<false>(a, static_cast<const FlipSelectors*>(nullptr));
    case block:
      return block_unit<Sorted>(a, p, sorted);
    case land:
      return land_unit<Sorted>(a, stack, p, sorted, sink);
    case ret:
      return ret_unit(a, stack, p);
    default:
      return;
  }
}

// The same step for the lean kernel, its units told apart by branches, the commoner first,
// where step's switch compiles to a jump table (15 SASS instructions on the way to a unit other
// than the flip), landings and returns in one (stack_unit), and its flips of two-word decks by
// byte permutes (flips: a FlipTable's selectors). An idle or done lane takes none.
template <bool Sorted, int W, class Sink, class Flips>
PILES_TOPSWOPS_HOT void step_by_branches(Lane<W>& a, SavedFrame<W>* stack, const Problem& p,
                                         const Deck<W>& sorted, Sink& sink, const Flips& flips) {
  if (a.next <= flip) {
    if (a.next == choose) choose_unit(a);
    return flip_unit<true>(a, flips);
  }
  if (a.next == land || a.next == ret) return stack_unit<Sorted>(a, stack, p, sorted, sink);
  if (a.next == block) return block_unit<Sorted, true>(a, p, sorted);
}

}  // namespace piles::topswops::lockstep
