#pragma once

#include <csignal>
#include <string>

namespace piles::job {

// While it lives, SIGTERM (what a batch scheduler sends at a job's time limit, on preemption or
// on scancel) asks the run to stop cleanly, as --time-limit does, instead of ending the process
// and the chunks in progress with it. A second SIGTERM, a second or more after the first, goes
// to the handler there was before (an InterruptNotice's, or the default), which ends the
// process at once; one sooner is the same request sent twice (`timeout` does). One made while
// another lives shares it: a SIGTERM the outer one was sent before it counts for it too.
class TerminationRequest {
 public:
  TerminationRequest();
  ~TerminationRequest();
  TerminationRequest(const TerminationRequest&) = delete;
  TerminationRequest& operator=(const TerminationRequest&) = delete;

  bool requested() const;

 private:
  bool nested_;
  struct sigaction previous_ {};
};

// For the whole of a command that runs a job: SIGINT (Ctrl-C) and SIGTERM end the process at
// once with one line on stderr, how long the command had run (from `started`, on the steady
// clock) and `lost`, what the interruption cost, and then by the signal itself, so that a shell
// sees the process ended by it (status 130 for SIGINT, 143 for SIGTERM) and a script's loop
// stops with it. While a journaled run's job runs, its TerminationRequest takes SIGTERM over.
// One at a time.
class InterruptNotice {
 public:
  InterruptNotice(double started, const std::string& lost);
  ~InterruptNotice();
  InterruptNotice(const InterruptNotice&) = delete;
  InterruptNotice& operator=(const InterruptNotice&) = delete;

 private:
  struct sigaction previous_int_ {
  }, previous_term_{};
};

// What an interrupted command lost, for InterruptNotice: without a journal everything, with
// one only the chunks in progress.
std::string interrupt_loss(const std::string& checkpoint);

}  // namespace piles::job
