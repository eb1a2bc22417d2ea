#include "host/topswops/rising.hpp"

#include <algorithm>
#include <cstdint>
#include <map>

#include "core/topswops.hpp"
#include "host/topswops/game_sink.hpp"

namespace piles::topswops {
namespace {

// A descendant's search as a pass gave it: its path, the target it started from, its result.
struct Searched {
  std::vector<std::uint8_t> path;
  int target;
  Partial result;
};

// One prefix's walk, kept across passes.
struct Walk {
  std::vector<Searched> below;  // the descendants' searches it met, in order
  std::size_t asked_from = 0;   // in the pass on hand: where its asks go in `below`
  std::vector<std::uint8_t> ask_paths;
  std::vector<int> ask_targets;
  bool done = false;
};

// Walks prefix `prefix` from `target` once, as search_below walks it (walk_top), each
// descendant's search taken from `below` where it is of that descendant from the target the walk
// has there (after a rise the walk may prune a descendant it met before, and meet the next at a
// target asked for by chance): its exact result in `out` where every descendant it met was
// searched so, else its asks, from the first descendant that was not on.
template <int W>
void walk_once(const Plan& plan, const Problem& problem, int depth, std::size_t prefix, int target,
               Walk& walk, Partial& out) {
  out = Partial{};
  out.nodes.assign(plan.n, 0);
  walk.ask_paths.clear();
  walk.ask_targets.clear();
  GameSink<W> sink{plan.n, out};
  std::uint8_t choices[max_n] = {};
  std::copy_n(plan.choices.begin() + prefix * plan.depth, plan.depth, choices);
  Deck<W> start;
  const Frame<W> f = replay<W>(problem, choices, plan.depth, start);
  std::size_t met = 0;
  bool asking = false;
  walk_top<true>(problem, f, plan.depth, depth, start, target, out.nodes.data(), sink, choices,
                 [&](const std::uint8_t* path) {
                   if (!asking && met < walk.below.size() && walk.below[met].target == target &&
                       std::equal(path, path + depth, walk.below[met].path.begin())) {
                     const Partial& r = walk.below[met++].result;
                     out.merge(r);
                     target = std::max(target, r.best);
                     return;
                   }
                   if (!asking) walk.asked_from = met;
                   asking = true;
                   walk.ask_paths.insert(walk.ask_paths.end(), path, path + depth);
                   walk.ask_targets.push_back(target);
                 });
  walk.done = !asking;
}

}  // namespace

std::size_t finish_rising(const Plan& plan, const DeepWork& deep, int target,
                          const std::vector<std::size_t>& rising, std::vector<Partial>& groups,
                          int threads, const DeviceSearch& search) {
  const Problem problem{plan.n, plan.final == Final::sorted, deep.work.bound.data()};
  const int depth = deep.work.depth;
  std::vector<Walk> walks(rising.size());
  const KeepGroups keep_none = [](std::vector<Partial>, const std::vector<bool>&) {};
  for (std::size_t passes = 0;; ++passes) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(std::max(threads, 1))
    for (std::size_t i = 0; i < walks.size(); ++i) {
      if (walks[i].done) continue;
      const std::size_t prefix = deep.prefix[rising[i]];
      Partial& out = groups[rising[i]];
      if (words_for(plan.n) == 2)
        walk_once<2>(plan, problem, depth, prefix, target, walks[i], out);
      else
        walk_once<3>(plan, problem, depth, prefix, target, walks[i], out);
    }
    // One device work per target asked for, its descendants one group each.
    std::map<int, gpu::TopswopsWork> works;
    for (const Walk& w : walks)
      for (std::size_t a = 0; a < w.ask_targets.size(); ++a) {
        gpu::TopswopsWork& work = works[w.ask_targets[a]];
        work.choices.insert(work.choices.end(), w.ask_paths.begin() + a * depth,
                            w.ask_paths.begin() + (a + 1) * depth);
        work.chunk_ends.push_back(work.chunk_ends.size() + 1);
      }
    if (works.empty()) return passes;
    std::map<int, std::vector<Partial>> answers;
    for (auto& [t, work] : works) {
      work.n = plan.n;
      work.sorted = deep.work.sorted;
      work.bound = deep.work.bound;
      work.depth = depth;
      work.target = t;
      work.found_capacity = deep.work.found_capacity;
      answers[t] = search(work, keep_none);
    }
    std::map<int, std::size_t> taken;
    for (Walk& w : walks) {
      if (w.ask_targets.empty()) continue;
      w.below.resize(w.asked_from);
      for (std::size_t a = 0; a < w.ask_targets.size(); ++a) {
        const int t = w.ask_targets[a];
        w.below.push_back({{w.ask_paths.begin() + a * depth, w.ask_paths.begin() + (a + 1) * depth},
                           t,
                           std::move(answers[t][taken[t]++])});
      }
    }
  }
}

}  // namespace piles::topswops
