#include "config/run_status.h"

namespace wolab {

std::optional<RunStatus::State> state_from_code(const std::string& code) {
  for (size_t i = 0; i < std::size(kStateCodes); ++i)
    if (code == kStateCodes[i]) return static_cast<RunStatus::State>(i);
  return std::nullopt;
}

std::string describe(const RunStatus& s) {
  std::string text = kStateCodes[static_cast<int>(s.state)];
  if (has_step(s.state)) text += " at step " + std::to_string(s.step);
  return text;
}

std::optional<RunStatus> status_from_description(const std::string& text) {
  const std::string at = " at step ";
  const size_t pos = text.find(at);
  auto state = state_from_code(text.substr(0, pos));
  if (!state || has_step(*state) != (pos != std::string::npos)) return std::nullopt;
  if (!has_step(*state)) return RunStatus{*state, 0};
  const std::string digits = text.substr(pos + at.size());
  if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return RunStatus{*state, std::stoi(digits)};
}

}  // namespace wolab
