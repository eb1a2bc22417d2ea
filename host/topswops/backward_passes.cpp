#include "host/topswops/backward_passes.hpp"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <stdexcept>

#include "host/topswops/backward.hpp"

namespace piles::topswops {
namespace {

template <int W>
class HostPasses final : public gpu::BackwardPasses<W> {
 public:
  HostPasses(const backward::Problem& problem, int target, std::uint32_t slots, std::size_t lanes,
             int threads)
      : longest_(problem.longest, problem.longest + problem.n + 1),
        problem_{problem.n, longest_.data(), problem.prune},
        target_(target),
        slots_(slots),
        lanes_(lanes),
        threads_(std::max(threads, 1)) {
    for (Partial& p : slots_) p.nodes.assign(problem.n, 0);
  }

  void pass(std::vector<gpu::BackwardItem<W>>& items, std::uint64_t budget,
            std::vector<std::uint8_t>& finished) override {
    finished.assign(items.size(), 0);
    std::mutex mutex;
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads_)
    for (std::size_t i = 0; i < items.size(); ++i) {
      Partial found;
      const auto keep = [&](int steps, const Deck<W>& deck) {
        found.add(steps, {to_cards(deck, problem_.n), sorted_});
      };
      std::uint64_t nodes[max_n] = {};
      // The deck in words, as the device holds it: the test of these passes against the CPU
      // engine then runs the kernel's code.
      finished[i] =
          backward::search_for<W, false>(problem_, items[i].at, target_, budget, nodes, keep);
      found.nodes.assign(nodes, nodes + problem_.n);
      const std::lock_guard lock(mutex);
      slots_[items[i].slot].merge(found);
    }
  }

  std::vector<gpu::TopswopsChunkResult> collect() override {
    std::vector<gpu::TopswopsChunkResult> results;
    for (const Partial& p : slots_) {
      gpu::TopswopsChunkResult& r = results.emplace_back();
      r.best = p.best;
      r.count = p.count;
      r.nodes = p.nodes;
      for (const FoundGame& g : p.decks) {
        r.starts.push_back(g.deck);
        r.finals.push_back(g.final_deck);
      }
    }
    return results;
  }

  std::size_t lanes() const override {
    return lanes_;
  }

 private:
  std::vector<std::int32_t> longest_;
  backward::Problem problem_;
  int target_;
  std::vector<Partial> slots_;
  std::vector<int> sorted_ = sorted_cards(problem_.n);
  std::size_t lanes_;
  int threads_;
};

// Collects what backward::share hands off.
template <int W>
struct Handed {
  std::vector<backward::Cursor<W>> cursors;
  void share(const backward::Cursor<W>& at) { cursors.push_back(at); }
};

// Splits items until there are `want` or none can give more: each hands the moves still to
// come at the shallowest node of its path to a new item of its chunk.
template <int W>
void split(std::vector<gpu::BackwardItem<W>>& items, std::size_t want, int n) {
  const Deck<W> sorted = sorted_deck<W>(n);
  while (items.size() < want) {
    const std::size_t before = items.size();
    for (std::size_t i = 0; i < before && items.size() < want; ++i) {
      Handed<W> handed;
      items[i].at.start_depth =
          backward::share(items[i].at.node, items[i].at.start_depth, sorted, n, handed);
      for (const backward::Cursor<W>& at : handed.cursors) items.push_back({at, items[i].slot});
    }
    if (items.size() == before) return;
  }
}

}  // namespace

template <int W>
std::unique_ptr<gpu::BackwardPasses<W>> host_backward_passes(const backward::Problem& problem,
                                                             int target, std::uint32_t slots,
                                                             std::size_t lanes, int threads) {
  return std::make_unique<HostPasses<W>>(problem, target, slots, lanes, threads);
}

