#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "host/common/backend.hpp"

namespace piles::results {

// Writes the files under results/ and remembers what each one is, for the index.
// Every file names how it was made: command, version, backend, device, threads, date.
class Writer {
 public:
  Writer(std::filesystem::path dir, std::string preset, RunTarget target, bool quiet);

  bool full() const { return preset_ == "full"; }
  const std::string& preset() const { return preset_; }
  const RunTarget& target() const { return target_; }
  bool quiet() const { return quiet_; }

  // One line: "piles results --preset quick (<what>); piles 0.1.0; backend cpu; ...".
  std::string provenance(std::string_view what) const;

  // Markdown: a title, the provenance in italics, then the body.
  void markdown(const std::string& file, const std::string& title, std::string_view what,
                const std::string& body);
  // Text formats with line comments (CSV, b-files, gnuplot data): provenance as '# ' lines.
  void commented(const std::string& file, const std::string& description, std::string_view what,
                 const std::string& body);
  // An SVG plot drawn by gnuplot from `script` (which must not set the terminal or output).
  void plot(const std::string& file, const std::string& description, const std::string& script);

  // A file another program writes (a Graphviz picture): creates its folder, lists it in the
  // index, and returns where to write it.
  std::filesystem::path external(const std::string& file, const std::string& description);

  // results/README.md listing every file written in this run.
  void write_index() const;

 private:
  std::filesystem::path dir_;
  std::string preset_;
  RunTarget target_;
  bool quiet_;
  std::string date_;
  std::vector<std::pair<std::string, std::string>> written_;
};

}  // namespace piles::results
