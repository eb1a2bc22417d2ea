#include "host/job/termination.hpp"

#include <atomic>

namespace piles::job {
namespace {

std::atomic<bool> terminate_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

void on_sigterm(int) {
  if (terminate_requested.exchange(true)) {
    std::signal(SIGTERM, SIG_DFL);
    std::raise(SIGTERM);
  }
}

}  // namespace

TerminationRequest::TerminationRequest() {
  terminate_requested = false;
  struct sigaction action {};
  action.sa_handler = on_sigterm;
  sigemptyset(&action.sa_mask);
  sigaction(SIGTERM, &action, &previous_);
}

TerminationRequest::~TerminationRequest() {
  sigaction(SIGTERM, &previous_, nullptr);
}

bool TerminationRequest::requested() const {
  return terminate_requested;
}

}  // namespace piles::job