template <int W>
void run_backward_passes(const Plan& plan, const std::vector<int>& chunks,
                         gpu::BackwardPasses<W>& runner, std::uint64_t budget,
                         const ChunkDone& done, const Cancel& cancel) {
  std::vector<gpu::BackwardItem<W>> items;
  for (std::size_t s = 0; s < chunks.size(); ++s) {
    const std::size_t first = plan.chunk_begin(chunks[s]);
    for (std::size_t i = first; i < first + plan.chunk_prefixes(chunks[s]); ++i)
      items.push_back(
          {backward::cursor_at(prefix_node<W>(plan, i)), static_cast<std::uint32_t>(s)});
  }
  // Each chunk's result once none of its items is left (all of them, where `all`).
  const auto hand_over = [&](bool all) {
    std::vector<std::size_t> left(chunks.size(), 0);
    for (const auto& item : items) ++left[item.slot];
    const std::vector<gpu::TopswopsChunkResult> results = runner.collect();
    for (std::size_t s = 0; s < chunks.size(); ++s)
      if (all || left[s] == 0) done(chunks[s], partial_of(results[s]), 0.0);
  };
  std::vector<std::uint8_t> finished;
  while (!items.empty()) {
    if (cancelled(cancel)) {
      hand_over(false);
      throw Cancelled();
    }
    split(items, 2 * runner.lanes(), plan.n);
    runner.pass(items, budget, finished);
    std::size_t kept = 0;
    for (std::size_t i = 0; i < items.size(); ++i)
      if (!finished[i]) items[kept++] = items[i];
    items.resize(kept);
  }
  hand_over(true);
}

#ifdef PILES_HAVE_CUDA

namespace {

template <int W>
void run_on_device(const Plan& plan, const std::vector<int>& chunks, int target, int threads,
                   const ChunkDone& done, const Cancel& cancel, std::uint64_t budget,
                   std::uint64_t found_capacity) {
  const auto runner = gpu::device_backward_passes<W>(
      backward_problem(plan), target, static_cast<std::uint32_t>(chunks.size()), found_capacity);
  const auto start = std::chrono::steady_clock::now();
  std::vector<int> again;
  const ChunkDone checked = [&](int chunk, const Partial& p, double) {
    // Games of the best length the buffer did not keep: the chunk again on the CPU threads.
    if (p.decks.size() < std::min<std::uint64_t>(p.count, Partial::max_decks)) {
      again.push_back(chunk);
      return;
    }
    // The chunks of a slice run together: each is charged an even share of its time.
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    done(chunk, p, seconds / static_cast<double>(chunks.size()));
  };
  run_backward_passes<W>(plan, chunks, *runner, budget, checked, cancel);
  if (!again.empty()) run_backward_chunks(plan, again, target, threads, done, {}, cancel);
}

}  // namespace

void run_backward_chunks_gpu(const Plan& plan, const std::vector<int>& chunks, int target,
                             int threads, const ChunkDone& done, const Cancel& cancel,
                             std::uint64_t budget, std::uint64_t found_capacity) {
  if (words_for(plan.n) == 2)
    run_on_device<2>(plan, chunks, target, threads, done, cancel, budget, found_capacity);
  else
    run_on_device<3>(plan, chunks, target, threads, done, cancel, budget, found_capacity);
}

#else

void run_backward_chunks_gpu(const Plan&, const std::vector<int>&, int, int, const ChunkDone&,
                             const Cancel&, std::uint64_t, std::uint64_t) {
  throw std::runtime_error("this build of piles has no GPU engine (built without CUDA)");
}

#endif

template std::unique_ptr<gpu::BackwardPasses<2>> host_backward_passes<2>(const backward::Problem&,
                                                                         int, std::uint32_t,
                                                                         std::size_t, int);
template std::unique_ptr<gpu::BackwardPasses<3>> host_backward_passes<3>(const backward::Problem&,
                                                                         int, std::uint32_t,
                                                                         std::size_t, int);
template void run_backward_passes<2>(const Plan&, const std::vector<int>&, gpu::BackwardPasses<2>&,
                                     std::uint64_t, const ChunkDone&, const Cancel&);
template void run_backward_passes<3>(const Plan&, const std::vector<int>&, gpu::BackwardPasses<3>&,
                                     std::uint64_t, const ChunkDone&, const Cancel&);

}  // namespace piles::topswops
