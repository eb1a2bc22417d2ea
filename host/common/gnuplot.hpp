#pragma once

#include <string>

namespace piles {

// Draws a gnuplot script (data and plot commands, no terminal or output) as an SVG of 800x500
// and returns its text. gnuplot writes to a temporary file, so none of the picture reaches
// stdout whatever happens; a failure throws std::runtime_error with gnuplot's first complaint.
std::string svg_from_gnuplot(const std::string& script);

}  // namespace piles
