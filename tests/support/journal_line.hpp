#pragma once

#include <fmt/format.h>

#include <boost/crc.hpp>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "tests/support/temp_dir.hpp"

namespace piles::testing {

// "<body> <crc32>\n": a journal line as piles writes it, for tests that edit a journal and must
// get past its checksums to reach what lies behind them.
inline std::string journal_line(const std::string& body) {
  boost::crc_32_type crc;
  crc.process_bytes(body.data(), body.size());
  return fmt::format("{} {:08x}\n", body, crc.checksum());
}

// The journal's text with `from` replaced by `to` on every line that holds it, each such line
// given its checksum again.
inline std::string edit_journal(const std::string& text, const std::string& from,
                                const std::string& to) {
  std::string out;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t end = text.find('\n', pos);
    std::string line = text.substr(pos, end - pos);
    pos = end == std::string::npos ? text.size() : end + 1;
    const std::size_t at = line.find(from);
    if (at == std::string::npos) {
      out += line + "\n";
      continue;
    }
    line.replace(at, from.size(), to);
    out += journal_line(line.substr(0, line.rfind(' ')));
  }
  return out;
}

// Cuts a journal back to the chunks `keep` says, as if its run had stopped with only those done;
// its problem and run lines stay.
inline void keep_journal_chunks(const std::string& journal, const std::function<bool(int)>& keep) {
  std::string cut;
  std::istringstream lines(slurp(journal));
  for (std::string line; std::getline(lines, line);) {
    const std::string key = line.substr(0, line.find(' '));
    if (key == "problem" || key == "run" || keep(std::stoi(key))) cut += line + "\n";
  }
  std::ofstream(journal, std::ios::trunc) << cut;
}

}  // namespace piles::testing
