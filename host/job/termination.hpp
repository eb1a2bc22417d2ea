#pragma once

#include <csignal>

namespace piles::job {

// While it lives, SIGTERM (what a batch scheduler sends at a job's time limit, on preemption or
// on scancel) asks the run to stop cleanly at its next slice boundary, as --time-limit does,
// instead of ending the process and the slice in progress with it. A second SIGTERM ends the
// process at once.
class TerminationRequest {
 public:
  TerminationRequest();
  ~TerminationRequest();
  TerminationRequest(const TerminationRequest&) = delete;
  TerminationRequest& operator=(const TerminationRequest&) = delete;

  bool requested() const;

 private:
  struct sigaction previous_ {};
};

}  // namespace piles::job
