#pragma once

#include "core/bulgarian_games.hpp"
#include "kernels/bulgarian_forward.hpp"

namespace piles::gpu {

// The generic forward engine on the GPU, the steps of bulgarian::generic_cpu: successors by
// rank and unrank, pointer doubling until the image of the jumps stops shrinking, the states
// outside the successors' image, depths by level passes. The games' tables are host memory
// and are copied to the device here.
bulgarian::ForwardCounts generic_forward(const bulgarian::PlainGame& game);
bulgarian::ForwardCounts generic_forward(const bulgarian::CarolinaGame& game);
bulgarian::ForwardCounts generic_forward(const bulgarian::MultiplayerGame& game);
bulgarian::ForwardCounts generic_forward(const bulgarian::AustrianGame& game);

}  // namespace piles::gpu
