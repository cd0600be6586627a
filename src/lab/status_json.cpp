#include "lab/status_json.h"

#include <limits>

#include <nlohmann/json.hpp>

namespace wolab {

nlohmann::json status_json(const RunStatus& s) {
  nlohmann::json j = {{"state", kStateCodes[static_cast<int>(s.state)]}};
  if (has_step(s.state)) j["step"] = s.step;
  return j;
}

std::optional<RunStatus> status_from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("state") || !j["state"].is_string()) return std::nullopt;
  auto state = state_from_code(j["state"].get<std::string>());
  if (!state || j.size() != (has_step(*state) ? 2u : 1u)) return std::nullopt;
  if (!has_step(*state)) return RunStatus{*state, 0};
  const auto step = j.find("step");
  if (step == j.end() || !step->is_number_integer()) return std::nullopt;
  const int64_t n = step->get<int64_t>();
  if (n < 0 || n > std::numeric_limits<int>::max()) return std::nullopt;
  return RunStatus{*state, static_cast<int>(n)};
}

}  // namespace wolab
