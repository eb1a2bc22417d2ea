#include <fmt/format.h>

#include "host/bulgarian/trace.hpp"
#include "host/common/output.hpp"
#include "host/results/games.hpp"

namespace piles::results {

void write_bulgarian(Writer& writer) {
  // The four starts of seed 001, Table 1.
  std::string body;
  for (const std::vector<int>& start :
       {std::vector<int>{4, 1, 1}, {8, 4, 3}, {5, 2, 2}, {7, 5, 2}}) {
    const bulgarian::Trace t = bulgarian::trace(start);
    body += fmt::format("## {}\n\ntransient {}, cycle length {}\n\n", paren_list(start),
                        t.transient, t.cycle_length);
    for (std::size_t i = 0; i < t.partitions.size(); ++i)
      body += fmt::format("{}. {}\n", i, paren_list(t.partitions[i]));
    body += "\n";
  }
  writer.markdown("bulgarian/traces.md", "Bulgarian solitaire: the traces of seed 001, Table 1",
                  "bulgarian trace 4,1,1 / 8,4,3 / 5,2,2 / 7,5,2", body);
}

}  // namespace piles::results
