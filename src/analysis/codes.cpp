#include "analysis/codes.h"

#include <nlohmann/json.hpp>

#include "io/messages.h"
#include "lab/status.h"

namespace wolab {

Verdict verdict_from_code(const std::string& code) {
  for (size_t i = 0; i < std::size(kVerdictCodes); ++i)
    if (code == kVerdictCodes[i]) return static_cast<Verdict>(i);
  throw ConfigError("analysis: unknown verdict " + in_quotes(code));
}

Reason reason_from_code(const std::string& code) {
  for (const ReasonInfo& r : kReasons)
    if (code == r.code) return r.reason;
  throw ConfigError("analysis: unknown reason " + in_quotes(code));
}

nlohmann::json codes_json() {
  nlohmann::json reasons = nlohmann::json::array();
  for (const ReasonInfo& r : kReasons) reasons.push_back({{"code", r.code}, {"verdict", code(r.verdict)}});
  nlohmann::json trained = nlohmann::json::array();
  for (size_t i = 0; i < std::size(kStateCodes); ++i)
    if (RunStatus::trained_to_end(static_cast<RunStatus::State>(i))) trained.push_back(kStateCodes[i]);
  return {{"verdicts", kVerdictCodes}, {"reasons", reasons}, {"states", kStateCodes}, {"trained_to_end", trained}};
}

}  // namespace wolab
