// Real words: claims 1-4 judged a second time, on experiment real_words alone, and the error
// rates its pairs are compared on (docs/claims.md, "Real words").
#include "analysis/verdicts.h"

namespace wolab::verdicts {

json real_words_claims(const std::vector<Exp>& exps) {
  const std::vector<std::string>& words = kRealWordsSources;
  return {claim_slower(exps, words), claim_drop(exps, words), claim_frozen_better(exps, words),
          claim_far_worse(exps, words)};
}

json words_figures(const Exp& e, const Pair& p) {
  json out = json::object();
  if (e.g2p)
    for (const char* m : {"per", "wer"}) out[m] = metric_json(e, p, p.by(m));
  return out;
}

}  // namespace wolab::verdicts
