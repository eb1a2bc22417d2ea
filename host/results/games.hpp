#pragma once

#include <vector>

#include "host/bulgarian/analysis.hpp"
#include "host/results/writer.hpp"

namespace piles::results {

// One writer per game; each adds its tables, b-files and plots under results/<game>/.
void write_topswops(Writer& writer);
void write_bulgarian(Writer& writer);
// The finite variants' tables, and a plot of their longest transients beside the plain game's
// (`plain`: its analyses from n = 1 on); called by write_bulgarian.
void write_bulgarian_variants(Writer& writer, const std::vector<bulgarian::Analysis>& plain);
void write_nim(Writer& writer);
void write_babylon(Writer& writer);

}  // namespace piles::results
