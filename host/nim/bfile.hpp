#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace piles::nim {

// OEIS b-files of single-pile values: "n G(n)" lines for n = 1, 2, ..., with '#' comment lines.

// The lines for values (element i is G(i + 1)), without comments.
std::string bfile_lines(const std::vector<std::uint32_t>& values);

// The values a b-file lists. Throws UsageError naming the file and line when it cannot be
// read, or a line is not "n value" with n one more than the line before (from 1).
std::vector<std::uint32_t> read_bfile(const std::string& path);

}  // namespace piles::nim
