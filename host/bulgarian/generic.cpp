#include "host/bulgarian/generic.hpp"

#include "host/bulgarian/forward.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>

namespace piles::bulgarian {
namespace {

// Marks the image of `map` and returns its size.
std::uint64_t mark_image(const std::vector<std::uint32_t>& map, std::vector<std::uint8_t>& marks,
                         int threads) {
  const auto count = static_cast<std::int64_t>(map.size());
  std::fill(marks.begin(), marks.end(), 0);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < count; ++i)
    std::atomic_ref<std::uint8_t>(marks[map[i]]).store(1, std::memory_order_relaxed);
  std::uint64_t size = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : size)
  for (std::int64_t i = 0; i < count; ++i) size += marks[i];
  return size;
}

template <class Game>
ForwardCounts run(const Game& game, int threads) {
  const auto count = static_cast<std::int64_t>(game.count());
  // Each pass ends in a barrier; small graphs run faster without them.
  threads = static_cast<int>(std::min<std::int64_t>(threads, 1 + count / (1 << 22)));
  ForwardCounts out;

  std::vector<std::uint32_t> succ(count);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < count; ++i) succ[i] = game.successor(i);

  // The images of succ^(2^j) shrink towards the states on cycles; once one round leaves the
  // image as it was, it is that set (equal images of succ^a and succ^b, a < b, stay equal).
  std::vector<std::uint8_t> marks(count);
  std::uint64_t image = mark_image(succ, marks, threads);
  out.garden_of_eden = count - image;
  {
    std::vector<std::uint32_t> jump = succ, scratch(count);
    for (;;) {
#pragma omp parallel for num_threads(threads) schedule(static)
      for (std::int64_t i = 0; i < count; ++i) scratch[i] = jump[jump[i]];
      std::swap(jump, scratch);
      const std::uint64_t smaller = mark_image(jump, marks, threads);
      if (smaller == image) break;
      image = smaller;
    }
  }

  std::vector<std::uint16_t> depth(count, unknown_depth);
  for (std::int64_t i = 0; i < count; ++i)
    if (marks[i]) {
      depth[i] = 0;
      out.cycle_ranks.push_back(i);
    }
  marks = {};
  out.histogram.push_back(out.cycle_ranks.size());

  level_passes(succ, depth, threads, out.histogram);
  return out;
}

template <class Game>
void cycles_of(const Game& game, Analysis& a) {
  const auto& on = a.cycle_ranks;
  std::vector<bool> seen(on.size());
  a.cycles = 0;
  a.cycle_lengths.clear();
  for (std::size_t first = 0; first < on.size(); ++first) {
    if (seen[first]) continue;
    int length = 0;
    std::uint64_t r = on[first];
    do {
      const auto at = std::lower_bound(on.begin(), on.end(), r);
      if (at == on.end() || *at != r || seen[at - on.begin()])
        throw std::runtime_error(fmt::format("state {} is not on a cycle of its own", r));
      seen[at - on.begin()] = true;
      r = game.successor(r);
      ++length;
    } while (r != on[first]);
    ++a.cycles;
    ++a.cycle_lengths[length];
  }
}

}  // namespace

ForwardCounts generic_cpu(const PlainGame& game, int threads) {
  return run(game, threads);
}
ForwardCounts generic_cpu(const CarolinaGame& game, int threads) {
  return run(game, threads);
}
ForwardCounts generic_cpu(const MultiplayerGame& game, int threads) {
  return run(game, threads);
}
ForwardCounts generic_cpu(const AustrianGame& game, int threads) {
  return run(game, threads);
}

void count_cycles(const PlainGame& game, Analysis& a) {
  cycles_of(game, a);
}
void count_cycles(const CarolinaGame& game, Analysis& a) {
  cycles_of(game, a);
}
void count_cycles(const MultiplayerGame& game, Analysis& a) {
  cycles_of(game, a);
}
void count_cycles(const AustrianGame& game, Analysis& a) {
  cycles_of(game, a);
}

}  // namespace piles::bulgarian
