#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace piles {

// Seconds between two status lines of a run whose stderr is not a terminal (a batch job's
// log), unless --status-every says otherwise.
inline constexpr double default_status_every = 30;

// How a run shows that it moves.
struct ProgressStyle {
  bool quiet = false;                          // nothing at all
  double status_every = default_status_every;  // 0: no status lines
  // Status lines only, no bar: for a command whose runs draw bars of their own on a terminal.
  bool lines_only = false;
};

// Units of work done since the last call, told as they go (from any thread, where the caller
// says so): how an engine that never prints feeds whoever shows its progress.
using UnitsDone = std::function<void(std::uint64_t units)>;

// A Progress's total where the size of the work is not known beforehand (a trace, a single
// solve): the bar and the status lines then show the units done and the rate, without a
// percentage or an ETA.
inline constexpr std::uint64_t unknown_total = ~std::uint64_t{0};

// Columns of the terminal on stderr, else $COLUMNS, else 80.
int terminal_columns();

// "1.2M": a count or rate as status lines show it (k, M, G, T, P; whole below a thousand).
std::string human_count(double x);
// "5m07s", "31h02m", "12d18h": a duration as status lines show it ("?" where out of range).
std::string human_seconds(double s);
// "42.2%", "0.024%": a share as status lines show it, to a tenth of a percent, and below one
// percent to two significant digits (at most four decimals), so that a run of days moves from
// its first minutes on.
std::string human_percent(double fraction);

// The bar's line, "label [####....] status", fitted to `columns`: at most columns - 1
// characters (a line that reaches the last column wraps on some terminals), the bar narrowed
// to make room, left out where not even a narrow one fits ("label: status"), and the status
// cut last. `fraction` < 0: no bar (the size is unknown).
std::string bar_line(std::string_view label, double fraction, std::string_view status, int columns);

// A run's rate and, where its size is known, time left, from work that arrives in lumps (a GPU
// slice reports its nodes when it ends): both are taken at `at_last`, the seconds at which work
// last arrived, so the rate does not sag between lumps, and the time left counts down from the
// estimate made then (never below 0). `fraction` of this run's work is done, `worked` its units.
struct Pace {
  double rate = 0;
  std::optional<double> seconds_left;  // none before any work or where the size is unknown
};
Pace pace(double worked, double fraction, double elapsed, double at_last);

// Work a journal already held when a run began: counted in the chunks and the percentage (a
// resumed run shows where the whole stands), not in the rate or the ETA.
struct ResumedWork {
  std::uint64_t units = 0, chunks = 0;
};

// The observer of a run's work, and the one place that draws it for every game: an engine
// reports units (and chunks) done through add() and never prints; whoever starts the run (the
// job driver, a command) makes the Progress. On a terminal it draws a bar with rate and ETA on
// stderr; elsewhere (a batch job's log) it writes one status line every status_every seconds,
// whether or not work has finished since, and a last one when the run ends if it wrote any
// (so a short run's log stays empty).
// add() is safe from many threads and cheap when nothing is drawn.
class Progress {
 public:
  // `chunks`: how many chunks the work is in, resumed ones included (0: not counted in chunks);
  // `total`: the units this run has to do, or unknown_total.
  Progress(std::string label, std::uint64_t total, std::string unit, std::uint64_t chunks,
           const ProgressStyle& style, ResumedWork resumed = {});
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // `measured`: where `units` are an estimate, the units the work really took; the rate then
  // counts those (the percentage and the ETA stay on the estimates, which all work shares).
  void add(std::uint64_t units, std::uint64_t chunks = 0,
           std::optional<std::uint64_t> measured = std::nullopt);
  // Where the work left was weighed again (a new estimate of it): this run's units become those
  // it has done and `left`, so that the percentage and the ETA follow the new weights.
  void reweigh(std::uint64_t left);
  // A line shown once, before the next status line or drawing of the bar (what the work is
  // estimated at; a new estimate of what is left); nothing where none follows, so that a short
  // run's log stays empty.
  void aside(std::string text);
  // A short text that ends the bar and every status line ("best 65"), where the game has one.
  void note(std::string text);
  // A line of its own, once, between the status lines or above the bar; nothing when quiet.
  void say(std::string_view text);
  // Ends the bar, or writes the last status line saying `how` the run ended ("done").
  void finish(std::string_view how = "done");

 private:
  enum class Mode { none, bar, lines };
  std::string status(bool final, bool compact = false);
  double whole_fraction() const;  // of the whole work, resumed units included
  void draw_bar(bool final);
  void show_asides();
  void write_lines(std::stop_token stop);

  std::string label_, unit_;
  std::uint64_t total_, chunks_;
  std::uint64_t resumed_;  // units
  Mode mode_;
  double every_;
  std::atomic<std::uint64_t> done_{0}, chunks_done_{0}, measured_{0}, measured_from_{0};
  std::atomic<std::int64_t> next_draw_ns_{0}, last_add_ns_{0};
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;  // the note, drawing, and the status lines' wake-up
  std::string note_;
  std::vector<std::string> asides_;
  std::condition_variable_any wake_;
  int lines_written_ = 0;
  bool finished_ = false;
  std::jthread timer_;  // last: it reads everything above
};

}  // namespace piles
