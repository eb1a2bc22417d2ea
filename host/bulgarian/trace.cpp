#include "host/bulgarian/trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <string>

#include "core/bulgarian.hpp"
#include "host/common/error.hpp"
#include "host/common/output.hpp"
#include "host/common/parse.hpp"

namespace piles::bulgarian {
namespace {

// Arithmetic modulo the Mersenne prime 2^61 - 1, for the Walk's hash.
constexpr std::uint64_t mersenne = (std::uint64_t{1} << 61) - 1;

std::uint64_t mul_mod(std::uint64_t a, std::uint64_t b) {
  const unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
  const std::uint64_t r =
      static_cast<std::uint64_t>(p >> 61) + (static_cast<std::uint64_t>(p) & mersenne);
  return r >= mersenne ? r - mersenne : r;
}

std::uint64_t pow_mod(std::uint64_t x, std::uint64_t e) {
  std::uint64_t r = 1;
  for (; e; e >>= 1, x = mul_mod(x, x))
    if (e & 1) r = mul_mod(r, x);
  return r;
}

// The hash's x, any number below the prime: a collision costs a comparison of parts, not a
// wrong answer.
constexpr std::uint64_t hash_x = 0x1d8e4e27c47d124fULL % mersenne;
const std::uint64_t hash_x_inverse = pow_mod(hash_x, mersenne - 2);

// Moves reported to the progress at a time.
constexpr std::uint64_t progress_moves = std::uint64_t{1} << 20;

// One move of p, `spare` holding the old parts afterwards.
void advance(std::vector<int>& p, std::vector<int>& spare) {
  spare.resize(p.size() + 1);
  spare.resize(bulgarian::move(p.data(), static_cast<int>(p.size()), spare.data()));
  std::swap(p, spare);
}

}  // namespace

std::vector<int> parse_partition(std::string_view text, std::int64_t max_cards) {
  const auto values = parse_int_list(text, "partition", 1, max_cards);
  std::int64_t total = 0;
  for (auto v : values) total += v;
  if (total > max_cards)
    throw UsageError(fmt::format("partition: '{}' has {} cards, at most {} are supported", text,
                                 total, max_cards));
  std::vector<int> parts(values.begin(), values.end());
  std::sort(parts.begin(), parts.end(), std::greater<>());
  return parts;
}

Walk::Walk(const std::vector<int>& start)
    : piles_(static_cast<std::int64_t>(start.size())), first_(start.begin(), start.end()) {
  std::sort(first_.begin(), first_.end());
  const std::size_t size = std::bit_ceil(std::max<std::size_t>(64, start.size() + 1));
  ring_.assign(size, 0);
  mask_ = size - 1;
  power_.resize(size);
  power_[0] = 1;
  for (std::size_t s = 1; s < size; ++s) power_[s] = mul_mod(power_[s - 1], hash_x);
  for (std::int64_t part : first_)
    hash_ = (hash_ + pow_mod(hash_x, static_cast<std::uint64_t>(part))) % mersenne;
}

void Walk::grow() {
  const std::size_t size = 2 * ring_.size();
  std::vector<std::uint32_t> ring(size, 0);
  // Every pile alive runs out within the old ring's size of now.
  for (std::size_t off = 1; off <= ring_.size(); ++off) {
    const auto at = static_cast<std::uint64_t>(moves_) + off;
    ring[at & (size - 1)] = ring_[at & mask_];
  }
  ring_ = std::move(ring);
  mask_ = size - 1;
  const std::size_t old = power_.size();
  power_.resize(size);
  for (std::size_t s = old; s < size; ++s) power_[s] = mul_mod(power_[s - 1], hash_x);
}

void Walk::move() {
  const std::int64_t made = piles_;  // the new pile's cards
  if (static_cast<std::uint64_t>(made) > mask_) grow();
  const auto next = static_cast<std::uint64_t>(moves_ + 1);
  std::uint64_t out = ring_[next & mask_];
  ring_[next & mask_] = 0;
  while (next_first_ < first_.size() && first_[next_first_] == moves_ + 1) {
    ++out;
    ++next_first_;
  }
  ++ring_[(next + made) & mask_];
  // Every part one smaller (x^part becomes x^(part - 1)), the emptied piles' x^0 gone, and the
  // new pile's x^made in.
  hash_ = mul_mod(hash_, hash_x_inverse) + (mersenne - out % mersenne) + power_[made];
  hash_ %= mersenne;
  piles_ = made - static_cast<std::int64_t>(out) + 1;
  moves_ += 1;
}

std::vector<int> Walk::partition() const {
  std::vector<int> parts;
  parts.reserve(static_cast<std::size_t>(piles_));
  for (std::size_t i = next_first_; i < first_.size(); ++i)
    parts.push_back(static_cast<int>(first_[i] - moves_));
  for (std::uint64_t off = 1; off <= mask_; ++off)
    parts.insert(parts.end(), ring_[(static_cast<std::uint64_t>(moves_) + off) & mask_],
                 static_cast<int>(off));
  std::sort(parts.begin(), parts.end(), std::greater<>());
  return parts;
}

bool Walk::same(const Walk& other) const {
  return hash_ == other.hash_ && piles_ == other.piles_ && partition() == other.partition();
}

Trace trace(const std::vector<int>& start, bool list, Progress* progress) {
  Trace t;
  t.start = start;
  t.cards = std::accumulate(start.begin(), start.end(), std::int64_t{0});
  std::uint64_t played = 0;
  const auto move = [&](Walk& w) {
    w.move();
    if (progress && ++played % progress_moves == 0) progress->add(progress_moves);
  };
  // Brent: the hare runs ahead, the tortoise jumps to it at every power of two; they meet once
  // the power passes the cycle's length and the tortoise is on the cycle. The tortoises before
  // it are kept, for the search of the transient to start from the last one off the cycle.
  Walk hare(start);
  std::vector<Walk> tortoises = {hare};
  move(hare);
  std::int64_t power = 1, lambda = 1;
  while (!hare.same(tortoises.back())) {
    if (power == lambda) {
      tortoises.push_back(hare);
      power *= 2;
      lambda = 0;
    }
    move(hare);
    ++lambda;
  }
  t.cycle_length = lambda;
  // The cycle's hashes, sorted, behind a filter of one bit per top bits of a hash: most moves
  // of the transient are told off the cycle by one bit.
  std::vector<std::uint64_t> cycle(static_cast<std::size_t>(lambda));
  for (auto& h : cycle) {
    h = hare.hash();
    move(hare);
  }
  std::sort(cycle.begin(), cycle.end());
  constexpr int filter_bits = 22;
  std::vector<std::uint64_t> filter(std::size_t{1} << (filter_bits - 6), 0);
  const auto slot = [](std::uint64_t h) { return h >> (61 - filter_bits); };
  for (std::uint64_t h : cycle) filter[slot(h) >> 6] |= std::uint64_t{1} << (slot(h) & 63);
  const auto on_cycle = [&](const Walk& w) {
    const std::uint64_t s = slot(w.hash());
    if (!(filter[s >> 6] >> (s & 63) & 1)) return false;
    if (!std::binary_search(cycle.begin(), cycle.end(), w.hash())) return false;
    // A partition of the transient never comes back.
    Walk later = w;
    for (std::int64_t i = 0; i < lambda; ++i) later.move();
    return later.same(w);
  };
  while (tortoises.size() > 1 && on_cycle(tortoises.back())) tortoises.pop_back();
  Walk walk = tortoises.back();
  while (!on_cycle(walk)) move(walk);
  t.transient = walk.moves();
  t.cycle_start = walk.partition();
  if (progress) progress->add(played % progress_moves);
  if (!list) return t;
  std::vector<int> p = start, spare;
  std::sort(p.begin(), p.end(), std::greater<>());
  for (std::int64_t i = 0; i < t.transient + lambda; ++i) {
    t.partitions.push_back(p);
    advance(p, spare);
  }
  if (lambda > 1) t.partitions.push_back(p);
  return t;
}

void check_longest_transient(int n, const std::vector<std::uint64_t>& histogram,
                             const std::vector<int>& deepest, std::string_view engine) {
  std::size_t depths = histogram.size();
  while (depths > 0 && histogram[depths - 1] == 0) --depths;
  if (depths == 0) return;
  const std::int64_t longest = static_cast<std::int64_t>(depths) - 1;
  const auto refuse = [&](const std::string& why) {
    throw std::runtime_error(
        fmt::format("n = {}: the GPU {} engine's longest transient of {} moves fails its replay "
                    "on the host: {}",
                    n, engine, longest, why));
  };
  const bool partition_of_n =
      !deepest.empty() && std::is_sorted(deepest.begin(), deepest.end(), std::greater<>()) &&
      deepest.back() > 0 && std::accumulate(deepest.begin(), deepest.end(), std::int64_t{0}) == n;
  if (!partition_of_n)
    refuse(fmt::format("its deepest partition {} is not a partition of n", paren_list(deepest)));
  const std::int64_t moves = trace(deepest, false).transient;
  if (moves != longest)
    refuse(fmt::format("its deepest partition {} reaches its cycle in {} moves",
                       paren_list(deepest), moves));
}

}  // namespace piles::bulgarian
