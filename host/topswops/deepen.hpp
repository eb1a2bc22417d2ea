#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "host/topswops/partial.hpp"
#include "host/topswops/plan.hpp"
#include "kernels/topswops_search.hpp"

namespace piles::topswops {

// A slice for a device, cut below the plan's prefixes until it holds enough of them for every
// lane (the journal's chunks and their results stay as they are; only the device's work is cut
// finer). Each prefix of the slice becomes a group of its descendants `extra` levels down,
// searched on the device with the slice's target; the nodes between (and, for sorted finals,
// the games ending there) are counted on the host into the group's top.
//
// Cut this way, a prefix gives the results of its own search exactly when no game longer than
// the target turns up below it: until the first such game the search of the whole prefix runs
// at that target too, and visits the same nodes in the same order. A longer game raises the
// target for the rest of the prefix's search, which its descendants on separate lanes cannot
// see, so a group whose best beats the target is finished by more passes of the device, its
// target raised where the whole search would raise it (rising.hpp). That happens only in the
// rounds that raise the target, and for few prefixes.
struct DeepWork {
  gpu::TopswopsWork work;     // work.chunk_ends: one group per prefix, or per chunk if not cut
  int extra = 0;              // levels below the plan's depth (0: not cut)
  std::vector<Partial> tops;  // per group when cut: the levels depth+1..depth+extra
  std::vector<std::size_t> prefix;  // per group when cut: the plan's prefix it came from
  std::vector<int> slot;            // per group: its chunk's index in the slice
  std::size_t slots = 0;            // chunks in the slice
};

// The slice `chunks` at `target`, cut on `threads` threads until it holds at least `want`
// prefixes or reaches level `deepest` (by default device_levels_below above the leaves; at most
// n - 3).
DeepWork deepen(const Plan& plan, const std::vector<int>& chunks, int target, std::uint64_t want,
                int threads = 1, std::uint64_t found_capacity = gpu::default_found_capacity,
                std::optional<int> deepest = std::nullopt);

// Given by a device's search told to stop, before it throws: per group, its partial so far and
// whether it is whole.
using KeepGroups =
    std::function<void(std::vector<Partial> groups, const std::vector<bool>& finished)>;

// The device's search of a work, one partial per group (the GPU kernels, or a stand-in); told
// to stop, it hands `keep` the groups it finished and throws.
using DeviceSearch =
    std::function<std::vector<Partial>(const gpu::TopswopsWork&, const KeepGroups& keep)>;

// The chunks' partials (one per entry of the slice) from the groups' results on the device:
// each group's top added, and a group that found a game longer than the target finished by
// passes of `search` (rising.hpp). Returns how many groups needed that in `again`. With `slots`,
// only the chunks it marks are finished; the others come back empty.
std::vector<Partial> finish_groups(const Plan& plan, const DeepWork& deep, int target,
                                   std::vector<Partial> groups, int threads,
                                   const DeviceSearch& search, std::size_t* again = nullptr,
                                   const std::vector<bool>* slots = nullptr);

// Per chunk of the slice: whether every one of its groups is finished (`finished`, per group).
std::vector<bool> complete_slots(const DeepWork& deep, const std::vector<bool>& finished);

// A chunk of the slice handed over as finished: its index in the slice, its partial.
using KeepChunk = std::function<void(std::size_t slot, const Partial&)>;

// A cut slice searched on a device and finished: the chunks' partials. Where the search is told
// to stop, the chunks all of whose groups it finished go to `keep`, finished (their groups that
// beat the target by the host's threads, standing in for the device), before its exception goes
// on: a slice cut short keeps what it finished.
std::vector<Partial> search_on_device(const Plan& plan, const DeepWork& deep, int target,
                                      int threads, const DeviceSearch& search,
                                      const KeepChunk& keep);

// A device's prefixes sit at least this far above the leaves: closer, cutting them would cost
// the host more than searching them costs the device. At n = 15 and 16 (searches of seconds
// on a GPU) this is what lets the smallest slices, a chunk, reach eight prefixes a lane.
inline constexpr int device_levels_below = 3;

// Searches from this many cards on are cut for a device: smaller ones take milliseconds on it
// however cut, and cutting would cost the host more.
inline constexpr int device_cut_from_n = 14;

// Prefixes a slice for a device of `lanes` lanes holds at least, where the tree allows.
constexpr std::uint64_t prefixes_for_lanes(std::uint64_t lanes) {
  return 8 * lanes;
}

// What a slice of the n-card search is cut to for a device of `lanes` lanes (0: not cut).
constexpr std::uint64_t device_prefixes(int n, std::uint64_t lanes) {
  return n >= device_cut_from_n ? prefixes_for_lanes(lanes) : 0;
}

}  // namespace piles::topswops
