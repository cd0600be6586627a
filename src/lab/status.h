// Where a run stands: running, done, stopped by the user, or diverged at a step. One function
// words it for people (and checkpoints), one writes it for JSON, each with its reader.
#pragma once

#include <cstddef>
#include <iterator>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

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

// Each state's code, in enum order: what describe() and status_json() write (and codes()
// hands the page, src/analysis/codes.h).
inline constexpr const char* kStateCodes[] = {"running", "done", "stopped", "diverged"};
static_assert(std::size(kStateCodes) == static_cast<size_t>(RunStatus::State::diverged) + 1);

// "running", "done", "stopped at step 40", "diverged at step 17": progress lines, the CLI's
// tables and checkpoint metadata (whose readers have always taken these words).
std::string describe(const RunStatus& s);
// describe()'s text back; nullopt for any other text.
std::optional<RunStatus> status_from_description(const std::string& text);

// {"state": "done"}, {"state": "diverged", "step": 17}: the results schema (docs/results.md)
// and the page. "step" is present exactly for stopped and diverged.
nlohmann::json status_json(const RunStatus& s);
// status_json()'s value back; nullopt for anything else (a wrong key, type or step).
std::optional<RunStatus> status_from_json(const nlohmann::json& j);

}  // namespace wolab
