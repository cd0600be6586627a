#include "lab/status.h"

#include <limits>

#include <nlohmann/json.hpp>

namespace wolab {

namespace {

using State = RunStatus::State;

bool has_step(State s) { return s == State::stopped || s == State::diverged; }

std::optional<State> state_from_name(const std::string& name) {
  for (size_t i = 0; i < std::size(kStateCodes); ++i)
    if (name == kStateCodes[i]) return static_cast<State>(i);
  return std::nullopt;
}

}  // namespace

std::string describe(const RunStatus& s) {
  std::string text = kStateCodes[static_cast<int>(s.state)];
  if (has_step(s.state)) text += " at step " + std::to_string(s.step);
  return text;
}

std::optional<RunStatus> status_from_description(const std::string& text) {
  const std::string at = " at step ";
  const size_t pos = text.find(at);
  auto state = state_from_name(text.substr(0, pos));
  if (!state || has_step(*state) != (pos != std::string::npos)) return std::nullopt;
  if (!has_step(*state)) return RunStatus{*state, 0};
  const std::string digits = text.substr(pos + at.size());
  if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return RunStatus{*state, std::stoi(digits)};
}

nlohmann::json status_json(const RunStatus& s) {
  nlohmann::json j = {{"state", kStateCodes[static_cast<int>(s.state)]}};
  if (has_step(s.state)) j["step"] = s.step;
  return j;
}

std::optional<RunStatus> status_from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("state") || !j["state"].is_string()) return std::nullopt;
  auto state = state_from_name(j["state"].get<std::string>());
  if (!state || j.size() != (has_step(*state) ? 2u : 1u)) return std::nullopt;
  if (!has_step(*state)) return RunStatus{*state, 0};
  const auto step = j.find("step");
  if (step == j.end() || !step->is_number_integer()) return std::nullopt;
  const int64_t n = step->get<int64_t>();
  if (n < 0 || n > std::numeric_limits<int>::max()) return std::nullopt;
  return RunStatus{*state, static_cast<int>(n)};
}

}  // namespace wolab
