#pragma once

#include <cstddef>
#include <vector>

#include "host/topswops/deepen.hpp"
#include "host/topswops/partial.hpp"
#include "host/topswops/plan.hpp"

namespace piles::topswops {

// The groups of a cut slice in which a game longer than the target turned up, finished exactly
// by the device. The whole prefix's search would have raised its target at that game and gone
// on from there, which lanes searching its descendants side by side cannot. So the host walks
// the levels between the prefix and its descendants as that search would, raising the target as
// it goes, and takes each descendant's search from the device at the target the walk has
// reached there: a lane searches one descendant as the whole search would, its own target
// rising inside it. A walk that reaches a descendant not yet searched at its target asks for it
// and for every descendant after it at the targets it has then; a pass of the device answers
// every walk's asks, and the walks start again, until each gets to its end. Passes: one, and
// one more for each descendant after which some prefix's target rose. The host searches no
// subtree itself.
//
// groups[g] for each g of `rising` becomes the exact result of the search of the prefix of
// group g from `target`; `search` is the device (no chunk of these passes is kept when it is
// told to stop: the slice is then left to the run that resumes). Returns the passes.
std::size_t finish_rising(const Plan& plan, const DeepWork& deep, int target,
                          const std::vector<std::size_t>& rising, std::vector<Partial>& groups,
                          int threads, const DeviceSearch& search);

}  // namespace piles::topswops
