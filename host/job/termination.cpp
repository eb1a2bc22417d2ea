#include "host/job/termination.hpp"

#include <fmt/format.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace piles::job {
namespace {

std::atomic<bool> terminate_requested{false};
int open_requests = 0;  // TerminationRequests alive, on the main thread
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
struct sigaction before_termination {};

// A second SIGTERM this soon after the first is the same request: `timeout` signals its command
// and then the command's process group, and a batch job's processes may hear from more than one
// of the scheduler's daemons; a person asking again takes longer.
constexpr std::int64_t same_request_ns = 1'000'000'000;
std::atomic<std::int64_t> first_sigterm_ns{0};
static_assert(std::atomic<std::int64_t>::is_always_lock_free, "set from a signal handler");

std::int64_t monotonic_ns() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

// Only async-signal-safe calls: clock_gettime, sigaction, raise.
void on_sigterm(int) {
  const std::int64_t now = monotonic_ns();
  if (!terminate_requested.exchange(true)) {
    first_sigterm_ns = now;
    return;
  }
  if (now - first_sigterm_ns < same_request_ns) return;
  sigaction(SIGTERM, &before_termination, nullptr);
  raise(SIGTERM);
}

// The notice's line, made when it is installed: the handler may only format the seconds.
std::array<char, 4096> notice_end{};
std::size_t notice_end_length = 0;
double notice_started = 0;
// On a terminal (but a dumb one, which draws no progress bar): below the bar and the echoed ^C.
bool notice_newline = false;

// Writes `tenths` as seconds with one decimal at `out`; returns the end.
char* put_seconds(char* out, long long tenths) {
  char digits[24];
  int count = 0;
  long long whole = tenths / 10;
  do {
    digits[count++] = static_cast<char>('0' + whole % 10);
    whole /= 10;
  } while (whole > 0);
  while (count > 0) *out++ = digits[--count];
  *out++ = '.';
  *out++ = static_cast<char>('0' + tenths % 10);
  return out;
}

// Only async-signal-safe calls: clock_gettime, write, sigaction, raise.
void on_interrupt(int signal) {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  const double seconds = static_cast<double>(now.tv_sec) + now.tv_nsec * 1e-9 - notice_started;
  std::array<char, 64 + notice_end.size()> line;
  char* p = line.data();
  if (notice_newline) *p++ = '\n';
  const char start[] = "piles: interrupted after ";
  p = std::copy(start, start + sizeof start - 1, p);
  p = put_seconds(p, static_cast<long long>(std::max(0.0, seconds) * 10 + 0.5));
  p = std::copy(notice_end.data(), notice_end.data() + notice_end_length, p);
  for (const char* q = line.data(); q < p;) {
    const ssize_t wrote = write(STDERR_FILENO, q, static_cast<std::size_t>(p - q));
    if (wrote <= 0) break;
    q += wrote;
  }
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  sigaction(signal, &fallback, nullptr);
  raise(signal);  // delivered as the handler returns
}

}  // namespace

TerminationRequest::TerminationRequest() : nested_(open_requests++ > 0) {
  if (nested_) return;
  terminate_requested = false;
  struct sigaction action {};
  action.sa_handler = on_sigterm;
  sigemptyset(&action.sa_mask);
  sigaction(SIGTERM, &action, &previous_);
  before_termination = previous_;
}

TerminationRequest::~TerminationRequest() {
  --open_requests;
  if (!nested_) sigaction(SIGTERM, &previous_, nullptr);
}

bool TerminationRequest::requested() const {
  return terminate_requested;
}

InterruptNotice::InterruptNotice(double started, const std::string& lost) {
  const std::string end = " s; " + lost + "\n";
  notice_end_length = std::min(end.size(), notice_end.size());
  std::memcpy(notice_end.data(), end.data(), notice_end_length);
  notice_started = started;
  const char* term = std::getenv("TERM");
  notice_newline = isatty(STDERR_FILENO) == 1 && term && std::string_view(term) != "dumb";
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &previous_int_);
  sigaction(SIGTERM, &action, &previous_term_);
}

InterruptNotice::~InterruptNotice() {
  sigaction(SIGINT, &previous_int_, nullptr);
  sigaction(SIGTERM, &previous_term_, nullptr);
}

std::string interrupt_loss(const std::string& checkpoint) {
  if (checkpoint.empty())
    return "nothing was kept (run with --checkpoint FILE to keep finished work and resume)";
  return fmt::format(
      "the chunks finished are in {} and the ones in progress were lost (run the same command "
      "to resume)",
      checkpoint);
}

}  // namespace piles::job
