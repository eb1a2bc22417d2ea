#include "host/topswops/gpu_engine.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "host/topswops/deepen.hpp"
#include "host/topswops/replay.hpp"

namespace piles::topswops {

gpu::TopswopsWork gpu_work(const Plan& plan, const std::vector<int>& chunks, int target,
                           std::uint64_t found_capacity) {
  gpu::TopswopsWork work;
  work.found_capacity = std::max<std::uint64_t>(found_capacity, 1);
  work.n = plan.n;
  work.sorted = plan.final == Final::sorted;
  work.bound = plan.bounds_at(target);
  work.depth = plan.depth;
  work.target = target;
  std::uint64_t end = 0;
  for (int chunk : chunks) {
    const std::size_t first = plan.chunk_begin(chunk), last = plan.chunk_begin(chunk + 1);
    work.choices.insert(work.choices.end(), plan.choices.begin() + first * plan.depth,
                        plan.choices.begin() + last * plan.depth);
    end += last - first;
    work.chunk_ends.push_back(end);
  }
  return work;
}

const char* gpu_kernel_name(GpuKernel kernel) {
  return kernel == GpuKernel::dfs ? "dfs" : lockstep_kernel_name(lockstep_kind(kernel));
}

LockstepKernel lockstep_kind(GpuKernel kernel) {
  return kernel == GpuKernel::staged_shared ? LockstepKernel::staged_shared
         : kernel == GpuKernel::staged      ? LockstepKernel::staged
         : kernel == GpuKernel::lean        ? LockstepKernel::lean
                                            : LockstepKernel::lockstep;
}

#ifdef PILES_HAVE_CUDA

namespace {

std::vector<Partial> to_partials(const std::vector<gpu::TopswopsChunkResult>& results) {
  std::vector<Partial> partials;
  for (const auto& r : results) partials.push_back(partial_of(r));
  return partials;
}

}  // namespace

// One launch holds every chunk of the call, cut finer where it holds too few prefixes for the
// device's lanes (deepen.hpp).
bool run_chunks_gpu(const Plan& plan, const std::vector<int>& chunks, int target,
                    const ChunkDone& done, GpuKernel kernel, std::uint64_t pass_budget,
                    std::uint64_t found_capacity, int threads, bool small_on_host,
                    const Cancel& cancel) {
  if (chunks.empty()) return true;
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t lanes = gpu_lanes_in_flight(plan.n, kernel);
  const DeepWork deep = deepen(plan, chunks, target, device_prefixes(plan.n, lanes), threads,
                               std::max<std::uint64_t>(found_capacity, 1));
  const std::uint64_t prefixes = deep.work.chunk_ends.back();
  if (small_on_host && slice_on_host(prefixes, threads, lanes)) return false;
  std::uint64_t slice_prefixes = 0;
  for (int c : chunks) slice_prefixes += plan.chunk_prefixes(c);
  const KeepChunk hand_over = [&](std::size_t slot, const Partial& p) {
    replay_games(p, plan.n, plan.final, chunks[slot], "GPU");
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // A launch runs its chunks together: each is charged its share of the prefixes.
    done(chunks[slot], p,
         slice_prefixes > 0 ? seconds * plan.chunk_prefixes(chunks[slot]) / slice_prefixes : 0.0);
  };
  // Asked before every launch: a slice told to stop hands over the chunks it finished
  // (search_on_device) and leaves the rest to the run that resumes.
  const DeviceSearch on_gpu = [&](const gpu::TopswopsWork& work, const KeepGroups& keep) {
    const gpu::TopswopsStop stop{
        [&] {
          if (cancelled(cancel)) throw Cancelled();
        },
        [&](const std::vector<gpu::TopswopsChunkResult>& results,
            const std::vector<bool>& finished) { keep(to_partials(results), finished); }};
    return to_partials(
        kernel == GpuKernel::dfs
            ? gpu::topswops_search(work, stop)
            : gpu::topswops_search_lockstep(work, pass_budget, lockstep_kind(kernel), stop));
  };
  const std::vector<Partial> partials =
      search_on_device(plan, deep, target, threads, on_gpu, hand_over);
  for (std::size_t i = 0; i < chunks.size(); ++i) hand_over(i, partials[i]);
  return true;
}

std::uint64_t gpu_lanes_in_flight(int n, GpuKernel kernel) {
  return kernel == GpuKernel::dfs
             ? gpu::topswops_threads_in_flight(n)
             : gpu::topswops_lockstep_lanes_in_flight(n, lockstep_kind(kernel));
}

std::uint64_t gpu_launch_floor(int n, GpuKernel kernel) {
  const std::uint64_t lanes = gpu_lanes_in_flight(n, kernel);
  return kernel == GpuKernel::dfs ? 2 * lanes : lanes;
}

#else

bool run_chunks_gpu(const Plan&, const std::vector<int>&, int, const ChunkDone&, GpuKernel,
                    std::uint64_t, std::uint64_t, int, bool, const Cancel&) {
  throw std::runtime_error("this build of piles has no GPU engine (built without CUDA)");
}

std::uint64_t gpu_lanes_in_flight(int, GpuKernel) {
  return 0;
}

std::uint64_t gpu_launch_floor(int, GpuKernel) {
  return 1;
}

#endif

}  // namespace piles::topswops
