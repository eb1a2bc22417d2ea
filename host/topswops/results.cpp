#include <fmt/format.h>

#include "host/common/output.hpp"
#include "host/results/games.hpp"
#include "host/topswops/play.hpp"

namespace piles::results {

void write_topswops(Writer& writer) {
  // The worked example of seed 002 (and DESIGN.md section 5): n = 5, f(5) = 7.
  const topswops::Game game = topswops::play({3, 1, 4, 5, 2});
  std::string body = "| step | deck |\n|---:|---|\n";
  for (std::size_t i = 0; i < game.trace.size(); ++i)
    body += fmt::format("| {} | {} |\n", i, comma_list(game.trace[i]));
  writer.markdown("topswops/play_example.md", "Topswops: the game from 3,1,4,5,2",
                  "topswops play 3,1,4,5,2", body);
}

}  // namespace piles::results
