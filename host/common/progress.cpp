#include "host/common/progress.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace piles {
namespace {

constexpr std::int64_t redraw_ns = 200'000'000;

// A bar redraws its line with carriage returns, which a dumb terminal (an editor's shell buffer,
// a tool that records a session) shows as a growing heap of lines.
bool bar_terminal() {
  if (!isatty(STDERR_FILENO)) return false;
  const char* term = std::getenv("TERM");
  return term && *term && std::string_view(term) != "dumb";
}

}  // namespace

std::string human_count(double x) {
  const char* suffix[] = {"", "k", "M", "G", "T", "P"};
  int i = 0;
  while (x >= 1000 && i < 5) x /= 1000, ++i;
  // "45 files", not "45.0 files": a whole count below a thousand has no tenths to show.
  if (i == 0 && x == std::floor(x)) return fmt::format("{:.0f}", x);
  return fmt::format("{:.1f}{}", x, suffix[i]);
}

std::string human_percent(double fraction) {
  const double percent = 100 * fraction;
  int decimals = 1;
  if (percent > 0 && percent < 0.995)
    decimals = std::min(4, 1 - static_cast<int>(std::floor(std::log10(percent))));
  return fmt::format("{:.{}f}%", percent, decimals);
}

std::string human_seconds(double s) {
  if (s < 0 || s > 1e9) return "?";
  const auto t = static_cast<long long>(s);
  // Past two days, days and hours: "12d18h" reads at a glance where "306h47m" does not.
  if (t >= 2 * 86400) return fmt::format("{}d{:02}h", t / 86400, t / 3600 % 24);
  if (t >= 3600) return fmt::format("{}h{:02}m", t / 3600, t / 60 % 60);
  return fmt::format("{}m{:02}s", t / 60, t % 60);
}

