#include "host/topswops/cpu_engine.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>

#include "core/topswops.hpp"
#include "host/topswops/backward.hpp"
#include "host/topswops/game_sink.hpp"

namespace piles::topswops {
namespace {

struct Piece {
  std::size_t chunk_slot, first, last;
};

struct ChunkState {
  Partial partial;
  std::size_t pieces_left = 0;
  double seconds = 0;
};

template <int W>
Partial search_prefixes(const Plan& plan, std::size_t first, std::size_t last, int target) {
  const std::vector<std::int32_t> table = plan.bounds_at(target);
  const Problem problem = plan.problem(table);
  Partial partial;
  std::uint64_t nodes[max_n] = {};
  GameSink<W> sink{plan.n, partial};
  search_prefix_range<W>(plan, problem, first, last, target, nodes, sink);
  partial.nodes.assign(nodes, nodes + plan.n);
  return partial;
}

template <int W>
Partial search_group(const gpu::TopswopsWork& work, std::size_t first, std::size_t last) {
  const Problem problem{work.n, work.sorted, work.bound.data()};
  Partial partial;
  std::uint64_t nodes[max_n] = {};
  GameSink<W> sink{work.n, partial};
  for (std::size_t i = first; i < last; ++i) {
    Deck<W> start;
    const Frame<W> f = replay<W>(problem, work.choices.data() + i * work.depth, work.depth, start);
    search_below(problem, f, work.depth, start, work.target, nodes, sink);
  }
  partial.nodes.assign(nodes, nodes + work.n);
  return partial;
}

}  // namespace

Partial search_prefixes_cpu(const Plan& plan, std::size_t first, std::size_t last, int target) {
  if (plan.backward) return search_backward_prefixes(plan, first, last, target);
  return words_for(plan.n) == 2 ? search_prefixes<2>(plan, first, last, target)
                                : search_prefixes<3>(plan, first, last, target);
}

std::vector<Partial> search_work_cpu(const gpu::TopswopsWork& work, int threads) {
  std::vector<Partial> groups(work.chunk_ends.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(std::max(threads, 1))
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const std::size_t first = g == 0 ? 0 : work.chunk_ends[g - 1];
    groups[g] = words_for(work.n) == 2 ? search_group<2>(work, first, work.chunk_ends[g])
                                       : search_group<3>(work, first, work.chunk_ends[g]);
  }
  return groups;
}

void run_chunks_cpu(const Plan& plan, const std::vector<int>& chunks, int target, int threads,
                    const ChunkDone& done, const PieceDone& piece_done, const Cancel& cancel) {
  if (plan.backward) {
    run_backward_chunks(plan, chunks, target, threads, done, piece_done, cancel);
    return;
  }
  std::vector<ChunkState> state(chunks.size());
  std::vector<Piece> pieces;
  const std::size_t per_piece = piece_prefixes;
  for (std::size_t s = 0; s < chunks.size(); ++s) {
    const std::size_t first = plan.chunk_begin(chunks[s]), last = plan.chunk_begin(chunks[s] + 1);
    state[s].partial.nodes.assign(plan.n, 0);
    for (std::size_t p = first; p < last; p += per_piece)
      pieces.push_back({s, p, std::min(last, p + per_piece)});
    state[s].pieces_left = (last - first + per_piece - 1) / per_piece;
    if (first == last) done(chunks[s], state[s].partial, 0);
  }
  std::mutex mutex;
  std::exception_ptr failure;
  std::atomic<bool> abandoned = false;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (abandoned || cancelled(cancel)) {
      abandoned = true;
      continue;
    }
    const Piece& piece = pieces[i];
    const auto start = std::chrono::steady_clock::now();
    try {
      const Partial partial = search_prefixes_cpu(plan, piece.first, piece.last, target);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::lock_guard lock(mutex);
      ChunkState& chunk = state[piece.chunk_slot];
      chunk.partial.merge(partial);
      chunk.seconds += seconds;
      if (piece_done) piece_done(piece.last - piece.first, partial.total_nodes());
      if (--chunk.pieces_left == 0 && !failure)
        done(chunks[piece.chunk_slot], chunk.partial, chunk.seconds);
    } catch (...) {
      std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
  if (abandoned) throw Cancelled();
}

}  // namespace piles::topswops
