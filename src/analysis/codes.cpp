#include "analysis/codes.h"

#include <stdexcept>

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

const std::vector<std::string>& claim_sources(int id) {
  for (const ClaimSources& c : kClaimSources)
    if (c.id == id) return c.experiments;
  throw std::logic_error("analysis: no experiments listed for claim " + std::to_string(id));
}

nlohmann::json codes_json() {
  nlohmann::json reasons = nlohmann::json::array();
  for (const ReasonInfo& r : kReasons) reasons.push_back({{"code", r.code}, {"verdict", code(r.verdict)}});
  nlohmann::json trained = nlohmann::json::array(), cut = nlohmann::json::array();
  for (size_t i = 0; i < std::size(kStateCodes); ++i) {
    const auto s = static_cast<RunStatus::State>(i);
    if (RunStatus::trained_to_end(s)) trained.push_back(kStateCodes[i]);
    if (RunStatus::cut_short(s)) cut.push_back(kStateCodes[i]);
  }
  nlohmann::json sources = nlohmann::json::array();
  for (const ClaimSources& c : kClaimSources) sources.push_back({{"id", c.id}, {"experiments", c.experiments}});
  return {{"verdicts", kVerdictCodes},
          {"reasons", reasons},
          {"states", kStateCodes},
          {"trained_to_end", trained},
          {"cut_short", cut},
          {"claim_sources", sources},
          {"words_claims", {{"ids", kRealWordsClaims}, {"experiments", kRealWordsSources}}}};
}

}  // namespace wolab
