// The analysis of W_o itself on constructed results: claim 5 (the structure learned W_o takes) and
// claim 6 (the scale around W_o), and experiment 4's table of the first and last probes.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "analysis_fixtures.h"

namespace wolab::analysis_test {
namespace {

TEST(Analysis, ClaimFiveReadsTheLearnedWoStructure) {
  // Trained from a diagonal-dominant start: head 0's columns (0..3) weigh three times more; no
  // diagonal preference.
  const auto uneven = [](int i, int j) { return wo_at_init(i, j) * (j < 4 ? 3.0 : 1.1); };
  json a = analyze({heatmap_results(uneven, dominant_at_init)});
  const json& c = claim(a, 5);
  EXPECT_EQ(c["verdict"], "supported") << c.dump();
  EXPECT_EQ(c["reason"], "both_hold");
  EXPECT_FALSE(c["fragile"].get<bool>());
  EXPECT_EQ(c["figures"]["seeds"], 3);
  EXPECT_GE(c["figures"]["head_imbalance_final"]["mean"].get<double>(), 2.5);
  EXPECT_LT(c["figures"]["dominant_rows"]["mean"].get<double>(), kDominantRowsShare);
  EXPECT_DOUBLE_EQ(c["figures"]["dominant_rows_init"]["mean"].get<double>(), 1.0);
  EXPECT_EQ(c["figures"]["not_dominant"]["held_at_init"], 0);

  // The report says what the threshold and the change from step 0 measure.
  const std::string text = format_analysis(a);
  EXPECT_NE(text.find("(W_o counts as diagonal-dominant when 50% or more of its rows are)"), std::string::npos) << text;
  EXPECT_NE(text.find("; the norm of its change since step 0 is "), std::string::npos) << text;
  EXPECT_NE(text.find(" of its norm at step 0"), std::string::npos) << text;
  EXPECT_EQ(text.find("from step 0"), std::string::npos) << text;

  // A part that holds in no seed reads "in none of the 3 seeds", not "in 0 of 3 seeds".
  const std::string neither = format_analysis(analyze({heatmap_results([](int i, int j) { return 1.5 * wo_at_init(i, j); })}));
  EXPECT_NE(neither.find(" and above step 0) in none of the 3 seeds"), std::string::npos) << neither;
  EXPECT_EQ(neither.find(" 0 of 3 seeds"), std::string::npos) << neither;

  // The same trained W_o from a random start: the random step-0 matrix is not diagonal-dominant
  // either, so part (a) is no evidence of learning and does not count as holding.
  const json r = claim(analyze({heatmap_results(uneven)}), 5);
  EXPECT_EQ(r["verdict"], "partly_supported");
  EXPECT_EQ(r["reason"], "imbalance_only");
  EXPECT_EQ(r["figures"]["not_dominant"], json::parse(R"({"holds": 3, "held_at_init": 3, "learned": 0, "n": 3,
                                                          "init_only": true, "consistent": false})"));
  // It earns no dot: the page's dots count the seeds where a part holds and did not at step 0.
  EXPECT_EQ(r["plain"]["parts"][0], 0);
  EXPECT_EQ(r["plain"]["parts"][1], r["figures"]["imbalanced"]["learned"]);
  EXPECT_NE(reason_text(r).find(" at step 0) in 3 of 3 seeds, as at step 0: not evidence of learning"),
            std::string::npos)
      << reason_text(r);

  // A W_o trained into the identity: diagonal-dominant, every head's block alike.
  const json d = claim(analyze({heatmap_results([](int i, int j) { return i == j ? 1.0 : 0.01; })}), 5);
  EXPECT_EQ(d["verdict"], "not_supported");
  EXPECT_EQ(d["reason"], "neither_holds");
  EXPECT_DOUBLE_EQ(d["figures"]["dominant_rows"]["mean"].get<double>(), 1.0);
  EXPECT_NEAR(d["figures"]["diagonal_energy"]["mean"].get<double>(), 8 / (1 + 7 * 1e-4), 1e-9);
}

// Head-block imbalance is read per seed, in the layer where it is largest, against that layer's
// step 0, and listed per seed: one seed whose block stands out is not hidden by a mean.
TEST(Analysis, ClaimFiveReadsHeadImbalancePerSeedAndLayer) {
  const auto uneven = [](int i, int j) { return wo_at_init(i, j) * (j < 4 ? 3.0 : 1.0); };
  std::vector<Spec> runs;
  for (int seed = 0; seed < 3; ++seed) {
    Spec s{"learned", seed};
    // Layer 0 stays as it started; in seed 0, layer 1's head 0 grows three times heavier.
    const json layer1 = seed == 0 ? matrix(uneven) : matrix(wo_at_init);
    s.wo = {snapshot(0, matrix(wo_at_init), 0), snapshot(0, matrix(wo_at_init), 1),
            snapshot(kSteps, matrix(wo_at_init), 0), snapshot(kSteps, layer1, 1)};
    runs.push_back(s);
  }
  const json c = claim(analyze({results("wo_heatmap", runs, 2)}), 5);
  const json& seeds = c["figures"]["per_seed"];
  ASSERT_EQ(seeds.size(), 3u);
  EXPECT_EQ(seeds[0]["layer"], 1);
  EXPECT_GE(seeds[0]["head_imbalance_final"].get<double>(), 2.5);
  EXPECT_LT(seeds[1]["head_imbalance_final"].get<double>(), kHeadImbalance);
  EXPECT_DOUBLE_EQ(seeds[0]["head_imbalance_init"].get<double>(), seeds[1]["head_imbalance_init"].get<double>());
  EXPECT_EQ(c["figures"]["imbalanced"]["holds"], 1);
  EXPECT_EQ(c["reason"], "neither_holds");
  EXPECT_TRUE(c["fragile"].get<bool>());
  EXPECT_NE(reason_text(c).find("stands out (largest/smallest at least 1.5 and above step 0) in 1 of 3 seeds"),
            std::string::npos) << reason_text(c);
}

// A head's block that stands out at the end but stood out more at step 0 is not learned structure:
// "and more than at step 0" (docs/claims.md, claim 5). Head 0's columns start four times heavier
// and end twice as heavy, in a W_o trained diagonal-dominant (so part (a) fails as well).
TEST(Analysis, ClaimFiveDoesNotCountAnImbalanceThatFellSinceStepZero) {
  const auto heavy_start = [](int i, int j) { return wo_at_init(i, j) * (j < 4 ? 4.0 : 1.0); };
  const auto diagonal_uneven = [](int i, int j) { return (i == j ? 1.0 : 0.01) * (j < 4 ? 2.0 : 1.0); };
  const json c = claim(analyze({heatmap_results(diagonal_uneven, heavy_start)}), 5);
  const json& seeds = c["figures"]["per_seed"];
  ASSERT_EQ(seeds.size(), 3u);
  for (const json& s : seeds) {
    EXPECT_GE(s["head_imbalance_final"].get<double>(), kHeadImbalance) << s.dump();
    EXPECT_GE(s["head_imbalance_init"].get<double>(), kHeadImbalance) << s.dump();
    EXPECT_GT(s["head_imbalance_init"].get<double>(), s["head_imbalance_final"].get<double>()) << s.dump();
  }
  EXPECT_EQ(c["figures"]["imbalanced"]["holds"], 0) << c.dump();
  EXPECT_EQ(c["verdict"], "not_supported");
  EXPECT_EQ(c["reason"], "neither_holds");
}

TEST(Analysis, ClaimSixReadsTheScaleAroundWo) {
  const json c = claim(analyze({activation_results(adapting_wo, [](int k) { return 1.0 + 0.001 * k; })}), 6);
  EXPECT_EQ(c["verdict"], "supported") << c.dump();
  EXPECT_EQ(c["reason"], "both_hold");
  EXPECT_NEAR(c["figures"]["scale_ratio_first"]["mean"].get<double>(), 0.54, 1e-9);
  EXPECT_NEAR(c["figures"]["scale_ratio_last"]["mean"].get<double>(), 0.9, 1e-9);
  EXPECT_EQ(c["figures"]["steadier"]["holds"], 3);

  // The same residual drift as identity: W_o's scale changes, the sum is no steadier. The
  // claim's "so that" is contradicted, so the claim is not supported, and the reason says which
  // part held.
  const json d = claim(analyze({activation_results(adapting_wo, [](int k) { return 1.0 + 0.1 * k; })}), 6);
  EXPECT_EQ(d["verdict"], "not_supported");
  EXPECT_EQ(d["reason"], "adapts_only");
  EXPECT_EQ(reason_text(d), "the scale adapted, but the residual sum was not steadier (steadier in none of the 3 seeds)");
}

// Experiment 4's printout: per variant, layer and site, each site's mean and std at the first
// and the last probe, averaged over the runs that have that probe.
TEST(Analysis, EarlyLateTableAveragesTheFirstAndLastProbes) {
  std::vector<Spec> runs;
  for (int seed = 0; seed < 2; ++seed) {
    Spec l{"learned", seed}, i{"identity", seed};
    l.stats = stats([seed](int k) { return 0.5 + 0.04 * k + 0.1 * seed; }, [](int) { return 1.0; });
    i.stats = stats([](int) { return 1.0; }, [](int k) { return 1.0 + 0.1 * k; });
    if (seed == 1) {  // diverged at step 55: its probes end at step 50
      i.diverged_at = 55;
      i.stats.erase(i.stats.begin() + 5, i.stats.end());
    }
    runs.push_back(l);
    runs.push_back(i);
  }
  const json rows = analyze({results("activation_stats", runs)})["experiments"][0]["finding"]["early_late"];
  ASSERT_EQ(rows.size(), 2u * 3);  // (learned, identity) × (concat, wo_out, residual), one layer
  const json& wo = rows[1];
  EXPECT_EQ(wo["variant"], "learned");
  EXPECT_EQ(wo["layer"], 0);
  EXPECT_EQ(wo["site"], "wo_out");
  EXPECT_EQ(wo["early_step"], 10);
  EXPECT_EQ(wo["late_step"], 100);
  EXPECT_NEAR(wo["early_std"].get<double>(), 0.59, 1e-9);  // (0.54 + 0.64) / 2
  EXPECT_NEAR(wo["late_std"].get<double>(), 0.95, 1e-9);   // (0.9 + 1.0) / 2
  EXPECT_EQ(wo["early_mean"], 0);
  const json& residual = rows[5];
  EXPECT_EQ(residual["variant"], "identity");
  EXPECT_EQ(residual["site"], "residual");
  EXPECT_NEAR(residual["early_std"].get<double>(), 1.1, 1e-9);
  EXPECT_NEAR(residual["late_std"].get<double>(), 2.0, 1e-9);  // seed 0 only
  // late / early of the std, per row.
  EXPECT_NEAR(wo["std_ratio"].get<double>(), 0.95 / 0.59, 1e-9);
  EXPECT_NEAR(residual["std_ratio"].get<double>(), 2.0 / 1.1, 1e-9);
  EXPECT_NEAR(rows[0]["std_ratio"].get<double>(), 1.0, 1e-9);  // learned's concat: std 1 throughout
  // identity's W_o(concat) is its concat: marked, and only that row.
  EXPECT_EQ(rows[4]["site"], "wo_out");
  EXPECT_EQ(rows[4]["same_as"], "concat");
  for (size_t k = 0; k < rows.size(); ++k)
    if (k != 4) {
      EXPECT_FALSE(rows[k].contains("same_as")) << k;
    }
}

// The sentence under the early-versus-late table names the row whose std moved most, in either
// direction, leaving out identity's W_o(concat) (the concat again); within kScaleChange it keeps.
TEST(Analysis, EarlyLateReadingNamesTheLargestChange) {
  const auto reading = [](const std::function<double(int)>& learned_wo, const std::function<double(int)>& identity_wo) {
    std::vector<Spec> runs;
    for (int seed = 0; seed < 2; ++seed) {
      Spec l{"learned", seed}, i{"identity", seed};
      l.stats = stats(learned_wo, [](int) { return 1.0; });
      i.stats = stats(identity_wo, [](int) { return 1.0; });
      runs.push_back(l);
      runs.push_back(i);
    }
    return analyze({results("activation_stats", runs)})["experiments"][0]["finding"];
  };
  // learned's W_o(concat) std falls from 2 to 0.2 (x0.1); identity's wo_out row, moving x50, does not count.
  const json shrinks = reading([](int k) { return 2.2 - 0.2 * k; }, [](int k) { return 0.1 * k * k / 2; })["early_late_reading"];
  EXPECT_EQ(shrinks["variant"], "learned");
  EXPECT_EQ(shrinks["layer"], 0);
  EXPECT_EQ(shrinks["site"], "wo_out");
  EXPECT_NEAR(shrinks["std_ratio"].get<double>(), 0.2 / 2.0, 1e-9);
  EXPECT_EQ(shrinks["change"], "shrinks");
  const json grows = reading([](int k) { return 0.5 * k; }, [](int) { return 1.0; })["early_late_reading"];
  EXPECT_NEAR(grows["std_ratio"].get<double>(), 10.0, 1e-9);
  EXPECT_EQ(grows["change"], "grows");
  // Every std within 20% of where it started: the most-moving row, and keeps.
  const json keeps = reading([](int k) { return 1.0 + 0.01 * k; }, [](int) { return 1.0; })["early_late_reading"];
  EXPECT_EQ(keeps["site"], "wo_out");
  EXPECT_NEAR(keeps["std_ratio"].get<double>(), 1.1 / 1.01, 1e-9);
  EXPECT_EQ(keeps["change"], "keeps");
  // No ratio where the early std is 0: that row is null and left out of the reading.
  const json zero = reading([](int k) { return k == 1 ? 0.0 : 5.0; }, [](int) { return 1.0; });
  EXPECT_TRUE(zero["early_late"][1]["std_ratio"].is_null());
  EXPECT_EQ(zero["early_late_reading"]["change"], "keeps");
  EXPECT_NE(zero["early_late_reading"]["site"], "wo_out");
}

}  // namespace
}  // namespace wolab::analysis_test
