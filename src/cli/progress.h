// The progress of a plan's runs on stderr: a bar redrawn in place on a terminal, one line per
// finished run in a log.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "run/trainer.h"

namespace wolab::cli {

class Progress {
 public:
  Progress();

  // Runs may train in parallel and report in any order: the bar counts every run's steps.
  void operator()(int run, int runs, const Trainer& t);

  void finish();

 private:
  using Clock = std::chrono::steady_clock;
  static std::string last_loss(const Trainer& t);
  static std::string format_seconds(double s);
  double seconds() const;

  bool tty_;
  Clock::time_point start_, last_draw_;
  std::vector<int> steps_done_;  // (runs) steps of each run so far; all of them once it finished
};

}  // namespace wolab::cli
