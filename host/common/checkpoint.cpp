#include "host/common/checkpoint.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <boost/crc.hpp>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>

#include "host/common/error.hpp"

namespace piles {
namespace {

std::uint32_t crc32(std::string_view text) {
  boost::crc_32_type crc;
  crc.process_bytes(text.data(), text.size());
  return crc.checksum();
}

std::string make_line(const std::string& key, const nlohmann::json& value) {
  const std::string body = key + " " + value.dump();
  return fmt::format("{} {:08x}\n", body, crc32(body));
}

// Every payload nests a few levels (Topswops: object, array of decks, deck object, cards).
// Copying, comparing and printing JSON recurse once per level, so a line nested thousands deep
// would overflow the stack: such a line is refused as it is read.
constexpr int max_json_depth = 16;

struct Line {
  std::string key;
  nlohmann::json value;
};

// Splits "<key> <json> <crc>" and checks the CRC; throws UsageError naming where.
Line parse_line(std::string_view text, const std::string& where) {
  const std::size_t first = text.find(' '), last = text.rfind(' ');
  if (first == std::string_view::npos || first == last)
    throw UsageError(fmt::format("{}: damaged line (not '<key> <json> <checksum>')", where));
  const std::string_view body = text.substr(0, last), crc_text = text.substr(last + 1);
  if (crc_text != fmt::format("{:08x}", crc32(body)))
    throw UsageError(fmt::format("{}: checksum mismatch, the journal is damaged", where));
  Line line{std::string(text.substr(0, first)), {}};
  const auto shallow = [&](int depth, nlohmann::json::parse_event_t, const nlohmann::json&) {
    if (depth > max_json_depth)
      throw UsageError(fmt::format("{}: payload nested more than {} deep", where, max_json_depth));
    return true;
  };
  try {
    line.value = nlohmann::json::parse(body.substr(first + 1), shallow);
  } catch (const nlohmann::json::exception&) {
    throw UsageError(fmt::format("{}: payload is not JSON", where));
  }
  return line;
}

std::uint64_t parse_chunk_id(const std::string& key, const std::string& where) {
  std::size_t used = 0;
  std::uint64_t id = 0;
  try {
    id = std::stoull(key, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != key.size() || key.empty() || key[0] == '-')
    throw UsageError(fmt::format("{}: '{}' is not a chunk number", where, key));
  return id;
}

// Only a regular file can be a journal: a device such as /dev/zero would never end.
std::string slurp(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    throw UsageError(fmt::format("{}: not a regular file, so not a journal", path.string()));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(fmt::format("{}: cannot read the journal", path.string()));
  // Some files that call themselves regular cannot be read (/proc/self/mem): the library
  // throws its own message, which would name neither the file nor the flag.
  try {
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  } catch (const std::exception&) {
    throw UsageError(fmt::format("{}: cannot read the journal (reading it fails)", path.string()));
  }
}

// The journal's text up to its last newline: a line without one was being written when the
// run died.
std::size_t complete_length(const std::string& text) {
  const std::size_t newline = text.rfind('\n');
  return newline == std::string::npos ? 0 : newline + 1;
}

JournalContents parse_journal(const std::string& text, const std::string& name) {
  JournalContents contents;
  const std::size_t end = complete_length(text);
  std::size_t pos = 0;
  for (int number = 1; pos < end; ++number) {
    const std::size_t newline = text.find('\n', pos);
    const std::string where = fmt::format("{}: line {}", name, number);
    const Line line = parse_line(std::string_view(text).substr(pos, newline - pos), where);
    pos = newline + 1;
    if (number == 1) {
      if (line.key != "problem")
        throw UsageError(fmt::format("{}: not a piles journal (no problem line)", where));
      contents.problem = line.value;
      continue;
    }
    const std::uint64_t id = parse_chunk_id(line.key, where);
    const auto [it, fresh] = contents.chunks.emplace(id, line.value);
    if (!fresh && it->second != line.value)
      throw UsageError(fmt::format("{}: chunk {} appears twice with different results", where, id));
  }
  if (end > 0 && contents.problem.is_null())
    throw UsageError(fmt::format("{}: not a piles journal", name));
  return contents;
}

}  // namespace

JournalContents read_journal(const std::filesystem::path& path) {
  const JournalContents contents = parse_journal(slurp(path), path.string());
  if (contents.problem.is_null()) throw UsageError(fmt::format("{}: empty journal", path.string()));
  return contents;
}

ChunkJournal::ChunkJournal(std::filesystem::path path, nlohmann::json problem)
    : path_(std::move(path)) {
  std::error_code ec;
  const bool exists = std::filesystem::exists(path_, ec);
  std::size_t keep = 0;
  if (exists) {
    const std::string text = slurp(path_);
    JournalContents contents = parse_journal(text, path_.string());
    if (!contents.problem.is_null() && contents.problem != problem)
      throw UsageError(
          fmt::format("{}: the journal was written for a different problem ({}), not this one ({})",
                      path_.string(), contents.problem.dump(), problem.dump()));
    done_ = std::move(contents.chunks);
    keep = complete_length(text);
    if (keep < text.size()) std::filesystem::resize_file(path_, keep, ec);
    if (ec)
      throw UsageError(
          fmt::format("{}: cannot write the journal ({})", path_.string(), ec.message()));
  }
  file_ = std::fopen(path_.c_str(), "ab");
  if (!file_) throw UsageError(fmt::format("{}: cannot write the journal", path_.string()));
  // Unbuffered: each line goes to the file in one write, and nothing of a line that failed
  // stays behind in a buffer to be written later.
  std::setvbuf(file_, nullptr, _IONBF, 0);
  length_ = keep;
  if (keep == 0) write_line("problem", problem);
}

ChunkJournal::~ChunkJournal() {
  if (!file_) return;
  ::fdatasync(::fileno(file_));
  std::fclose(file_);
}

void ChunkJournal::append(std::uint64_t chunk, const nlohmann::json& payload) {
  std::lock_guard lock(mutex_);
  write_line(std::to_string(chunk), payload);
}

void ChunkJournal::write_line(const std::string& key, const nlohmann::json& value) {
  const std::string line = make_line(key, value);
  // Written at once, so a killed process loses only the line being written; synced to the disk
  // at most once a second, since a sync per chunk would cost more than small chunks do. A
  // crash of the machine can lose that second: whatever half line it leaves is dropped.
  // A write that fails (a full disk) is cut back off, and no line follows it, so the journal
  // keeps every whole line before it.
  if (failed_ || std::fwrite(line.data(), 1, line.size(), file_) != line.size()) {
    const std::string why = failed_ ? "an earlier write failed" : std::strerror(errno);
    failed_ = true;
    // Should this fail too, the half line left at the end is dropped when the journal is read.
    if (::ftruncate(::fileno(file_), static_cast<off_t>(length_)) != 0) {
    }
    throw std::runtime_error(
        fmt::format("{}: cannot append to the journal: {}", path_.string(), why));
  }
  length_ += line.size();
  const auto now = std::chrono::steady_clock::now();
  if (now - last_sync_ >= std::chrono::seconds(1)) {
    ::fdatasync(::fileno(file_));
    last_sync_ = now;
  }
}

}  // namespace piles
