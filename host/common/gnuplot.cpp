#include "host/common/gnuplot.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "host/common/output_file.hpp"
#include "host/common/program.hpp"

namespace piles {
namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A folder of its own for one drawing, removed with everything in it.
struct ScratchFolder {
  std::filesystem::path path;
  ScratchFolder() {
    std::string name = (std::filesystem::temp_directory_path() / "piles-plot-XXXXXX").string();
    if (!mkdtemp(name.data()))
      throw std::runtime_error(
          fmt::format("cannot make a folder for gnuplot ({})", std::strerror(errno)));
    path = name;
  }
  ~ScratchFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

}  // namespace

std::string svg_from_gnuplot(const std::string& script) {
  const ScratchFolder scratch;
  const auto script_file = scratch.path / "plot.gp", svg_file = scratch.path / "plot.svg",
             complaints = scratch.path / "gnuplot.err";
  write_text_file(script_file, fmt::format("set terminal svg size 800,500 dynamic font 'sans,12'\n"
                                           "set output '{}'\n{}\n",
                                           svg_file.string(), script));
  if (!run_program({"gnuplot", script_file.string()}, "gnuplot", "/dev/null",
                   complaints.string())) {
    std::string why = read_text(complaints);
    why.erase(0, why.find_first_not_of(" \n"));
    throw std::runtime_error(fmt::format("gnuplot failed: {}", why.substr(0, why.find('\n'))));
  }
  return read_text(svg_file);
}

}  // namespace piles
