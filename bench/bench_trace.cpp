// Bulgarian solitaire trace benchmark: one pile of N cards (10^9 by default) played to its cycle
// on one core with the constant-time Walk, and, at a smaller size, the same trace with a pass
// over every pile a move (the engine the variants keep) for comparison. Checks that the cycle
// reached is one of Brandt's, of his length, that the transient stays within Griggs and Ho's
// D(N), and that both engines agree. The record goes to results/bench/bulgarian_trace.md.
//
//   bench_trace [--n N] [--passes-n M] [--out FILE]

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <string>
#include <vector>

#include "bench/bench_support.hpp"
#include "build_info.hpp"
#include "core/bulgarian.hpp"
#include "host/bulgarian/trace.hpp"

using piles::bench::cpu_seconds;
using piles::bench::load_average;
namespace bg = piles::bulgarian;

namespace {

struct Timed {
  bg::Trace trace;
  double seconds = 0;
};

template <class Run>
Timed timed(Run run) {
  const double c0 = cpu_seconds();
  Timed t{run(), 0};
  t.seconds = cpu_seconds() - c0;
  return t;
}

// Brandt: n = T_k + r; the cycle partitions are (k+e_0, ..., 1+e_{k-1}, e_k), e of r ones, and
// the cycle's length is e's primitive period. Returns what the trace's cycle breaks, or "".
std::string brandt_check(const bg::Trace& t, int n) {
  const int k = bg::brandt_k(n), r = n - bg::triangular(k);
  const std::vector<int>& p = t.cycle_start;
  if (static_cast<int>(p.size()) > k + 1) return "more than k + 1 parts";
  std::vector<int> e;
  for (int i = 0; i <= k; ++i) {
    const int d = (i < static_cast<int>(p.size()) ? p[i] : 0) - (k - i);
    if (d != 0 && d != 1) return fmt::format("part {} is not k - {} or one more", i, i);
    e.push_back(d);
  }
  int ones = 0;
  for (int x : e) ones += x;
  if (ones != r) return fmt::format("{} extra cards, not r = {}", ones, r);
  int period = k + 1;
  for (int d = 1; d < k + 1; ++d) {
    if ((k + 1) % d) continue;
    bool same = true;
    for (int i = 0; i <= k && same; ++i) same = e[i] == e[(i + d) % (k + 1)];
    if (same) {
      period = d;
      break;
    }
  }
  if (period != t.cycle_length)
    return fmt::format("cycle of {} moves, e's period is {}", t.cycle_length, period);
  return "";
}

bg::Trace by_passes(const std::vector<int>& start) {
  const auto advance = [](std::vector<int>& p, std::vector<int>& spare) {
    spare.resize(p.size() + 1);
    spare.resize(bg::move(p.data(), static_cast<int>(p.size()), spare.data()));
    std::swap(p, spare);
  };
  return bg::play_until_repeat(start, advance, false);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Bulgarian solitaire trace benchmark: one pile of N cards to its cycle"};
  int n = 1'000'000'000, passes_n = 1'000'000;
  std::string out = "results/bench/bulgarian_trace.md";
  app.add_option("--n", n, "Cards in the one pile")
      ->check(CLI::Range(1, static_cast<int>(bg::max_trace_cards)));
  app.add_option("--passes-n", passes_n, "Cards for the comparison with a pass a move")
      ->check(CLI::Range(1, static_cast<int>(bg::max_trace_cards)));
  app.add_option("--out", out, "Record file (Markdown)");
  CLI11_PARSE(app, argc, argv);

  const std::string load_before = load_average();
  fmt::print("bench_trace: one pile of {} cards, load {}\n", n, load_before);
  const Timed big = timed([&] { return bg::trace({n}, false); });
  const std::string broken = brandt_check(big.trace, n);
  const int d = bg::griggs_ho(n);
  fmt::print("walk   n={}: transient {}, cycle {}, {:.2f} s CPU, Brandt {}, D(n) = {}\n", n,
             big.trace.transient, big.trace.cycle_length, big.seconds,
             broken.empty() ? "holds" : broken, d);
  const Timed walked = timed([&] { return bg::trace({passes_n}, false); });
  const Timed passed = timed([&] { return by_passes({passes_n}); });
  const bool same = walked.trace.transient == passed.trace.transient &&
                    walked.trace.cycle_length == passed.trace.cycle_length &&
                    walked.trace.cycle_start == passed.trace.cycle_start;
  fmt::print("walk   n={}: {:.3f} s CPU; passes: {:.3f} s CPU; {}\n", passes_n, walked.seconds,
             passed.seconds, same ? "equal" : "DIFFER");
  const bool ok = broken.empty() && big.trace.transient <= d && same;

  std::string body = fmt::format(
      "_made by `bench_trace --n {} --passes-n {}`; piles {}; one thread; load average before "
      "{}, after {}_\n\n"
      "| engine | cards | transient | cycle length | CPU s | moves to the cycle per CPU-second "
      "|\n|---|---:|---:|---:|---:|---:|\n",
      n, passes_n, piles::version, load_before, load_average());
  for (const auto& [name, cards, t] :
       {std::tuple{"walk", n, &big}, std::tuple{"walk", passes_n, &walked},
        std::tuple{"a pass a move", passes_n, &passed}})
    body += fmt::format("| {} | {} | {} | {} | {:.3f} | {:.3g} |\n", name, cards,
                        t->trace.transient, t->trace.cycle_length, t->seconds,
                        (t->trace.transient + t->trace.cycle_length) / t->seconds);
  body += fmt::format(
      "\nThe cycle of {} cards is Brandt's ({}); its transient, {}, is within Griggs and Ho's "
      "D(n) = {} ({}). At {} cards the two engines {}.\n",
      n, broken.empty() ? "holds" : broken, big.trace.transient, d,
      big.trace.transient <= d ? "holds" : "FAILS", passes_n, same ? "agree" : "DIFFER");
  piles::bench::write_record(out, "# Bulgarian solitaire trace benchmark\n\n" + body);
  return ok ? 0 : 1;
}
