#include "analysis/codes.h"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "io/messages.h"
#include "lab/status_json.h"

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

const char* claim_group(int id) {
  for (const ClaimGroup& g : kClaimGroups)
    for (int c : g.claims)
      if (c == id) return g.code;
  throw std::logic_error("analysis: no group lists claim " + std::to_string(id));
}

std::vector<std::string> plain_figure_names(const PlainInfo& p) {
  std::vector<std::string> out;
  std::string name;
  for (const char* c = p.figures;; ++c) {
    if (*c == ' ' || *c == '\0') {
      if (!name.empty()) out.push_back(name);
      name.clear();
      if (*c == '\0') return out;
    } else {
      name += *c;
    }
  }
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
  nlohmann::json groups = nlohmann::json::array();
  for (const ClaimGroup& g : kClaimGroups) groups.push_back({{"code", g.code}, {"claims", g.claims}});
  nlohmann::json plain = nlohmann::json::array();
  for (const PlainInfo& p : kPlainCodes) plain.push_back({{"code", p.code}, {"figures", plain_figure_names(p)}});
  return {{"verdicts", kVerdictCodes},
          {"reasons", reasons},
          {"states", kStateCodes},
          {"trained_to_end", trained},
          {"cut_short", cut},
          {"failed_state", kFailedState},
          {"claim_sources", sources},
          {"words_claims", {{"ids", kRealWordsClaims}, {"experiments", kRealWordsSources}}},
          {"claim_groups", groups},
          {"plain", plain}};
}

}  // namespace wolab
