#include "host/common/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace piles {
namespace {

constexpr std::int64_t redraw_ns = 200'000'000;

std::string human_count(double x) {
  const char* suffix[] = {"", "k", "M", "G", "T", "P"};
  int i = 0;
  while (x >= 1000 && i < 5) x /= 1000, ++i;
  return fmt::format("{:.1f}{}", x, suffix[i]);
}

std::string human_seconds(double s) {
  if (s < 0 || s > 1e9) return "?";
  const auto t = static_cast<long long>(s);
  if (t >= 3600) return fmt::format("{}h{:02}m", t / 3600, t / 60 % 60);
  return fmt::format("{}m{:02}s", t / 60, t % 60);
}

}  // namespace

Progress::Progress(std::string label, std::uint64_t total, std::string unit, bool quiet)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      enabled_(!quiet && isatty(STDERR_FILENO)),
      start_(std::chrono::steady_clock::now()) {}

Progress::~Progress() {
  finish();
}

void Progress::add(std::uint64_t done) {
  const std::uint64_t now_done = done_.fetch_add(done, std::memory_order_relaxed) + done;
  if (!enabled_) return;
  const std::int64_t now = (std::chrono::steady_clock::now() - start_).count();
  std::int64_t due = next_draw_ns_.load(std::memory_order_relaxed);
  if (now < due || !next_draw_ns_.compare_exchange_strong(due, now + redraw_ns)) return;
  draw(now_done, false);
}

void Progress::finish() {
  if (!enabled_ || finished_) return;
  draw(done_.load(), true);
  finished_ = true;
}

void Progress::draw(std::uint64_t done, bool final) {
  std::lock_guard lock(draw_mutex_);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double fraction = total_ ? std::min(1.0, static_cast<double>(done) / total_) : 1.0;
  constexpr int width = 30;
  const int filled = static_cast<int>(fraction * width);
  const double rate = seconds > 0 ? done / seconds : 0;
  const double eta = fraction > 0 ? seconds * (1 - fraction) / fraction : -1;
  fmt::print(stderr, "\r{} [{}{}] {:5.1f}%  {} {}/s  ETA {}{}", label_, std::string(filled, '#'),
             std::string(width - filled, '.'), 100 * fraction, human_count(rate), unit_,
             human_seconds(eta), final ? "\n" : "   ");
  std::fflush(stderr);
}

}  // namespace piles
