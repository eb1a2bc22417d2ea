#pragma once

#include <string>
#include <vector>

#include "host/bulgarian/analysis.hpp"
#include "host/results/writer.hpp"
#include "host/topswops/plan.hpp"

namespace piles::results {

// One writer per game; each adds its tables, b-files and plots under results/<game>/.
void write_topswops(Writer& writer);
// How far the journal of the next Topswops size under the runs folder has come, as FRONTIER.md
// says among what waits ("" where there is none): solve's, or for games ending sorted where that
// is missing, the backward search's.
std::string topswops_under_way(const Writer& writer, topswops::Final final, int n);
void write_bulgarian(Writer& writer);
// The finite variants' tables, and a plot of their longest transients beside the plain game's
// (`plain`: its analyses from n = 1 on); called by write_bulgarian.
void write_bulgarian_variants(Writer& writer, const std::vector<bulgarian::Analysis>& plain);
void write_nim(Writer& writer);
void write_babylon(Writer& writer);

}  // namespace piles::results
