// Claim 5's facts: the learned W_o's structure from wo_heatmap's snapshots (docs/claims.md).
#include "analysis/verdicts.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace wolab::verdicts {

namespace {

// Largest over smallest of a snapshot's head_norms: the Frobenius norms of the heads' column
// blocks W_o[:, head], which the record carries (lab/results.h).
double head_imbalance(const json& head_norms) {
  double lo = HUGE_VAL, hi = 0;
  for (const json& n : head_norms) {
    const double x = n.is_number() ? n.get<double>() : HUGE_VAL;  // null: past a float's range
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  return lo > 0 ? hi / lo : HUGE_VAL;
}

}  // namespace

// Per seed, the learned W_o at step 0 and at its last snapshot: its rows and energy averaged over
// layers, its head imbalance from the layer where it is largest (a block standing out in any
// layer is what the heatmap shows), each property against the same run's step 0.
WoStructure wo_structure(const Exp& e) {
  WoStructure s;
  for (const Run& r : e.runs) {
    if (r.variant != "learned" || !r.done()) continue;
    std::map<int, std::pair<const json*, const json*>> layers;  // layer -> "wo" entries (step 0, last)
    int last_step = 0;
    for (const json& w : (*r.record)["wo"]) {
      const int layer = w["layer"].get<int>(), step = w["step"].get<int>();
      if (step == 0) layers[layer].first = &w;
      if (step > 0 && step >= last_step) last_step = step;
    }
    for (const json& w : (*r.record)["wo"])
      if (w["step"].get<int>() == last_step && last_step > 0) layers[w["layer"].get<int>()].second = &w;
    std::vector<double> dom, dom0, en, ch;
    double im0 = 0, im1 = -1;
    int im_layer = 0;
    for (const auto& [layer, pair] : layers) {
      if (!pair.first || !pair.second) continue;
      // Each snapshot's figures come with the record (run/probes.h, wo_figures), whether or not
      // its matrix does (lab/wo_files.h).
      const json &w0 = *pair.first, &w = *pair.second;
      dom.push_back(w["dominant_rows"].get<double>());
      dom0.push_back(w0["dominant_rows"].get<double>());
      en.push_back(w["diagonal_energy"].get<double>());
      ch.push_back(w["change_from_init"].get<double>());
      const double final_imbalance = head_imbalance((*pair.second)["head_norms"]);
      if (final_imbalance > im1) {
        im1 = final_imbalance;
        im0 = head_imbalance((*pair.first)["head_norms"]);
        im_layer = layer;
      }
    }
    if (dom.empty()) continue;
    ++s.seeds;
    s.seed_ids.push_back(r.seed);
    s.imbalance_layer.push_back(im_layer);
    s.dominant.push_back(mean(dom));
    s.dominant_init.push_back(mean(dom0));
    s.energy.push_back(mean(en));
    s.imbalance_init.push_back(im0);
    s.imbalance_final.push_back(im1);
    s.change.push_back(mean(ch));
    ++s.not_dominant.n;
    ++s.imbalanced.n;
    if (s.dominant.back() < kDominantRowsShare) {
      ++s.not_dominant.holds;
      s.not_dominant.held_at_init += s.dominant_init.back() < kDominantRowsShare;
    }
    if (im1 >= kHeadImbalance && im1 > im0) {
      ++s.imbalanced.holds;
      s.imbalanced.held_at_init += im0 >= kHeadImbalance;
    }
  }
  return s;
}

}  // namespace wolab::verdicts
