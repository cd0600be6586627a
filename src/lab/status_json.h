// A run's status (config/run_status.h) as the results schema writes it, and back.
#pragma once

#include <optional>

#include <nlohmann/json_fwd.hpp>

#include "config/run_status.h"

namespace wolab {

// {"state": "done"}, {"state": "diverged", "step": 17}: the results schema (docs/results.md)
// and the page. "step" is present exactly for stopped and diverged.
nlohmann::json status_json(const RunStatus& s);
// status_json()'s value back; nullopt for anything else (a wrong key, type or step).
std::optional<RunStatus> status_from_json(const nlohmann::json& j);

// The state of a run that could not train, so that it has no status of its own ({"state":
// "failed"}): what the page passes to make_results for a run whose worker failed (lab/results.h).
inline constexpr char kFailedState[] = "failed";

}  // namespace wolab
