// The conclusion under the claims: what it counts, which claims it quotes and where real words
// agree with the toy tasks (docs/claims.md, "The conclusion"), from the claims' JSON as claims.cpp
// writes it.
#include <algorithm>

#include "analysis/verdicts.h"

namespace wolab::verdicts {

namespace {

// A verdict that decides: supported, partly supported or not supported.
bool decides(const json& claim) {
  const std::string v = claim["verdict"].get<std::string>();
  return v != code(Verdict::not_decided) && v != code(Verdict::not_tested);
}

}  // namespace

json conclusion(const json& claims, const json& words_claims) {
  json counts = json::object();
  for (const char* v : kVerdictCodes) counts[v] = 0;
  bool still = false;
  json quotes = json::array();
  for (const json& c : claims) {
    json& n = counts[c["verdict"].get<std::string>()];
    n = n.get<int>() + 1;
    const json& f = c["figures"];
    for (const char* key : {"still_learning", "undecided"}) still = still || (f.contains(key) && !f[key].empty());
    // Claim 1 says what removing W_o costs in speed, claim 3 whether a W_o that never learns
    // already helps: the lesson's two questions, quoted wherever their pair had paired seeds.
    const int id = c["id"].get<int>();
    if ((id == 1 || id == 3) && f.contains("comparison") && f["comparison"]["n"].get<int>() > 0) quotes.push_back(id);
  }
  // Claims 1-4 on the toy tasks against real words, where both columns decide.
  json agree = json::array(), differ = json::array();
  for (const json& w : words_claims) {
    const auto toy = std::find_if(claims.begin(), claims.end(), [&](const json& c) { return c["id"] == w["id"]; });
    if (toy == claims.end() || !decides(*toy) || !decides(w)) continue;
    const int id = w["id"].get<int>();
    ((*toy)["verdict"] == w["verdict"] ? agree : differ).push_back(id);
  }
  return {{"counts", counts},
          {"still_learning", still},
          {"quotes", quotes},
          {"words", {{"agree", agree}, {"differ", differ}}}};
}

}  // namespace wolab::verdicts

namespace wolab {

json conclude(const json& analysis, const json& words_analysis) {
  return verdicts::conclusion(analysis.at("claims"), words_analysis.at("words_claims"));
}

}  // namespace wolab
