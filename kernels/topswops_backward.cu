#include <cuda_runtime.h>

#include "core/topswops_backward.hpp"
#include "kernels/cuda_check.cuh"
#include "kernels/device_buffer.cuh"
#include "kernels/launch.cuh"
#include "kernels/topswops_backward.hpp"
#include "kernels/topswops_sink.cuh"

namespace piles::gpu {
namespace {

namespace backward = topswops::backward;
using topswops::Deck;
using topswops::max_n;
using topswops_sink::ChunkTotals;
using topswops_sink::DeviceSink;
using topswops_sink::Totals;

constexpr int block_threads = 128;

template <int W>
struct PassLaunch {
  int n, target;
  backward::Prune prune;
  const std::int32_t* longest;
  std::uint64_t budget;
  Totals<W> totals;
};

// A lane's games: each chunk's longest, by the sink the forward kernels use, ending sorted.
template <int W>
struct Keep {
  DeviceSink<W> sink;
  Deck<W> sorted;
  __device__ __forceinline__ void operator()(int steps, const Deck<W>& deck) {
    sink.leaf(steps, deck, sorted);
  }
};

// A thread an item: its search from its cursor for the pass's budget, the cursor written back.
template <int W>
__global__ void __launch_bounds__(block_threads)
    backward_pass(PassLaunch<W> a, BackwardItem<W>* items, std::uint8_t* finished,
                  std::uint64_t count) {
  __shared__ std::int32_t longest[max_n + 1];
  for (int i = threadIdx.x; i <= a.n; i += blockDim.x) longest[i] = a.longest[i];
  __syncthreads();
  const backward::Problem problem{a.n, longest, a.prune};
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
    BackwardItem<W> item = items[i];
    Keep<W> keep{{item.slot, a.target, a.totals}, topswops::sorted_deck<W>(a.n)};
    std::uint64_t nodes[max_n] = {};
    finished[i] = backward::search_for(problem, item.at, a.target, a.budget, nodes, keep);
    items[i].at = item.at;
    unsigned long long* chunk_nodes = a.totals.nodes + item.slot * max_n;
    for (int l = 0; l < a.n; ++l)
      if (nodes[l]) atomicAdd(&chunk_nodes[l], static_cast<unsigned long long>(nodes[l]));
  }
}

template <int W>
class DevicePasses final : public BackwardPasses<W> {
 public:
  DevicePasses(const backward::Problem& problem, int target, std::uint32_t slots,
               std::uint64_t found_capacity)
      : n_(problem.n),
        target_(target),
        prune_(problem.prune),
        longest_(std::vector<std::int32_t>(problem.longest, problem.longest + problem.n + 1)),
        totals_(static_cast<int>(slots), std::max<std::uint64_t>(found_capacity, 1)),
        lanes_(resident_blocks(backward_pass<W>, block_threads) * block_threads) {}

  void pass(std::vector<BackwardItem<W>>& items, std::uint64_t budget,
            std::vector<std::uint8_t>& finished) override {
    finished.assign(items.size(), 0);
    if (items.empty()) return;
    // The buffers of the largest pass so far, kept for the passes after it.
    if (items_.size() < items.size()) {
      items_ = DeviceBuffer<BackwardItem<W>>(items.size());
      finished_ = DeviceBuffer<std::uint8_t>(items.size());
    }
    items_.copy_from(items.data(), items.size());
    const PassLaunch<W> a{n_, target_, prune_, longest_.data(), budget, totals_.view()};
    backward_pass<W><<<grid_stride_blocks(items.size(), block_threads), block_threads>>>(
        a, items_.data(), finished_.data(), items.size());
    PILES_CUDA_CHECK_LAUNCH();
    PILES_CUDA_CHECK(cudaDeviceSynchronize());
    items_.copy_to(items.data(), items.size());
    finished_.copy_to(finished.data(), finished.size());
  }

  std::vector<TopswopsChunkResult> collect() override {
    std::vector<bool> overflowed;
    return totals_.collect(n_, overflowed);
  }

  std::size_t lanes() const override { return lanes_; }

 private:
  int n_, target_;
  backward::Prune prune_;
  DeviceBuffer<std::int32_t> longest_;
  ChunkTotals<W> totals_;
  std::size_t lanes_;
  DeviceBuffer<BackwardItem<W>> items_;
  DeviceBuffer<std::uint8_t> finished_;
};

}  // namespace

template <int W>
std::unique_ptr<BackwardPasses<W>> device_backward_passes(
    const topswops::backward::Problem& problem, int target, std::uint32_t slots,
    std::uint64_t found_capacity) {
  return std::make_unique<DevicePasses<W>>(problem, target, slots, found_capacity);
}

template std::unique_ptr<BackwardPasses<2>> device_backward_passes<2>(
    const topswops::backward::Problem&, int, std::uint32_t, std::uint64_t);
template std::unique_ptr<BackwardPasses<3>> device_backward_passes<3>(
    const topswops::backward::Problem&, int, std::uint32_t, std::uint64_t);

}  // namespace piles::gpu
