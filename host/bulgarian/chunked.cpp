#include "host/bulgarian/chunked.hpp"

#include <fmt/format.h>

#include <chrono>
#include <memory>
#include <stdexcept>

#include "host/bulgarian/backward.hpp"
#include "host/common/checkpoint.hpp"
#include "host/common/error.hpp"
#include "host/common/partition_table.hpp"
#include "host/common/progress.hpp"

namespace piles::bulgarian {
namespace {

// Subtrees per chunk at the start: enough that chunks of one n weigh about the same.
constexpr std::size_t subtrees_per_chunk = 8;

nlohmann::json counts_to_json(const ForestCounts& c) {
  return {{"histogram", c.histogram}, {"leaves", c.leaves}};
}

ForestCounts counts_from_json(const nlohmann::json& j, const std::string& where) {
  try {
    ForestCounts c;
    c.histogram = j.at("histogram").get<std::vector<std::uint64_t>>();
    c.leaves = j.at("leaves").get<std::uint64_t>();
    return c;
  } catch (const nlohmann::json::exception&) {
    throw UsageError(fmt::format("{}: not a Bulgarian chunk record", where));
  }
}

ForestCounts walk(std::vector<ForestWalker> subtrees, int n, const RunTarget& target) {
  select_device(target);
  if (target.backend == Backend::gpu) return walk_subtrees_gpu(std::move(subtrees), depth_bound(n));
  return walk_subtrees_cpu(std::move(subtrees), depth_bound(n), target.threads, nullptr);
}

}  // namespace

void analyze_chunked(const ChunkedRun& run, const RunTarget& target, bool quiet,
                     const std::function<void(const Analysis&)>& done) {
  if (run.range.first < 1 || run.range.last > analyze_max_n)
    throw UsageError(fmt::format("n = {} is out of range (1..{})",
                                 run.range.first < 1 ? run.range.first : run.range.last,
                                 analyze_max_n));
  const bool root = !run.session || run.session->root();
  const int chunks = run.chunks_per_n;
  std::unique_ptr<ChunkJournal> journal;
  if (root && !run.checkpoint.empty())
    journal =
        std::make_unique<ChunkJournal>(run.checkpoint, nlohmann::json{{"game", "bulgarian"},
                                                                      {"engine", "backward"},
                                                                      {"first", run.range.first},
                                                                      {"last", run.range.last},
                                                                      {"chunks_per_n", chunks}});

  for (int n = static_cast<int>(run.range.first); n <= run.range.last; ++n) {
    const auto start = std::chrono::steady_clock::now();
    // Every rank expands the same top of the forest, so a chunk number names the same subtrees
    // everywhere and only numbers and counts travel.
    ForestTop top = expand_forest(n, subtrees_per_chunk * chunks);
    const std::uint64_t first_id = static_cast<std::uint64_t>(n - run.range.first) * chunks;
    auto slice = [&](std::uint64_t id) {
      const std::size_t c = id - first_id, s = top.subtrees.size();
      return std::vector<ForestWalker>(top.subtrees.begin() + s * c / chunks,
                                       top.subtrees.begin() + s * (c + 1) / chunks);
    };

    ForestCounts counts = top.counts;
    mpi::ChunkWork work;
    for (std::uint64_t id = first_id; id < first_id + chunks; ++id) {
      if (!journal || !journal->done().count(id)) {
        work.todo.push_back(id);
        continue;
      }
      counts.merge(counts_from_json(journal->done().at(id),
                                    fmt::format("{}: chunk {}", run.checkpoint, id)));
    }
    const PartitionTable table(n);
    Progress progress(fmt::format("n = {}", n), table.count(), "partitions", quiet || !root);
    progress.add(counts.nodes());
    work.compute = [&](const std::vector<std::uint64_t>& ids) {
      std::vector<std::string> partials;
      for (std::uint64_t id : ids)
        partials.push_back(counts_to_json(walk(slice(id), n, target)).dump());
      return partials;
    };
    work.collect = [&](std::uint64_t id, const std::string& payload) {
      const nlohmann::json j = nlohmann::json::parse(payload);
      const ForestCounts part = counts_from_json(j, fmt::format("chunk {}", id));
      if (journal) journal->append(id, j);
      progress.add(part.nodes());
      counts.merge(part);
    };
    if (run.session)
      mpi::run_chunks(*run.session, work);
    else
      for (std::uint64_t id : work.todo) work.collect(id, work.compute({id}).front());
    progress.finish();
    if (!root) continue;

    if (counts.nodes() != table.count())
      throw std::runtime_error(fmt::format("n = {}: the chunks visited {} partitions, not {}", n,
                                           counts.nodes(), table.count()));
    Analysis a;
    a.n = n;
    a.partitions = table.count();
    a.engine = Engine::backward;
    a.target = target;
    a.transient_histogram = std::move(counts.histogram);
    a.garden_of_eden = counts.leaves;
    a.cycle_ranks = std::move(top.root_ranks);
    finish_analysis(a);
    a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    done(a);
  }
}

}  // namespace piles::bulgarian
