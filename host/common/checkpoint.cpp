#include "host/common/checkpoint.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <boost/crc.hpp>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_set>
#include <vector>

#include "host/common/error.hpp"
#include "host/common/journal_problem.hpp"
#include "host/common/machine.hpp"
#include "host/common/output.hpp"
#include "host/common/provenance.hpp"

namespace piles {
namespace {

constexpr auto lock_patience = std::chrono::seconds(5);

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

// The journal's text up to its last newline: a line without one was being written when the
// run died.
std::size_t complete_length(const std::string& text) {
  const std::size_t newline = text.rfind('\n');
  return newline == std::string::npos ? 0 : newline + 1;
}

// Only a regular file can be a journal: a device such as /dev/zero would never end.
void require_regular(int fd, const std::filesystem::path& path) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    throw UsageError(fmt::format("{}: not a regular file, so not a journal", path.string()));
}

// The whole text of an open journal. Some files that call themselves regular cannot be read
// (/proc/self/mem): that is said naming the file.
std::string read_all(int fd, const std::filesystem::path& path) {
  std::string text;
  char buffer[1 << 16];
  for (off_t at = 0;;) {
    const ssize_t got = ::pread(fd, buffer, sizeof buffer, at);
    if (got < 0)
      throw UsageError(
          fmt::format("{}: cannot read the journal ({})", path.string(), std::strerror(errno)));
    if (got == 0) return text;
    text.append(buffer, static_cast<std::size_t>(got));
    at += got;
  }
}

// A file descriptor closed when it goes out of scope.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

std::string slurp(const std::filesystem::path& path) {
  const Descriptor in{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (in.fd < 0)
    throw UsageError(
        fmt::format("{}: cannot read the journal ({})", path.string(), std::strerror(errno)));
  require_regular(in.fd, path);
  return read_all(in.fd, path);
}

// Writes the whole line (a write may take part of it), or false with errno set.
bool write_whole(int fd, std::string_view line) {
  while (!line.empty()) {
    const ssize_t put = ::write(fd, line.data(), line.size());
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) {
      if (put == 0) errno = ENOSPC;
      return false;
    }
    line.remove_prefix(static_cast<std::size_t>(put));
  }
  return true;
}

// This process's "run" line: what it is and where it runs, and the caller's `fields`.
nlohmann::json run_line(const nlohmann::json& fields) {
  nlohmann::json run = provenance();
  run.update(fields);
  run["pid"] = static_cast<long long>(::getpid());
  run["started"] = utc_now();
  return run;
}

// Two lines of one chunk agree when their results do: "seconds" says how long a run took.
bool same_result(nlohmann::json a, nlohmann::json b) {
  if (a.is_object() && b.is_object()) {
    a.erase("seconds");
    b.erase("seconds");
  }
  return a == b;
}

// Where a journal's first damaged line starts, for a repair: every line before it reads.
struct Damage {
  std::size_t at = 0;
  int line = 0;  // its number, from 1
};

// With `damage`, the first damaged line after the problem line ends the reading (and is
// recorded there) instead of throwing. A damaged line otherwise names the repair that keeps the
// lines before it.
JournalContents parse_journal(const std::string& text, const std::string& name,
                              std::optional<Damage>* damage = nullptr) {
  JournalContents contents;
  const std::size_t end = complete_length(text);
  std::size_t pos = 0;
  for (int number = 1; pos < end; ++number) {
    const std::size_t newline = text.find('\n', pos);
    const std::string where = fmt::format("{}: line {}", name, number);
    try {
      const Line line = parse_line(std::string_view(text).substr(pos, newline - pos), where);
      if (number == 1) {
        if (line.key != "problem")
          throw UsageError(fmt::format("{}: not a piles journal (no problem line)", where));
        contents.problem = line.value;
      } else if (line.key == "run") {
        contents.runs.push_back(line.value);
      } else {
        const std::uint64_t id = parse_chunk_id(line.key, where);
        const auto [it, fresh] = contents.chunks.emplace(id, line.value);
        if (!fresh && !same_result(it->second, line.value))
          throw UsageError(
              fmt::format("{}: chunk {} appears twice with different results", where, id));
      }
    } catch (const UsageError& e) {
      if (number == 1) throw;
      if (damage) {
        *damage = Damage{pos, number};
        return contents;
      }
      throw UsageError(fmt::format(
          "{}; `piles journal repair {}` keeps the {} before it and sets the rest aside", e.what(),
          name, plural(number - 1, "line")));
    }
    pos = newline + 1;
  }
  if (end > 0 && contents.problem.is_null())
    throw UsageError(fmt::format("{}: not a piles journal", name));
  return contents;
}

// "pid 4242 on node7 since 2026-11-25 12:00:00 UTC": who wrote the journal's last "run" line,
// which is the process that holds it when it is locked (unless the holder resumed it and has
// not finished a chunk yet).
std::string holder(const std::string& text) {
  try {
    const std::vector<nlohmann::json> runs = parse_journal(text, "").runs;
    if (!runs.empty())
      return fmt::format("pid {} on {} since {}", runs.back().at("pid").get<long long>(),
                         runs.back().at("host").get<std::string>(),
                         runs.back().at("started").get<std::string>());
  } catch (const std::exception&) {
  }
  return "which wrote no run line yet";
}

// Takes the lock of the one writer of the journal open on `fd`, or throws UsageError naming
// the process that holds it.
void lock_journal(int fd, const std::filesystem::path& path) {
  const std::string name = path.string();
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  // A run killed a moment ago (a requeued job's first instance) may take a moment to let go.
  const auto give_up = std::chrono::steady_clock::now() + lock_patience;
  int locked = 0;
  while ((locked = ::fcntl(fd, F_OFD_SETLK, &lock)) != 0 && (errno == EAGAIN || errno == EACCES) &&
         std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  if (locked == 0) return;
  if (errno != EAGAIN && errno != EACCES)
    throw UsageError(
        fmt::format("{}: cannot lock the journal ({}), so it cannot be kept safe "
                    "from a second run; put it on a file system with locks",
                    name, std::strerror(errno)));
  throw UsageError(fmt::format(
      "{}: the journal is in use by another piles run ({}); one process at a time writes a "
      "journal",
      name, holder(read_all(fd, path))));
}

}  // namespace

bool journal_begun(const std::string& path) {
  std::error_code error;
  return !path.empty() && std::filesystem::is_regular_file(path, error) &&
         std::filesystem::file_size(path, error) > 0 && !error;
}

JournalContents read_journal(const std::filesystem::path& path) {
  const JournalContents contents = parse_journal(slurp(path), path.string());
  if (contents.problem.is_null()) throw UsageError(fmt::format("{}: empty journal", path.string()));
  return contents;
}

JournalRepair repair_journal(const std::filesystem::path& path) {
  const std::string name = path.string();
  const Descriptor journal{::open(path.c_str(), O_RDWR | O_CLOEXEC)};
  if (journal.fd < 0)
    throw UsageError(fmt::format("{}: cannot open the journal ({})", name, std::strerror(errno)));
  require_regular(journal.fd, path);
  lock_journal(journal.fd, path);
  const std::string text = read_all(journal.fd, path);
  std::optional<Damage> damage;
  const JournalContents contents = parse_journal(text, name, &damage);
  if (contents.problem.is_null()) throw UsageError(fmt::format("{}: empty journal", name));
  JournalRepair repair;
  repair.lines_kept =
      damage ? damage->line - 1 : static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  if (!damage) return repair;
  const std::string_view rest = std::string_view(text).substr(damage->at);
  repair.lines_moved =
      static_cast<int>(std::count(rest.begin(), rest.end(), '\n')) + (rest.back() == '\n' ? 0 : 1);
  repair.aside = path;
  repair.aside += ".damaged";
  // The damaged lines are on disk beside the journal before the journal lets them go.
  const Descriptor aside{
      ::open(repair.aside.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)};
  if (aside.fd < 0 || !write_whole(aside.fd, rest) || ::fsync(aside.fd) != 0)
    throw UsageError(
        fmt::format("{}: cannot be written ({})", repair.aside.string(), std::strerror(errno)));
  if (::ftruncate(journal.fd, static_cast<off_t>(damage->at)) != 0 || ::fsync(journal.fd) != 0)
    throw UsageError(fmt::format("{}: cannot write the journal ({})", name, std::strerror(errno)));
  return repair;
}

namespace {

// The journal opened to append, created where it is absent; UsageError where it cannot be.
int open_to_append(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0 && errno == EISDIR)
    throw UsageError(fmt::format("{}: not a regular file, so not a journal", path.string()));
  if (fd < 0)
    throw UsageError(
        fmt::format("{}: cannot write the journal ({})", path.string(), std::strerror(errno)));
  return fd;
}

}  // namespace

