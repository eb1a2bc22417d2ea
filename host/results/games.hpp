#pragma once

#include "host/results/writer.hpp"

namespace piles::results {

// One writer per game; each adds its tables, b-files and plots under results/<game>/.
void write_topswops(Writer& writer);
void write_bulgarian(Writer& writer);
void write_nim(Writer& writer);
void write_babylon(Writer& writer);

}  // namespace piles::results
