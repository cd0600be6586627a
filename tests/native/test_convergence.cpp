// Convergence on real words (docs/claims.md, "Convergence"): a g2p run is judged on its held-out
// PER at the probe steps, never on its training loss, on constructed curves whose answer is known.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "analysis/analysis.h"
#include "lab/results.h"

namespace wolab {
namespace {

using json = nlohmann::json;

constexpr int kG2pSteps = 1000, kG2pProbeEvery = 100;  // one probe a tenth, unless a test says

// One g2p run of kG2pSteps steps whose held-out PER at step s is per(s) and whose training loss
// keeps falling to the end (as a model memorising its training words does).
json g2p_record(const std::string& variant, int seed, const std::function<double(int)>& per, int every) {
  json steps = json::array(), losses = json::array();
  for (int i = 1; i <= kG2pSteps; ++i) {
    steps.push_back(i);
    losses.push_back(2.0 * std::exp(-i / 400.0));
  }
  json ev = {{"step", json::array()}, {"loss", json::array()}, {"token_acc", json::array()},
             {"exact", json::array()}, {"per", json::array()}, {"wer", json::array()}};
  for (int s = 0; s <= kG2pSteps; s += every) {
    ev["step"].push_back(s);
    ev["loss"].push_back(1.0);
    ev["token_acc"].push_back(0.7);
    ev["exact"].push_back(0.2);
    ev["per"].push_back(per(s));
    ev["wer"].push_back(std::min(1.0, 3 * per(s)));
  }
  const double last = per(kG2pSteps);
  json fin = {{"loss", 1.0}, {"token_acc", 0.7}, {"exact", 0.2}, {"greedy_exact", 1 - std::min(1.0, 3 * last)},
              {"steps_to_loss_0_1", 700},
              {"heldout_words", {{"words", 5000}, {"loss", 1.0}, {"token_acc", 0.7}, {"per", last},
                                 {"wer", std::min(1.0, 3 * last)}}}};
  return {{"variant", variant}, {"seed", seed}, {"parameters", 100}, {"lr", 0.001}, {"clip", 1},
          {"curve", {{"step", steps}, {"loss", losses}}}, {"eval", ev}, {"stats", json::array()},
          {"wo", json::array()}, {"wo_sv", nullptr}, {"ov", json::array()}, {"final", fin},
          {"status", {{"state", "done"}}}};
}

// The state convergence gives one learned run whose PER follows per(s).
std::string state_of(const std::function<double(int)>& per, int every = kG2pProbeEvery) {
  json c = {{"experiment", "real_words"}, {"seeds", 1},
            {"real_words", {{"d_model", 8}, {"heads", 2}, {"layers", 1}, {"d_ff", 16}, {"steps", kG2pSteps},
                            {"probe_every", every}}}};
  json file = {{"format", "wolab-results"}, {"version", 2}, {"created_by", "test"}, {"experiment", "real_words"},
               {"config", c}, {"runs", {g2p_record("learned", 0, per, every)}}, {"summary", json::array()}};
  const json a = analyze({parse_results(file.dump())});
  for (const json& v : a["experiments"][0]["convergence"])
    if (v["variant"] == "learned") return v["state"];
  return "absent";
}

TEST(Convergence, HeldOutPerStillFallingOverTheLastTenthIsStillLearning) {
  // Linear from 0.9 to 0.3: 6 points over the last tenth (step 900 to 1000).
  EXPECT_EQ(state_of([](int s) { return 0.9 - 0.6 * s / kG2pSteps; }), "still_learning");
}

TEST(Convergence, HeldOutPerFlatAtTheEndIsConvergedWhileTheTrainingLossStillFalls) {
  // The training loss falls by 22% over the last tenth (the toy rule would say still learning);
  // the PER stopped at 0.12 by step 600.
  EXPECT_EQ(state_of([](int s) { return s >= 600 ? 0.12 : 0.9 - 0.78 * s / 600; }), "converged");
}

TEST(Convergence, TheMarginIsHalfAPointOfPer) {
  // Over the last tenth: 0.4 points (within the margin), then 0.6 points (beyond it).
  EXPECT_EQ(state_of([](int s) { return s >= 900 ? 0.150 - 0.004 * (s - 900) / 100 : 0.9 - 0.75 * s / 900; }),
            "converged");
  EXPECT_EQ(state_of([](int s) { return s >= 900 ? 0.150 - 0.006 * (s - 900) / 100 : 0.9 - 0.75 * s / 900; }),
            "still_learning");
  EXPECT_DOUBLE_EQ(kPerStillFalling, 0.005);
}

TEST(Convergence, TheTenthsAreComparedByTheMeanOfTheirProbes) {
  // A probe every 25 steps: 4 in each of the last two tenths. Flat at 0.15 with noise of ±0.2
  // points from probe to probe and a last probe 0.8 points down: the tenths' means differ by
  // 0.15 points (converged), though the last probe is 0.6 under the one at step 900.
  const auto noisy = [](int s) {
    if (s <= 800) return 0.9 - 0.75 * s / 800;
    if (s == 1000) return 0.142;
    return (s / 25) % 2 ? 0.152 : 0.148;
  };
  EXPECT_EQ(state_of(noisy, 25), "converged");
  // The same probes with the last tenth 0.55 points lower still: still learning.
  EXPECT_EQ(state_of([&](int s) { return s > 900 ? noisy(s) - 0.0055 : noisy(s); }, 25), "still_learning");
}

TEST(Convergence, PerRisingAtTheEndIsNotStillLearning) {
  // Overfitting: the held-out PER rose from 0.15 to 0.17 in the last tenth; it stopped improving.
  EXPECT_EQ(state_of([](int s) { return s >= 900 ? 0.15 + 0.02 * (s - 900) / 100 : 0.9 - 0.75 * s / 900; }),
            "converged");
}

TEST(Convergence, PerThatNeverFellIsStalled) {
  EXPECT_EQ(state_of([](int) { return 0.95; }), "stalled");
}

}  // namespace
}  // namespace wolab
