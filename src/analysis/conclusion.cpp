// The conclusion under the claims: what it counts and which claims it quotes (docs/claims.md,
// "The conclusion"), from the claims' JSON as claims.cpp writes it.
#include "analysis/verdicts.h"

namespace wolab::verdicts {

json conclusion(const json& claims) {
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
  return {{"counts", counts}, {"still_learning", still}, {"quotes", quotes}};
}

}  // namespace wolab::verdicts
