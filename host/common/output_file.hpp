#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace piles {

// Replaces the file's text; std::runtime_error naming the path when the write fails.
void write_text_file(const std::filesystem::path& path, std::string_view text);

// A file a command writes once its work is done (a record, a b-file, a picture). The path is
// tried when the command starts, so that one that cannot be written costs a usage line before
// the work rather than after it; the try truncates nothing, so a file already there keeps its
// text if the work fails or is interrupted.
class OutputFile {
 public:
  // None asked for when `path` is empty; UsageError naming `option` when it cannot be written.
  OutputFile(std::string path, const std::string& option);

  bool wanted() const { return !path_.empty(); }
  void write(std::string_view text) const { write_text_file(path_, text); }

 private:
  std::string path_;
};

}  // namespace piles
