// Where a run stands: running, done, stopped by the user, or diverged at a step; and its words
// for people and checkpoints. The bottom layer beside run_config.h: plain types, no JSON (the
// results' JSON form is lab/status_json.h).
#pragma once

#include <cstddef>
#include <iterator>
#include <optional>
#include <string>

namespace wolab {

struct RunStatus {
  enum class State { running, done, stopped, diverged };
  State state = State::running;
  // stopped: the steps trained when it was stopped; diverged: the step whose training loss (or
  // held-out loss after its update) was not finite; 0 otherwise.
  int step = 0;

  bool finished() const { return state != State::running; }
  // Trained to its end: all its steps, or until it diverged (a stopped run was cut short).
  static constexpr bool trained_to_end(State s) { return s == State::done || s == State::diverged; }
  bool trained_to_end() const { return trained_to_end(state); }
  // Cut short by the reader (the CLI's Ctrl-C, the page's Stop): not trained to its end, and no
  // failure either.
  static constexpr bool cut_short(State s) { return s == State::stopped; }
  bool operator==(const RunStatus& o) const { return state == o.state && step == o.step; }
  bool operator!=(const RunStatus& o) const { return !(*this == o); }
};

// Each state's code, in enum order: what describe() and status_json() (lab/status_json.h) write (and
// codes() hands the page, src/analysis/codes.h).
inline constexpr const char* kStateCodes[] = {"running", "done", "stopped", "diverged"};
static_assert(std::size(kStateCodes) == static_cast<size_t>(RunStatus::State::diverged) + 1);

// Whether a state carries the step it happened at (stopped, diverged).
inline bool has_step(RunStatus::State s) { return s == RunStatus::State::stopped || s == RunStatus::State::diverged; }
// The state whose code is `code`; nullopt for any other text.
std::optional<RunStatus::State> state_from_code(const std::string& code);

// "running", "done", "stopped at step 40", "diverged at step 17": progress lines, the CLI's
// tables and checkpoint metadata (whose readers have always taken these words).
std::string describe(const RunStatus& s);
// describe()'s text back; nullopt for any other text.
std::optional<RunStatus> status_from_description(const std::string& text);

}  // namespace wolab
