#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>

namespace piles {

// A journal of finished chunks for a run split into numbered chunks (DESIGN.md section 11).
// One line per entry, append-only, each line "<key> <json> <crc32>" with the CRC-32 (8 hex
// digits) of "<key> <json>": first "problem <json>" naming what is computed, then one
// "<chunk id> <payload>" per finished chunk. Every append is flushed at once, so a killed run
// loses at most the chunk it was writing; started again on the same file it skips the chunks
// already there. The payload is whatever the game's partial result is; nothing here knows.
struct JournalContents {
  nlohmann::json problem;
  std::map<std::uint64_t, nlohmann::json> chunks;
};

// Reads and verifies a journal. Throws UsageError naming the file and line when a line is
// damaged (bad checksum, not JSON, chunk listed twice with different results) or the file is
// not a journal. A last line without its newline was cut short by a kill and is ignored.
JournalContents read_journal(const std::filesystem::path& path);

class ChunkJournal {
 public:
  // Opens the journal for `problem`, creating it when the file is absent or empty. An
  // existing journal must verify (see read_journal) and name the same problem, else
  // UsageError. A cut-short last line is removed before anything is appended.
  ChunkJournal(std::filesystem::path path, nlohmann::json problem);
  ~ChunkJournal();
  ChunkJournal(const ChunkJournal&) = delete;
  ChunkJournal& operator=(const ChunkJournal&) = delete;

  // The chunks finished in earlier runs (appends made through this object are not added).
  const std::map<std::uint64_t, nlohmann::json>& done() const { return done_; }

  // Records one finished chunk and flushes it to disk; safe to call from several threads. A
  // write that fails (a full disk) throws std::runtime_error; the journal then keeps its whole
  // lines and takes no more.
  void append(std::uint64_t chunk, const nlohmann::json& payload);

 private:
  void write_line(const std::string& key, const nlohmann::json& value);

  std::filesystem::path path_;
  std::map<std::uint64_t, nlohmann::json> done_;
  std::FILE* file_ = nullptr;
  std::size_t length_ = 0;  // of the journal's whole lines
  bool failed_ = false;     // a write failed: nothing more is appended
  std::chrono::steady_clock::time_point last_sync_{};
  std::mutex mutex_;
};

}  // namespace piles
