// The journal reader on any file: read_journal, and ChunkJournal opening it to resume and
// appending to it. Bad input may only be refused with UsageError. Each input runs twice: as
// it is (damaged lines, wrong checksums, cut-short files) and with its checksums made right
// (what lies behind the checksum check: keys, JSON, repeated chunks, foreign problems).
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "host/common/checkpoint.hpp"
#include "host/common/error.hpp"
#include "tests/fuzz/support.hpp"

namespace {

using piles::fuzz::require;

// A problem that no seed journal names: resuming any of them as this one must be refused.
const nlohmann::json foreign = {{"game", "none"}, {"n", 5}};

// Resumes `text` as a run of `problem` does: a journal that opens gives the chunks read_journal
// gave (`read`), and after an append (which first drops a cut-short last line) it still reads,
// with the new chunk and every chunk before it.
void resume(const std::string& text, const std::optional<piles::JournalContents>& read,
            const nlohmann::json& problem) {
  const auto path = piles::fuzz::scratch("resumed");
  piles::fuzz::write_file(path, text);
  std::map<std::uint64_t, nlohmann::json> done;
  const nlohmann::json payload = {{"best", 1}};
  std::uint64_t fresh = 0;
  try {
    piles::ChunkJournal journal(path, problem);
    done = journal.done();
    while (done.count(fresh)) ++fresh;
    journal.append(fresh, payload);
  } catch (const piles::UsageError&) {
    require(!read || read->problem != problem, "a journal that reads opens for its problem");
    return;
  }
  if (read) require(done == read->chunks, "the journal resumes the chunks it holds");
  const piles::JournalContents after = piles::read_journal(path);
  require(after.problem == problem, "an appended journal keeps its problem");
  done.emplace(fresh, payload);
  require(after.chunks == done, "an append keeps the chunks before it and adds its own");
}

// A repair leaves a journal that reads, holding the lines before the damage, and the lines it
// took out beside it: the two together are the text it was given.
void repair(const std::string& text) {
  const auto path = piles::fuzz::scratch("repaired");
  const auto aside = piles::fuzz::scratch("repaired.damaged");
  piles::fuzz::write_file(path, text);
  std::filesystem::remove(aside);
  try {
    piles::repair_journal(path);
  } catch (const piles::UsageError&) {
    require(piles::fuzz::read_file(path) == text, "a refused repair leaves the journal alone");
    return;
  }
  require(piles::fuzz::read_file(path) + piles::fuzz::read_file(aside) == text,
          "a repair keeps every byte, in the journal or beside it");
  piles::read_journal(path);
}

void check(const std::string& text) {
  const auto path = piles::fuzz::scratch("journal");
  piles::fuzz::write_file(path, text);
  std::optional<piles::JournalContents> read;
  try {
    read = piles::read_journal(path);
  } catch (const piles::UsageError&) {
  }

  // A journal that reads back writes back: the same problem and chunks, through the writer.
  if (read) {
    const auto copy = piles::fuzz::scratch("copy");
    std::filesystem::remove(copy);
    {
      piles::ChunkJournal journal(copy, read->problem);
      for (const auto& [chunk, payload] : read->chunks) journal.append(chunk, payload);
    }
    const piles::JournalContents again = piles::read_journal(copy);
    require(again.problem == read->problem && again.chunks == read->chunks,
            "a journal read back and written again reads back the same");
  }

  resume(text, read, foreign);
  if (read) resume(text, read, read->problem);
  repair(text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  check(text);
  const std::string fixed = piles::fuzz::fix_checksums(text);
  if (fixed != text) check(fixed);
  return 0;
}