int terminal_columns() {
  winsize size{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  if (const char* columns = std::getenv("COLUMNS")) {
    char* end = nullptr;
    const long c = std::strtol(columns, &end, 10);
    if (end != columns && *end == '\0' && c > 0 && c < 10'000) return static_cast<int>(c);
  }
  return 80;
}

std::string bar_line(std::string_view label, double fraction, std::string_view status,
                     int columns) {
  constexpr int widest = 30, narrowest = 10;
  const int room = std::max(1, columns - 1);
  // What is left beside the label, the brackets and the status: a bar up to the widest where
  // there is room for the narrowest, else none (the status has the percentage too).
  const int beside = room - static_cast<int>(label.size() + status.size()) - 4;
  std::string line;
  if (fraction < 0 || beside < narrowest) {
    line = fmt::format("{}: {}", label, status);
  } else {
    const int width = std::min(beside, widest);
    const int filled = static_cast<int>(std::clamp(fraction, 0.0, 1.0) * width);
    line = fmt::format("{} [{}{}] {}", label, std::string(filled, '#'),
                       std::string(width - filled, '.'), status);
  }
  if (static_cast<int>(line.size()) > room) line.resize(room);
  return line;
}

Progress::Progress(std::string label, std::uint64_t total, std::string unit, std::uint64_t chunks,
                   const ProgressStyle& style, ResumedWork resumed)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      chunks_(chunks),
      resumed_(resumed.units),
      mode_(style.quiet              ? Mode::none
            : bar_terminal()         ? (style.lines_only ? Mode::none : Mode::bar)
            : style.status_every > 0 ? Mode::lines
                                     : Mode::none),
      every_(style.status_every),
      chunks_done_(resumed.chunks),
      start_(std::chrono::steady_clock::now()) {
  if (mode_ == Mode::lines)
    timer_ = std::jthread([this](std::stop_token stop) { write_lines(stop); });
}

Progress::~Progress() {
  finish();
}

void Progress::add(std::uint64_t units, std::uint64_t chunks,
                   std::optional<std::uint64_t> measured) {
  if (measured) {
    measured_.fetch_add(*measured, std::memory_order_relaxed);
    measured_from_.fetch_add(units, std::memory_order_relaxed);
  }
  done_.fetch_add(units, std::memory_order_relaxed);
  chunks_done_.fetch_add(chunks, std::memory_order_relaxed);
  const std::int64_t now = (std::chrono::steady_clock::now() - start_).count();
  last_add_ns_.store(now, std::memory_order_relaxed);
  if (mode_ != Mode::bar) return;
  std::int64_t due = next_draw_ns_.load(std::memory_order_relaxed);
  if (now < due || !next_draw_ns_.compare_exchange_strong(due, now + redraw_ns)) return;
  draw_bar(false);
}

void Progress::reweigh(std::uint64_t left) {
  const std::lock_guard lock(mutex_);
  if (total_ != unknown_total) total_ = done_.load() + left;
}

void Progress::aside(std::string text) {
  const std::lock_guard lock(mutex_);
  asides_.push_back(std::move(text));
}

// The asides not shown yet, over the bar where one is drawn; called with mutex_ held.
void Progress::show_asides() {
  for (const std::string& text : asides_)
    fmt::print(stderr, "{}piles: {}: {}\n", mode_ == Mode::bar ? "\r\x1b[K" : "", label_, text);
  asides_.clear();
}

void Progress::note(std::string text) {
  const std::lock_guard lock(mutex_);
  note_ = std::move(text);
}

void Progress::finish(std::string_view how) {
  if (finished_) return;
  finished_ = true;
  if (timer_.joinable()) {
    timer_.request_stop();
    timer_.join();
  }
  if (mode_ == Mode::bar) draw_bar(true);
  // A log that shows the run moving also shows where it ended.
  if (lines_written_ > 0) {
    const std::lock_guard lock(mutex_);
    show_asides();
    fmt::print(stderr, "piles: {}: {}: {}\n", label_, how, status(true));
    std::fflush(stderr);
  }
}

Pace pace(double worked, double fraction, double elapsed, double at_last) {
  if (at_last <= 0) return {};
  Pace p;
  p.rate = worked / at_last;
  if (fraction > 0)
    p.seconds_left = std::max(0.0, at_last * (1 - fraction) / fraction - (elapsed - at_last));
  return p;
}

double Progress::whole_fraction() const {
  if (total_ == unknown_total) return -1;
  const std::uint64_t whole = resumed_ + total_;
  return whole ? std::min(1.0, static_cast<double>(resumed_ + done_.load()) / whole) : 1.0;
}

// "12/40 chunks, 30.0%, 1.2M nodes/s, 0m10s elapsed, ETA 0m22s, best 65" (no ETA when
// `final`; "ETA estimating" until some work is done; `compact`, for the bar on a narrow
// terminal, without the time elapsed); of work of unknown size, "3.4G moves, 150.2M moves/s,
// 0m22s elapsed". Called with mutex_ held.
std::string Progress::status(bool final, bool compact) {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const std::uint64_t done = done_.load();
  // Measured units where the estimates were measured, the estimates for the rest.
  const double worked = static_cast<double>(measured_.load()) + (done - measured_from_.load());
  // The last line is of the whole run; the others are taken where work last arrived.
  const double at_last = final ? seconds : 1e-9 * static_cast<double>(last_add_ns_.load());
  const double fraction = total_ == unknown_total ? -1
                          : total_ ? std::min(1.0, static_cast<double>(done) / total_)
                                   : 1.0;
  const Pace p = pace(worked, fraction, seconds, at_last);
  std::string text;
  if (chunks_ > 0) text = fmt::format("{}/{} chunks, ", chunks_done_.load(), chunks_);
  if (total_ == unknown_total) {
    // Units are plural nouns: "1 file", "2 files".
    const std::string amount = human_count(worked);
    const std::string noun =
        amount == "1" && unit_.ends_with('s') ? unit_.substr(0, unit_.size() - 1) : unit_;
    text += fmt::format("{} {}, {} {}/s, {} elapsed", amount, noun, human_count(p.rate), unit_,
                        human_seconds(seconds));
  } else {
    // Work weighed by estimates can pass their whole with chunks still to do: it then says
    // so, and by how much, rather than "100%, ETA 0m00s" for as long as they take.
    const bool past_estimate =
        chunks_ > 0 && chunks_done_.load() < chunks_ && total_ > 0 && done >= total_;
    const double share = past_estimate ? static_cast<double>(resumed_ + done) /
                                             static_cast<double>(resumed_ + total_)
                                       : whole_fraction();
    // The ETA from this run's own rate; the percentage of the whole, resumed work included.
    text += fmt::format("{}, {} {}/s", human_percent(share), human_count(p.rate), unit_);
    if (!compact) text += fmt::format(", {} elapsed", human_seconds(seconds));
    // The last line has none: a run that stopped early has work left, so "ETA 0m00s" would lie.
    if (!final && past_estimate)
      text += ", ETA unknown (past the estimate)";
    else if (!final)
      text += p.seconds_left ? fmt::format(", ETA {}", human_seconds(*p.seconds_left))
                             : std::string(", ETA estimating");
  }
  if (!note_.empty()) text += ", " + note_;
  return text;
}

void Progress::say(std::string_view text) {
  if (mode_ == Mode::none) return;
  const std::lock_guard lock(mutex_);
  show_asides();
  // Over the bar, which the next add() draws again below it.
  fmt::print(stderr, "{}piles: {}: {}\n", mode_ == Mode::bar ? "\r\x1b[K" : "", label_, text);
  std::fflush(stderr);
}

void Progress::draw_bar(bool final) {
  const std::lock_guard lock(mutex_);
  show_asides();
  // Redrawn over itself, and cleared to the end of the line where a longer one stood.
  fmt::print(stderr, "\r{}\x1b[K{}",
             bar_line(label_, whole_fraction(), status(final, !final), terminal_columns()),
             final ? "\n" : "");
  std::fflush(stderr);
}

void Progress::write_lines(std::stop_token stop) {
  std::unique_lock lock(mutex_);
  const auto every = std::chrono::duration<double>(every_);
  // Returns at the interval, or at once when the run ends (stop requested).
  while (!wake_.wait_for(lock, stop, every, [&stop] { return stop.stop_requested(); })) {
    show_asides();
    fmt::print(stderr, "piles: {}: {}\n", label_, status(false));
    std::fflush(stderr);
    ++lines_written_;
  }
}

}  // namespace piles