void check_journal_path(const std::filesystem::path& path) {
  const Descriptor journal{open_to_append(path)};
  require_regular(journal.fd, path);
  lock_journal(journal.fd, path);
}

ChunkJournal::ChunkJournal(std::filesystem::path path, nlohmann::json problem,
                           nlohmann::json run_fields)
    : path_(std::move(path)), problem_(std::move(problem)), run_fields_(std::move(run_fields)) {
  fd_ = open_to_append(path_);
  try {
    open_locked();
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

namespace {

// A journal as its one writer took it: its whole lines, and what they hold.
struct TakenJournal {
  std::string lines;
  JournalContents contents;
};

// The journal open on `fd` as its one writer: locked, read, checked against `problem`, and a
// cut-short last line removed.
TakenJournal take_journal(int fd, const std::filesystem::path& path,
                          const nlohmann::json& problem) {
  const std::string name = path.string();
  require_regular(fd, path);
  lock_journal(fd, path);
  TakenJournal taken{read_all(fd, path), {}};
  taken.contents = parse_journal(taken.lines, name);
  if (!taken.contents.problem.is_null() && taken.contents.problem != problem)
    throw UsageError(
        fmt::format("{}: {}", name, problem_mismatch(taken.contents.problem, problem)));
  const std::size_t length = complete_length(taken.lines);
  if (length < taken.lines.size() && ::ftruncate(fd, static_cast<off_t>(length)) != 0)
    throw UsageError(fmt::format("{}: cannot write the journal ({})", name, std::strerror(errno)));
  taken.lines.resize(length);
  return taken;
}

}  // namespace

void ChunkJournal::open_locked() {
  TakenJournal taken = take_journal(fd_, path_, problem_);
  length_ = taken.lines.size();
  done_ = std::move(taken.contents.chunks);
  if (length_ == 0) {
    write_line("problem", problem_);
    write_line("run", run_line(run_fields_));
    run_written_ = true;
  }
}

ChunkJournal::~ChunkJournal() {
  ::fdatasync(fd_);
  ::close(fd_);
}

void ChunkJournal::append(std::uint64_t chunk, const nlohmann::json& payload) {
  std::lock_guard lock(mutex_);
  // A resumed journal gets this run's line with its first chunk: reading back a finished
  // journal leaves it as it was.
  if (!run_written_) {
    write_line("run", run_line(run_fields_));
    run_written_ = true;
  }
  write_line(std::to_string(chunk), payload);
}

bool ChunkJournal::path_names_file() const {
  struct stat named {};
  struct stat held {};
  return ::stat(path_.c_str(), &named) == 0 && ::fstat(fd_, &held) == 0 &&
         named.st_dev == held.st_dev && named.st_ino == held.st_ino;
}

void ChunkJournal::follow_path(const std::string& pending) {
  const std::string name = path_.string();
  const std::string ours = read_all(fd_, path_).substr(0, length_);
  int fd = -1;
  try {
    fd = open_to_append(path_);
    const std::string held_text = take_journal(fd, path_, problem_).lines;
    // Line by line: the problem line (where the file is new) and every run and chunk line the
    // file lacks, in the order this writer wrote them.
    const auto lines = [](std::string_view whole) {
      std::vector<std::string_view> all;
      for (std::size_t at = 0, end = 0; at < whole.size(); at = end) {
        end = whole.find('\n', at) + 1;
        all.push_back(whole.substr(at, end - at));
      }
      return all;
    };
    const std::vector<std::string_view> held_lines = lines(held_text);
    const std::unordered_set<std::string_view> held(held_lines.begin(), held_lines.end());
    std::string missing;
    for (const std::string_view line : lines(ours))
      if (!held.contains(line)) missing += line;
    if (!write_whole(fd, missing))
      throw UsageError(
          fmt::format("{}: cannot write the journal ({})", name, std::strerror(errno)));
    ::close(fd_);
    fd_ = fd;
    length_ = held_text.size() + missing.size();
  } catch (const std::exception& e) {
    if (fd >= 0) ::close(fd);
    failed_ = true;
    Descriptor kept{-1};
    std::string aside;
    for (int k = 1; kept.fd < 0; ++k) {
      aside = name + ".orphaned" + (k == 1 ? "" : fmt::format(".{}", k));
      kept.fd = ::open(aside.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      if (kept.fd < 0 && errno != EEXIST) break;
    }
    const bool saved =
        kept.fd >= 0 && write_whole(kept.fd, ours + pending) && ::fsync(kept.fd) == 0;
    throw std::runtime_error(fmt::format(
        "{} (the path no longer names this run's journal{} {})", e.what(),
        saved ? ": its lines are kept in" : ", and its lines cannot be kept in", aside));
  }
}

void ChunkJournal::write_line(const std::string& key, const nlohmann::json& value) {
  const std::string line = make_line(key, value);
  if (!failed_ && !path_names_file()) follow_path(line);
  // Written at once, so a killed process loses only the line being written; synced to the disk
  // at most once a second, since a sync per chunk would cost more than small chunks do. A
  // crash of the machine can lose that second: whatever half line it leaves is dropped.
  // A write that fails (a full disk) is cut back off, and no line follows it, so the journal
  // keeps every whole line before it.
  if (failed_ || !write_whole(fd_, line)) {
    const std::string why = failed_ ? "an earlier write failed" : std::strerror(errno);
    failed_ = true;
    // Should this fail too, the half line left at the end is dropped when the journal is read.
    if (::ftruncate(fd_, static_cast<off_t>(length_)) != 0) {
    }
    throw std::runtime_error(
        fmt::format("{}: cannot append to the journal: {}", path_.string(), why));
  }
  length_ += line.size();
  const auto now = std::chrono::steady_clock::now();
  if (now - last_sync_ >= std::chrono::seconds(1)) {
    ::fdatasync(fd_);
    last_sync_ = now;
  }
}

}  // namespace piles
