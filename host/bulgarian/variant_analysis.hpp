#pragma once

#include "host/bulgarian/analysis.hpp"
#include "host/bulgarian/variants.hpp"

#include <cstdint>
#include <vector>

namespace piles::bulgarian {

// Counts of Multiplayer tuples beyond 32-bit ranks are only compared with that bound, so they
// stop at this cap instead of overflowing.
inline constexpr std::uint64_t tuple_count_cap = std::uint64_t{1} << 40;

// tuples[j * (n + 1) + m]: j-tuples of partitions with m cards in all, j <= players, capped at
// tuple_count_cap.
std::vector<std::uint64_t> tuple_table(int n, int players);

// The largest n that analyze takes for the variant; throws UsageError for Montreal.
int variant_max_n(const Variant& v);

// `analyze --variant`: the generic engine on the variant's states of n cards (the plain game's
// partitions, Carolina's compositions, Multiplayer's tuples of partitions, Austrian's piles of
// at most L cards with a bank below L), on the CPU or the GPU. Throws UsageError for Montreal,
// whose rows of n cards are no finite set, and for sizes beyond 32-bit ranks or the memory.
Analysis analyze_variant(int n, const Variant& v, const RunTarget& target);

}  // namespace piles::bulgarian
