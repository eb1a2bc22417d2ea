#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <vector>

namespace piles {

// A journal of finished chunks for a run split into numbered chunks (DESIGN.md section 11).
// One line per entry, append-only, each line "<key> <json> <crc32>" with the CRC-32 (8 hex
// digits) of "<key> <json>": first "problem <json>" naming what is computed, then one
// "<chunk id> <payload>" per finished chunk, and a "run <json>" line from every process that
// wrote to it (its provenance: version, commit, host, pid, start), before its first chunk. Every
// append is flushed at once, so a killed run loses at most the chunk it was writing; started again
// on the same file it skips the chunks already there. The payload is whatever the game's partial
// result is; nothing here knows, except that a payload's "seconds" is timing.
struct JournalContents {
  nlohmann::json problem;
  std::map<std::uint64_t, nlohmann::json> chunks;
  std::vector<nlohmann::json> runs;  // the "run" lines, oldest first
};

// Reads and verifies a journal. Throws UsageError naming the file and line when a line is
// damaged (bad checksum, not JSON, chunk listed twice with different results) or the file is
// not a journal. A chunk listed twice with the same result, timing aside, is read once. A last
// line without its newline was cut short by a kill and is ignored.
JournalContents read_journal(const std::filesystem::path& path);

// Whether `path` is a journal some run has begun: a regular file with something in it. A run
// going on with one keeps what it was begun with (its cut, its start); an absent or empty file
// starts afresh, and a folder or device named instead is the journal's own error, reported
// when it is opened.
bool journal_begun(const std::string& path);

// What repair_journal did: the whole lines kept, and where the rest went (empty: nothing was
// damaged).
struct JournalRepair {
  int lines_kept = 0, lines_moved = 0;
  std::filesystem::path aside;
};

// Keeps the journal's lines before its first damaged one and moves that line and every one
// after it to `path` + ".damaged" (appended to what an earlier repair put there), so that a
// resume recomputes those chunks and nothing is lost unseen. Throws UsageError where the
// journal is in use, or where even its problem line is damaged (nothing worth keeping).
JournalRepair repair_journal(const std::filesystem::path& path);

// Refuses `path` as ChunkJournal would before it reads a line (UsageError: a folder or device,
// a file that cannot be written, a journal another process holds), creating it empty where it
// is absent: for a run with work to do before it opens its journal, so that a bad path is said
// at once.
void check_journal_path(const std::filesystem::path& path);

// The one writer of a journal: while it exists it holds a lock on the file (an fcntl lock of
// its open file description, which NFS carries to the server), so a second process that opens
// the same journal to write, on this machine or another, is refused instead of appending
// chunks beside it.
class ChunkJournal {
 public:
  // Opens the journal for `problem`, creating it when the file is absent or empty (with this
  // process's "run" line; a resumed journal gets it with the first chunk appended). An existing
  // journal must verify (see read_journal) and name the same problem, else UsageError; so is a
  // journal another process holds (naming the holder from its last "run" line). A cut-short last
  // line is removed before anything is appended. `run_fields` go into this process's "run" line
  // beside its provenance (a shard's "shard": "I/K").
  ChunkJournal(std::filesystem::path path, nlohmann::json problem,
               nlohmann::json run_fields = nlohmann::json::object());
  ~ChunkJournal();
  ChunkJournal(const ChunkJournal&) = delete;
  ChunkJournal& operator=(const ChunkJournal&) = delete;

  // The chunks finished in earlier runs (appends made through this object are not added).
  const std::map<std::uint64_t, nlohmann::json>& done() const { return done_; }

  // Records one finished chunk and flushes it to disk; safe to call from several threads. A
  // write that fails (a full disk) throws std::runtime_error; the journal then keeps its whole
  // lines and takes no more.
  //
  // Where the path has come to name another file (a checkout or copy put an older journal
  // there) or none (it was removed), the lines go on in the file the path names: this writer
  // locks it and first adds the lines it wrote that the file lacks, so the journal at the path
  // holds every chunk the run finished. Where that file cannot be taken (another problem's
  // journal, one in use), the run's lines are kept aside in `path` + ".orphaned" (".orphaned.2"
  // and on where that exists) and std::runtime_error says where.
  void append(std::uint64_t chunk, const nlohmann::json& payload);

 private:
  void open_locked();
  void write_line(const std::string& key, const nlohmann::json& value);
  bool path_names_file() const;
  void follow_path(const std::string& pending);

  std::filesystem::path path_;
  nlohmann::json problem_;
  std::map<std::uint64_t, nlohmann::json> done_;
  nlohmann::json run_fields_;
  int fd_ = -1;             // holds the lock for as long as it is open
  std::size_t length_ = 0;  // of the journal's whole lines
  bool failed_ = false;     // a write failed: nothing more is appended
  bool run_written_ = false;
  std::chrono::steady_clock::time_point last_sync_{};
  std::mutex mutex_;
};

}  // namespace piles
