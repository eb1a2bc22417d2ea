// Bulgarian solitaire checks: p(n), the Garden-of-Eden count (Hopkins and Sellers) and the
// longest transient (Griggs and Ho, checked by them up to n = 36) on every engine; larger n,
// the variants, successors and the stochastic game against the CPU in the same run (GPU) or
// against brute force and the triangle's theorem (CPU).
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "core/bulgarian.hpp"
#include "host/bulgarian/analysis.hpp"
#include "host/bulgarian/stochastic.hpp"
#include "host/bulgarian/successor.hpp"
#include "host/bulgarian/variant_analysis.hpp"
#include "host/bulgarian/variants.hpp"
#include "host/common/partition_table.hpp"
#include "host/selftest/selftest.hpp"
#ifdef PILES_HAVE_CUDA
#include "kernels/bulgarian_successor.hpp"
#endif

namespace piles::selftest {
namespace {

namespace bg = bulgarian;

// The n whose longest transient Griggs and Ho checked by computer (their formula starts at 3).
constexpr int griggs_ho_first = 3, griggs_ho_checked = 36;

std::string backend_prefix(const RunTarget& target) {
  return std::string("bulgarian/") + backend_name(target.backend) + "-";
}

std::string structure(const bg::Analysis& a) {
  return fmt::format("p {} cycles {} D {} x{} GoE {}", a.partitions, a.cycles, a.max_transient(),
                     a.max_transient_count(), a.garden_of_eden);
}

Check published_values(bg::Engine engine, const RunTarget& target) {
  return {backend_prefix(target) + bg::engine_name(engine),
          fmt::format("p(n), Garden of Eden, D(n), n = {}..{}", griggs_ho_first, griggs_ho_checked),
          [=] {
            std::vector<Compared> each;
            for (int n = griggs_ho_first; n <= griggs_ho_checked; ++n) {
              const bg::Analysis a = bg::analyze(n, engine, target);
              each.push_back({fmt::format("p {} GoE {} D {}", partition_count(n),
                                          bg::hopkins_sellers(n), bg::griggs_ho(n)),
                              fmt::format("p {} GoE {} D {}", a.partitions, a.garden_of_eden,
                                          a.max_transient())});
            }
            return compare_each(each, griggs_ho_first);
          }};
}

// The whole structure of each n in [first, last] from `engine` on the target and from
// `reference` on the CPU.
Check like_reference(bg::Engine engine, bg::Engine reference, int first, int last,
                     const RunTarget& target, const bg::BackwardOptions& backward = {}) {
  return {backend_prefix(target) + bg::engine_name(engine),
          fmt::format("n = {}..{} against the CPU's {} engine", first, last,
                      bg::engine_name(reference)),
          [=] {
            std::vector<Compared> each;
            for (int n = first; n <= last; ++n)
              each.push_back({structure(bg::analyze(n, reference, target.on_host())),
                              structure(bg::analyze(n, engine, target, nullptr, backward))});
            return compare_each(each, first);
          }};
}

// Every composition of n (Carolina's states) played out one by one.
bg::Analysis carolina_by_brute_force(int n) {
  const bg::Variant carolina = bg::parse_variant("carolina");
  bg::Analysis a;
  std::set<std::vector<int>> images;
  double cycles = 0;
  int longest = 0;
  std::uint64_t longest_count = 0;
  for (std::uint64_t cuts = 0; cuts < (std::uint64_t{1} << (n - 1)); ++cuts) {
    std::vector<int> piles{1};
    for (int i = 0; i < n - 1; ++i)
      if (cuts >> i & 1)
        piles.push_back(1);
      else
        ++piles.back();
    const bg::Trace t = bg::trace_variant(carolina, piles);
    ++a.partitions;
    images.insert(t.partitions[t.partitions.size() > 1 ? 1 : 0]);  // one entry: a fixed point
    if (t.transient == 0) cycles += 1.0 / static_cast<double>(t.cycle_length);
    if (t.transient > longest) longest = static_cast<int>(t.transient), longest_count = 0;
    if (t.transient == longest) ++longest_count;
  }
  a.cycles = static_cast<std::uint64_t>(cycles + 0.5);
  a.transient_histogram.assign(longest + 1, 0);
  a.transient_histogram.back() = longest_count;
  a.garden_of_eden = a.partitions - images.size();
  return a;
}

Check variants(const RunTarget& target) {
  if (target.backend == Backend::cpu)
    return {backend_prefix(target) + "generic", "--variant carolina, n = 1..12, by brute force",
            [=] {
              std::vector<Compared> each;
              for (int n = 1; n <= 12; ++n)
                each.push_back(
                    {structure(carolina_by_brute_force(n)),
                     structure(bg::analyze_variant(n, bg::parse_variant("carolina"), target))});
              return compare_each(each, 1);
            }};
  return {backend_prefix(target) + "generic",
          "carolina, austrian:3, multiplayer:2 at n = 12 against the CPU", [=] {
            std::vector<Compared> each;
            for (const char* name : {"carolina", "austrian:3", "multiplayer:2"}) {
              const bg::Variant v = bg::parse_variant(name);
              each.push_back({structure(bg::analyze_variant(12, v, target.on_host())),
                              structure(bg::analyze_variant(12, v, target))});
            }
            return compare_each(each, 0);
          }};
}

// B on plain vectors, and ranks as the lexicographic order of every partition listed.
std::vector<std::uint64_t> successors_by_brute_force(int n) {
  std::vector<std::vector<int>> all;
  const std::function<void(std::vector<int>&, int, int)> list = [&](std::vector<int>& p, int rest,
                                                                    int cap) {
    if (rest == 0) return all.push_back(p);
    for (int v = 1; v <= std::min(rest, cap); ++v) {
      p.push_back(v);
      list(p, rest - v, v);
      p.pop_back();
    }
  };
  std::vector<int> scratch;
  list(scratch, n, n);
  std::sort(all.begin(), all.end());
  std::map<std::vector<int>, std::uint64_t> rank;
  for (std::size_t i = 0; i < all.size(); ++i) rank[all[i]] = i;
  std::vector<std::uint64_t> next;
  for (const std::vector<int>& p : all) {
    std::vector<int> moved{static_cast<int>(p.size())};
    for (int part : p)
      if (part > 1) moved.push_back(part - 1);
    std::sort(moved.rbegin(), moved.rend());
    next.push_back(rank.at(moved));
  }
  return next;
}

Check successors(const RunTarget& target) {
  constexpr int n = 40;
  return {backend_prefix(target) + "successors", fmt::format("B of every partition of {}", n), [=] {
            const PartitionTable table(n);
            std::vector<std::uint64_t> expected, got;
            if (target.backend == Backend::gpu) {
              expected = bg::successors_cpu(table, 0, table.count(), target.threads);
#ifdef PILES_HAVE_CUDA
              got = gpu::bulgarian_successors(table.view(), 0, table.count());
#endif
            } else {
              expected = successors_by_brute_force(n);
              got = bg::successors_cpu(table, 0, table.count(), target.threads);
            }
            std::vector<Compared> each;
            for (std::size_t r = 0; r < std::max(expected.size(), got.size()); ++r)
              each.push_back({r < expected.size() ? std::to_string(expected[r]) : "none",
                              r < got.size() ? std::to_string(got[r]) : "none"});
            return compare_each(each, 0);
          }};
}

Check stochastic(const RunTarget& target) {
  if (target.backend == Backend::cpu)
    // With p = 1 every chain is the plain game, which takes every partition of a triangular
    // number to the triangle (Igusa, Etienne) within its longest transient.
    return {backend_prefix(target) + "random", "p = 1 from (21): the triangle (6, 5, .., 1)", [=] {
              const bg::RandomResult r =
                  bg::run_random({.start = {21}, .p = 1, .runs = 64, .steps = 100}, target);
              return Compared{"0", fmt::format("{}", r.distance_to_triangle())};
            }};
  return {backend_prefix(target) + "random", "p = 0.3 from (30): same seed, same chains", [=] {
            const bg::RandomSpec spec{
                .start = {30}, .p = 0.3, .runs = 4096, .steps = 500, .seed = 7};
            const auto text = [](const bg::RandomResult& r) {
              return fmt::format("shape {} piles {}", joined(r.shape_sums), r.pile_sum);
            };
            return Compared{text(bg::run_random(spec, target.on_host())),
                            text(bg::run_random(spec, target))};
          }};
}

}  // namespace

std::vector<Check> bulgarian_checks(const RunTarget& target) {
  std::vector<Check> checks;
  for (const bg::Engine e : {bg::Engine::backward, bg::Engine::forward, bg::Engine::generic})
    checks.push_back(published_values(e, target));
  if (target.backend == Backend::gpu) {
    // The host opens 64 subtrees and the kernel walks the rest: in rounds of the kernel's
    // budget, and of 64 descents a walk (many rounds, each split to fill the next).
    checks.push_back(like_reference(bg::Engine::backward, bg::Engine::backward, 30, 70, target,
                                    {64, std::nullopt}));
    checks.push_back(
        like_reference(bg::Engine::backward, bg::Engine::backward, 30, 45, target, {64, 64}));
    checks.push_back(like_reference(bg::Engine::forward, bg::Engine::backward, 37, 70, target));
    checks.push_back(like_reference(bg::Engine::generic, bg::Engine::backward, 37, 60, target));
  } else {
    checks.push_back(like_reference(bg::Engine::backward, bg::Engine::forward, 37, 60, target));
    checks.push_back(like_reference(bg::Engine::generic, bg::Engine::backward, 37, 50, target));
  }
  checks.push_back(variants(target));
  checks.push_back(successors(target));
  checks.push_back(stochastic(target));
  return checks;
}

}  // namespace piles::selftest
