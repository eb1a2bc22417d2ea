#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/execution_policy.h>
#include <thrust/gather.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scatter.h>
#include <thrust/tabulate.h>
#include <thrust/transform.h>

#include "kernels/bulgarian_generic.hpp"
#include "kernels/device_buffer.cuh"
#include "kernels/forward_passes.cuh"

namespace piles::gpu {
namespace {

using forward::begin;
using forward::end;

template <class Game>
struct SuccessorOf {
  Game game;
  __device__ std::uint32_t operator()(std::uint64_t r) const { return game.successor(r); }
};

struct IsMarked {
  __device__ bool operator()(std::uint8_t mark) const { return mark != 0; }
};

struct DepthOfMark {
  __device__ std::uint16_t operator()(std::uint8_t mark) const {
    return mark ? 0 : bulgarian::unknown_depth;
  }
};

// A table of the host's, copied to the device for the game's view.
DeviceBuffer<std::uint64_t> on_device(partition::CountView table) {
  DeviceBuffer<std::uint64_t> d(partition::CountView::row_start(table.n + 1));
  d.copy_from(table.data, d.size());
  return d;
}

template <class Policy>
std::uint64_t mark_image(const Policy& policy, DeviceBuffer<std::uint32_t>& map,
                         DeviceBuffer<std::uint8_t>& marks) {
  marks.fill_zero();
  thrust::scatter(policy, thrust::constant_iterator<std::uint8_t>(1),
                  thrust::constant_iterator<std::uint8_t>(1) + map.size(), begin(map),
                  begin(marks));
  return thrust::count(policy, begin(marks), end(marks), std::uint8_t{1});
}

// `game` reads device memory.
template <class Game>
bulgarian::ForwardCounts run(const Game& game, std::uint64_t count) {
  bulgarian::ForwardCounts out;
  forward::ScratchAllocator scratch_memory;
  const auto policy = thrust::cuda::par(scratch_memory);

  DeviceBuffer<std::uint32_t> succ(count);
  thrust::tabulate(policy, begin(succ), end(succ), SuccessorOf<Game>{game});

  // The images of succ^(2^j) shrink to the states on cycles and stay there once one round
  // leaves them as they were.
  DeviceBuffer<std::uint8_t> marks(count);
  std::uint64_t image = mark_image(policy, succ, marks);
  out.garden_of_eden = count - image;
  {
    DeviceBuffer<std::uint32_t> jump(count), scratch(count);
    thrust::copy(policy, begin(succ), end(succ), begin(jump));
    for (;;) {
      thrust::gather(policy, begin(jump), end(jump), begin(jump), begin(scratch));
      std::swap(jump, scratch);
      const std::uint64_t smaller = mark_image(policy, jump, marks);
      if (smaller == image) break;
      image = smaller;
    }
  }

  DeviceBuffer<std::uint16_t> depth(count);
  thrust::transform(policy, begin(marks), end(marks), begin(depth), DepthOfMark{});
  {
    DeviceBuffer<std::uint64_t> cycle_ranks(image);
    thrust::copy_if(policy, thrust::counting_iterator<std::uint64_t>(0),
                    thrust::counting_iterator<std::uint64_t>(count), begin(marks),
                    begin(cycle_ranks), IsMarked{});
    out.cycle_ranks = cycle_ranks.to_host();
  }
  marks = DeviceBuffer<std::uint8_t>();
  out.histogram.push_back(image);

  forward::level_passes(succ, depth, count, out.histogram);
  return out;
}

}  // namespace

bulgarian::ForwardCounts generic_forward(const bulgarian::PlainGame& game) {
  const DeviceBuffer<std::uint64_t> table = on_device(game.table);
  return run(bulgarian::PlainGame{{table.data(), game.table.n}}, game.count());
}

bulgarian::ForwardCounts generic_forward(const bulgarian::CarolinaGame& game) {
  return run(game, game.count());
}

bulgarian::ForwardCounts generic_forward(const bulgarian::MultiplayerGame& game) {
  const DeviceBuffer<std::uint64_t> table = on_device(game.table);
  const int n = game.table.n;
  DeviceBuffer<std::uint64_t> tuples((game.players + 1) * (n + 1));
  tuples.copy_from(game.tuples, tuples.size());
  return run(bulgarian::MultiplayerGame{{table.data(), n}, tuples.data(), game.players},
             game.count());
}

bulgarian::ForwardCounts generic_forward(const bulgarian::AustrianGame& game) {
  const DeviceBuffer<std::uint64_t> table = on_device(game.table);
  return run(bulgarian::AustrianGame{{table.data(), game.table.n}, game.limit}, game.count());
}

}  // namespace piles::gpu
