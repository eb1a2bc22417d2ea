#include "host/topswops/deepen.hpp"

#include <algorithm>

#include "core/topswops.hpp"
#include "host/topswops/cpu_engine.hpp"
#include "host/topswops/game_sink.hpp"
#include "host/topswops/gpu_engine.hpp"
#include "host/topswops/rising.hpp"

namespace piles::topswops {
namespace {

// The prefixes one level down from `paths` (depth bytes each, `group` naming each one's group,
// a group's prefixes together), in search order; their nodes and games go to the groups' tops.
// The groups are shared out over the threads.
template <int W>
void one_level_down(const Problem& problem, int depth, int target, int threads,
                    std::vector<std::uint8_t>& paths, std::vector<std::uint32_t>& group,
                    std::vector<Partial>& tops) {
  std::vector<std::size_t> first{0};  // group g's prefixes: [first[g], first[g + 1])
  for (std::size_t i = 1; i <= group.size(); ++i)
    if (i == group.size() || group[i] != group[i - 1]) first.push_back(i);
  const std::size_t groups = first.size() - 1;
  std::vector<std::vector<std::uint8_t>> next_paths(groups);
#pragma omp parallel for schedule(dynamic, 16) num_threads(std::max(threads, 1))
  for (std::size_t g = 0; g < groups; ++g) {
    std::uint8_t choices[max_n];
    Partial& top = tops[group[first[g]]];
    GameSink<W> sink{problem.n, top};
    for (std::size_t i = first[g]; i < first[g + 1]; ++i) {
      std::copy_n(paths.begin() + i * depth, depth, choices);
      Deck<W> start;
      const Frame<W> f = replay<W>(problem, choices, depth, start);
      expand_top(problem, f, depth, depth + 1, start, target, top.nodes.data(), sink, choices,
                 [&](const std::uint8_t* path) {
                   next_paths[g].insert(next_paths[g].end(), path, path + depth + 1);
                 });
    }
  }
  std::vector<std::uint8_t> all_paths;
  std::vector<std::uint32_t> all_groups;
  for (std::size_t g = 0; g < groups; ++g) {
    all_paths.insert(all_paths.end(), next_paths[g].begin(), next_paths[g].end());
    all_groups.insert(all_groups.end(), next_paths[g].size() / (depth + 1), group[first[g]]);
  }
  paths = std::move(all_paths);
  group = std::move(all_groups);
}

}  // namespace

DeepWork deepen(const Plan& plan, const std::vector<int>& chunks, int target, std::uint64_t want,
                int threads, std::uint64_t found_capacity, std::optional<int> deepest_level) {
  DeepWork deep;
  deep.slots = chunks.size();
  deep.work = gpu_work(plan, chunks, target, found_capacity);
  const std::uint64_t prefixes = deep.work.chunk_ends.empty() ? 0 : deep.work.chunk_ends.back();
  const int deepest =
      std::min(deepest_level.value_or(plan.n - 1 - device_levels_below), plan.n - 3);
  if (prefixes >= want || plan.depth >= deepest) {
    for (std::size_t s = 0; s < chunks.size(); ++s) deep.slot.push_back(static_cast<int>(s));
    return deep;
  }
  // One group per prefix of the slice, in the slice's order.
  for (std::size_t s = 0; s < chunks.size(); ++s)
    for (std::size_t i = 0; i < plan.chunk_prefixes(chunks[s]); ++i) {
      deep.prefix.push_back(plan.chunk_begin(chunks[s]) + i);
      deep.slot.push_back(static_cast<int>(s));
    }
  deep.tops.assign(deep.prefix.size(), Partial{});
  for (Partial& top : deep.tops) top.nodes.assign(plan.n, 0);
  std::vector<std::uint32_t> group(deep.prefix.size());
  for (std::size_t g = 0; g < group.size(); ++g) group[g] = static_cast<std::uint32_t>(g);
  std::vector<std::uint8_t> paths = std::move(deep.work.choices);
  const Problem problem{plan.n, plan.final == Final::sorted, deep.work.bound.data()};
  int depth = plan.depth;
  while (group.size() < want && depth < deepest && !group.empty()) {
    if (words_for(plan.n) == 2)
      one_level_down<2>(problem, depth, target, threads, paths, group, deep.tops);
    else
      one_level_down<3>(problem, depth, target, threads, paths, group, deep.tops);
    ++depth;
  }
  deep.extra = depth - plan.depth;
  deep.work.depth = depth;
  deep.work.choices = std::move(paths);
  deep.work.chunk_ends.assign(deep.prefix.size(), 0);
  for (std::uint32_t g : group) ++deep.work.chunk_ends[g];
  for (std::size_t g = 1; g < deep.work.chunk_ends.size(); ++g)
    deep.work.chunk_ends[g] += deep.work.chunk_ends[g - 1];
  return deep;
}

std::vector<Partial> finish_groups(const Plan& plan, const DeepWork& deep, int target,
                                   std::vector<Partial> groups, int threads,
                                   const DeviceSearch& search, std::size_t* again,
                                   const std::vector<bool>* slots) {
  const auto wanted = [&](std::size_t g) { return !slots || (*slots)[deep.slot[g]]; };
  std::vector<Partial> chunks(deep.slots);
  for (Partial& c : chunks) c.nodes.assign(plan.n, 0);
  std::vector<std::size_t> rising;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (deep.extra == 0 || !wanted(g)) continue;
    groups[g].merge(deep.tops[g]);
    if (groups[g].best > target) rising.push_back(g);
  }
  if (!rising.empty()) finish_rising(plan, deep, target, rising, groups, threads, search);
  if (again) *again = rising.size();
  for (std::size_t g = 0; g < groups.size(); ++g)
    if (wanted(g)) chunks[deep.slot[g]].merge(groups[g]);
  return chunks;
}

std::vector<bool> complete_slots(const DeepWork& deep, const std::vector<bool>& finished) {
  std::vector<bool> complete(deep.slots, true);
  for (std::size_t g = 0; g < deep.slot.size(); ++g)
    if (!finished.at(g)) complete[deep.slot[g]] = false;
  return complete;
}

std::vector<Partial> search_on_device(const Plan& plan, const DeepWork& deep, int target,
                                      int threads, const DeviceSearch& search,
                                      const KeepChunk& keep) {
  // A device told to stop takes no more passes: what it finished is finished on the host.
  const DeviceSearch on_host = [&](const gpu::TopswopsWork& work, const KeepGroups&) {
    return search_work_cpu(work, threads);
  };
  const KeepGroups keep_groups = [&](std::vector<Partial> groups,
                                     const std::vector<bool>& finished) {
    const std::vector<bool> slots = complete_slots(deep, finished);
    const std::vector<Partial> chunks =
        finish_groups(plan, deep, target, std::move(groups), threads, on_host, nullptr, &slots);
    for (std::size_t s = 0; s < deep.slots; ++s)
      if (slots[s]) keep(s, chunks[s]);
  };
  return finish_groups(plan, deep, target, search(deep.work, keep_groups), threads, search);
}

}  // namespace piles::topswops
