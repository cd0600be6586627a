// The analysis of training dynamics on constructed results: claim 7 (learning-rate stability),
// claim 8 (the first probe), claim 9 (how evenly the heads share the gradient), and the findings
// of experiments 5 and 6 (gain against learning, runs stalled at chance).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "analysis_fixtures.h"

namespace wolab::analysis_test {
namespace {

// A stopped run counts for nothing: a rate left with fewer than kMinSeeds ended runs of identity
// leaves claim 7 not decided (it would read as a rate identity cannot train, or one decided by a
// seed or two), and one stopped seed of four leaves the rate to the other three.
TEST(Analysis, ClaimSevenCountsStoppedRunsForNothing) {
  auto stopped = [](json sweep, double lr, int seeds) {
    for (json& r : sweep["runs"])
      if (r["variant"] == "identity" && r["lr"] == lr && r["seed"].get<int>() < seeds)
        r["status"] = {{"state", "stopped"}, {"step", 20}};
    return sweep;
  };
  const json all = stability_results({0.001, 0.01, 0.03}, [](int, double) { return false; });
  EXPECT_EQ(claim(analyze({all}), 7)["reason"], "not_needed");
  const json c = claim(analyze({stopped(all, 0.03, 1)}), 7);
  EXPECT_EQ(c["verdict"], "not_decided");
  EXPECT_EQ(c["reason"], "rates_incomplete");
  EXPECT_FALSE(c["fragile"].get<bool>());
  EXPECT_EQ(c["figures"], json::parse(R"({"incomplete": [{"variant": "identity", "lr": 0.03, "ended": 2}], "needed": 3})"));
  EXPECT_NE(reason_text(c).find("short: identity at 0.03 (2)"), std::string::npos) << reason_text(c);
  const json four = stability_results({0.001, 0.01, 0.03}, [](int, double) { return false; }, 0.001, 4);
  const json one = analyze({stopped(four, 0.03, 1)});
  EXPECT_EQ(claim(one, 7)["reason"], "not_needed");
  const json& row = one["experiments"][0]["finding"]["table"][5];  // identity at 0.03
  EXPECT_EQ(row["stopped"], 1);
  EXPECT_TRUE(row["trainable"]);
  EXPECT_FALSE(row["split"].get<bool>());
}

TEST(Analysis, ClaimSevenAndTheStabilityTable) {
  // learned trains up to 0.03; identity up to `identity_top`, diverging above it.
  auto sweep = [](double identity_top) {
    return stability_results({0.001, 0.003, 0.01, 0.03}, [=](int, double lr) { return lr > identity_top; });
  };
  json a = analyze({sweep(0.003)});
  const json& c = claim(a, 7);
  EXPECT_EQ(c["verdict"], "supported");
  EXPECT_EQ(c["reason"], "much_smaller_lr");
  EXPECT_DOUBLE_EQ(c["figures"]["highest_trainable_lr"]["identity"].get<double>(), 0.003);
  EXPECT_EQ(c["figures"]["diverged"]["identity"], 6);
  EXPECT_FALSE(c["fragile"].get<bool>());
  const json& f = a["experiments"][0]["finding"];
  EXPECT_EQ(f["most_tolerant"], json({"learned"}));
  EXPECT_EQ(f["identity_vs_learned"], "smaller");
  ASSERT_EQ(f["table"].size(), 8u);
  const json& row = f["table"][7];  // identity at 0.03
  EXPECT_EQ(row["variant"], "identity");
  EXPECT_EQ(row["diverged"], 3);
  EXPECT_EQ(row["reached"], 0);
  EXPECT_FALSE(row["trainable"]);
  EXPECT_FALSE(row["split"].get<bool>());
  EXPECT_EQ(f["table"][0]["reached"], 3);
  EXPECT_EQ(f["table"][0]["steps_to_loss_0_1"]["mean"], 34);  // on the 5-step mean of the loss
  EXPECT_TRUE(a["experiments"][0]["comparisons"].empty());  // the per-rate table replaces pairs
  EXPECT_NE(format_analysis(a).find("highest trainable learning rate is smaller than with learned W_o: 0.003 against 0.03"),
            std::string::npos);
  // The most tolerant variant, in plain words: the rate first, then who trained there.
  EXPECT_NE(format_analysis(a).find("The highest learning rate at which any variant still trained (loss < 0.1 in at "
                                    "least 50% of its seeds) was 0.03: only learned trained there."),
            std::string::npos)
      << format_analysis(a);

  EXPECT_EQ(claim(analyze({sweep(0.01)}), 7)["reason"], "much_smaller_lr");  // 0.03 / 0.01 = 3
  const json same = claim(analyze({sweep(0.03)}), 7);
  EXPECT_EQ(same["verdict"], "not_supported");
  EXPECT_EQ(same["reason"], "not_needed");
  EXPECT_TRUE(c["figures"]["undecided"].empty());  // identity failed above 0.003 by diverging

  // identity's runs at 0.01 still learning at the last step, short of loss 0.1: the verdict
  // stands, and the figures say that longer runs might train identity there.
  std::vector<std::pair<Spec, double>> slow;
  for (double lr : {0.001, 0.003, 0.01, 0.03})
    for (int seed = 0; seed < 3; ++seed) {
      slow.push_back({Spec{"learned", seed, 10}, lr});
      Spec i{"identity", seed, lr == 0.01 ? 100.0 : 12};
      if (lr == 0.01) i.acc = i.acc_mid = 0.5;  // below the ceiling: judged by its loss
      if (lr > 0.01) i.diverged_at = 30;
      slow.push_back({i, lr});
    }
  const json u = analyze({sweep_results("lr_stability", slow)});
  EXPECT_EQ(claim(u, 7)["verdict"], "supported");
  EXPECT_EQ(claim(u, 7)["figures"]["undecided"],
            json::parse(R"([{"variant": "identity", "lr": 0.01, "still_learning": 3, "runs": 3}])"));
  EXPECT_NE(format_analysis(u).find("still learning at the last step, so longer runs might train identity at 0.01"),
            std::string::npos);
}

// One seed at one grid step cannot decide claim 7: identity reaches loss < 0.1 at 0.003 in 1 of 3
// seeds, one short of the 50% that trains it, so one more seed would make I = L.
TEST(Analysis, ClaimSevenIsNotDecidedOneSeedApart) {
  const json a = analyze({stability_results({0.001, 0.003}, [](int seed, double lr) { return lr == 0.003 && seed > 0; })});
  const json& c = claim(a, 7);
  EXPECT_EQ(c["verdict"], "not_decided");
  EXPECT_EQ(c["reason"], "one_seed_apart");
  EXPECT_EQ(c["figures"]["one_seed_short"], json::parse(R"({"lr": 0.003, "reached": 1, "ended": 3})"));
  EXPECT_FALSE(c["fragile"].get<bool>());  // no verdict to be fragile
  EXPECT_NE(format_analysis(a).find("identity trained at 0.003 in 1 of 3 runs, one short of the 50% that trains it"),
            std::string::npos) << format_analysis(a);
  // Two seeds short (0 of 3 reached it) decides it.
  EXPECT_EQ(claim(analyze({stability_results({0.001, 0.003}, [](int, double lr) { return lr == 0.003; })}), 7)["reason"],
            "much_smaller_lr");
}

// A rate where some but not all ended runs reached the threshold splits its seeds: its table row
// says so, and claim 7 decided at that rate is fragile.
TEST(Analysis, ClaimSevenIsFragileWhereTheDecidingRateSplits) {
  const json a = analyze({stability_results({0.01, 0.03}, [](int seed, double lr) { return seed == 1 && lr == 0.03; })});
  EXPECT_EQ(claim(a, 7)["reason"], "diverges_more");
  EXPECT_TRUE(claim(a, 7)["fragile"].get<bool>());
  const json& row = a["experiments"][0]["finding"]["table"][3];  // identity at 0.03: 2 of 3 reached it
  EXPECT_EQ(row["reached"], 2);
  EXPECT_TRUE(row["split"].get<bool>());
  EXPECT_NE(format_analysis(a).find("2 of 3 (split)"), std::string::npos) << format_analysis(a);
}

TEST(Analysis, GainVsLearningSeparatesScaleFromLearning) {
  std::vector<std::pair<Spec, double>> runs;
  for (int seed = 0; seed < 3; ++seed)
    for (auto [variant, tau] : {std::pair<const char*, double>{"learned", 9}, {"identity", 10},
                                {"frozen_random", 16}, {"frozen_random_scaled", 10.5}, {"frozen_orthogonal", 10}})
      runs.push_back({Spec{variant, seed, tau}, 0.001});
  json a = analyze({sweep_results("gain_vs_learning", runs)});
  const json& f = a["experiments"][0]["finding"];
  EXPECT_EQ(f["speed_vs_identity"]["frozen_random"], "behind");
  EXPECT_EQ(f["speed_vs_identity"]["frozen_random_scaled"], "similar");
  EXPECT_EQ(f["speed_vs_identity"]["frozen_orthogonal"], "similar");
  EXPECT_TRUE(f["scaled_like_identity"].get<bool>());
  EXPECT_TRUE(f["unscaled_lags"].get<bool>());
  // Claim 3 is judged on gain_vs_learning when freeze_wo is absent, and refined by it.
  const json& c = claim(a, 3);
  EXPECT_EQ(c["experiment"], "gain_vs_learning");
  EXPECT_EQ(c["reason"], "identity_better");
  EXPECT_TRUE(c["figures"]["refinement"]["scaled_like_identity"].get<bool>());
}

// Claim 8 at the first probe (step 10): learned's W_o(concat) std against concat's (1), and the
// attention output's share of the residual sum against identity's, 1 / 1.1.
TEST(Analysis, ClaimEightReadsTheFirstProbe) {
  struct Case {
    double wo, residual;
    const char *verdict, *reason;
  };
  const Case cases[] = {
      {0.5, 1.0, "supported", "both_hold"},            // ratio 0.5, share 0.5 against 0.91
      {0.5, 0.5, "not_supported", "small_only"},       // small, but a share of 1: the cause alone
      {0.9, 2.0, "partly_supported", "protects_only"}, // not small, share 0.45
      {0.9, 0.9, "not_supported", "neither_holds"},
  };
  for (const Case& k : cases) {
    // Only the first probe counts: later probes move far from it.
    const json a = analyze({activation_results([&](int i) { return i == 1 ? k.wo : 3.0; },
                                               [&](int i) { return i == 1 ? k.residual : 0.1; })});
    const json& c = claim(a, 8);
    EXPECT_EQ(c["verdict"], k.verdict) << k.reason;
    EXPECT_EQ(c["reason"], k.reason);
    EXPECT_EQ(c["experiment"], "activation_stats");
    EXPECT_EQ(c["figures"]["seeds"], 3);
    EXPECT_EQ(c["figures"]["step"], 10);
    EXPECT_NEAR(c["figures"]["scale_ratio_first"]["mean"].get<double>(), k.wo, 1e-12);
    EXPECT_NEAR(c["figures"]["output_share_learned"]["mean"].get<double>(), k.wo / k.residual, 1e-12);
    EXPECT_NEAR(c["figures"]["output_share_identity"]["mean"].get<double>(), 1 / 1.1, 1e-12);
  }
  const json a = analyze({activation_results([](int) { return 0.5; }, [](int) { return 1.0; })});
  EXPECT_NE(format_analysis(a).find("(small, below 0.80, in 3 of 3 seeds)"), std::string::npos) << format_analysis(a);

  // The same runs whose learned W_o at step 0 already had a gain of 0.58 (the root mean square of
  // its singular values, PyTorch's default init): small as initialised, no evidence of W_o's
  // doing. Part (a) earns no dot; the claim rests on part (b) alone.
  json r = activation_results([](int) { return 0.5; }, [](int) { return 1.0; });
  for (json& run : r["runs"]) run["wo_sv"] = json::array({std::vector<double>(8, run["variant"] == "learned" ? 0.58 : 1.0)});
  const json init = analyze({r});
  const json& c = claim(init, 8);
  EXPECT_EQ(c["figures"]["small"]["holds"], 3);
  EXPECT_EQ(c["figures"]["small"]["held_at_init"], 3);
  EXPECT_NEAR(c["figures"]["scale_ratio_init"]["mean"].get<double>(), 0.58, 1e-12);
  EXPECT_EQ(c["verdict"], "partly_supported");
  EXPECT_EQ(c["reason"], "protects_only");
  EXPECT_EQ(c["plain"]["code"], "early_init_protects");
  EXPECT_EQ(c["plain"]["parts"], json::parse("[0, 3]"));
  EXPECT_EQ(plain_words(c["plain"], Lang::en),
            "W_o's output was small early (ratio 0.500) as initialised (0.580 at step 0), not learned; the attention's share "
            "shrank in 3 of 3 runs.");
  EXPECT_NE(reason_text(c).find("in 3 of 3 seeds, as at step 0: not evidence of learning"), std::string::npos) << reason_text(c);
}

// activation_stats whose per-head gradient norms at every probe are, per variant and seed, as given;
// at the first probe (step 10) `first` for every run when given: the variants alike as initialised.
json with_head_grads(json r, const std::function<json(const std::string& variant, int seed)>& norms,
                     const json& first = nullptr) {
  for (json& run : r["runs"])
    for (json& p : run["stats"])
      p["head_grad_norm"] = p["step"] == 10 && !first.is_null() ? first : norms(run["variant"], run["seed"]);
  return r;
}

// Claim 9: the spread of the per-head gradient norms (CV across heads) with W_o and without.
TEST(Analysis, ClaimNineComparesHowEvenlyTheHeadsShareTheGradient) {
  const json base = activation_results(adapting_wo, [](int) { return 1.0; });
  const json uneven = {0.1, 0.2};  // CV 0.05 / 0.15 = 1/3
  const json alike = {0.1, 0.1};  // CV 0: both variants at the first probe
  // Learned shares the gradient evenly (CV 0), identity does not, after the first probe where
  // both did: W_o balances, and learned it. Identity's mean CV over its 10 probes: 0.9 / 3.
  const auto learned_even = [&](const std::string& v, int) { return v == "learned" ? json{0.1, 0.1} : uneven; };
  const json even = claim(analyze({with_head_grads(base, learned_even, alike)}), 9);
  EXPECT_EQ(even["verdict"], "supported") << even.dump();
  EXPECT_EQ(even["reason"], "both_hold");
  EXPECT_NEAR(even["figures"]["head_grad_cv_learned"]["mean"].get<double>(), 0, 1e-12);
  EXPECT_NEAR(even["figures"]["head_grad_cv_identity"]["mean"].get<double>(), 0.3, 1e-12);
  EXPECT_EQ(even["figures"]["balances"]["holds"], 3);
  EXPECT_EQ(even["figures"]["balances"]["held_at_init"], 0);
  EXPECT_EQ(even["plain"]["parts"], json::parse("[3, 3]"));

  // The same, but the heads shared it so from the first probe on: as initialised, not a valve W_o
  // learned. Neither part counts, and neither earns a dot.
  const json from_start = claim(analyze({with_head_grads(base, learned_even)}), 9);
  EXPECT_EQ(from_start["verdict"], "not_supported");
  EXPECT_EQ(from_start["reason"], "neither_holds");
  EXPECT_EQ(from_start["figures"]["balances"]["held_at_init"], 3);
  EXPECT_EQ(from_start["plain"]["code"], "valve_balances_as_initialised");
  EXPECT_EQ(from_start["plain"]["parts"], json::parse("[0, 0]"));
  EXPECT_NE(reason_text(from_start).find("as at the first probe: not evidence of learning"), std::string::npos)
      << reason_text(from_start);

  // Lower with W_o in 2 of 3 seeds, higher in the third: W_o changes the sharing, not towards balance.
  const json mixed = claim(analyze({with_head_grads(base, [&](const std::string& v, int seed) {
                             return v == "identity" ? uneven : seed == 2 ? json{0.1, 0.3} : json{0.1, 0.1};
                           }, alike)}), 9);
  EXPECT_EQ(mixed["verdict"], "not_supported");
  EXPECT_EQ(mixed["reason"], "valve_only");
  EXPECT_EQ(mixed["figures"]["reshapes"]["holds"], 3);
  EXPECT_EQ(mixed["figures"]["balances"]["holds"], 2);

  // The same spread with and without W_o: neither part.
  const json same = claim(analyze({with_head_grads(base, [&](const std::string&, int) { return uneven; }, alike)}), 9);
  EXPECT_EQ(same["reason"], "neither_holds");

  // One head has no sharing to measure.
  json one = base;
  one["config"]["model"]["heads"] = 1;
  EXPECT_EQ(claim(analyze({one}), 9)["reason"], "one_head");
  EXPECT_EQ(claim(analyze({one}), 9)["verdict"], "not_tested");
}

// Experiment 5's why: the singular values of each fixed W_o at step 0, from the runs' wo_sv.
TEST(Analysis, GainVsLearningCarriesTheSingularValuesOfFixedMatrices) {
  const std::vector<double> random = {1.2, 1.0, 0.8, 0.6, 0.4, 0.3, 0.2, 0.1};
  std::vector<std::pair<Spec, double>> runs;
  for (int seed = 0; seed < 2; ++seed)
    for (const char* v : {"learned", "identity", "frozen_random", "frozen_random_scaled", "frozen_orthogonal"})
      runs.push_back({Spec{v, seed}, 0.001});
  json r = sweep_results("gain_vs_learning", runs);
  for (json& run : r["runs"]) {
    const std::string v = run["variant"];
    std::vector<double> sv(8, 1.0);
    if (v == "learned" || v == "frozen_random") sv = random;
    if (v == "frozen_random_scaled")
      for (size_t k = 0; k < 8; ++k) sv[k] = 2 * random[k];
    run["wo_sv"] = {sv};
  }
  const json f = analyze({r})["experiments"][0]["finding"]["singular_values"];
  ASSERT_EQ(f.size(), 4u);  // the fixed ones, in the experiment's order: learned's W_o moves
  EXPECT_EQ(f[0]["variant"], "identity");
  EXPECT_EQ(f[0]["gain"], "keeps");
  EXPECT_EQ(f[1]["variant"], "frozen_random");
  EXPECT_NEAR(f[1]["mean"].get<double>(), 4.6 / 8, 1e-12);
  EXPECT_DOUBLE_EQ(f[1]["min"].get<double>(), 0.1);
  EXPECT_DOUBLE_EQ(f[1]["max"].get<double>(), 1.2);
  EXPECT_NEAR(f[1]["rms"].get<double>(), std::sqrt(3.74 / 8), 1e-12);  // 0.68
  EXPECT_EQ(f[1]["gain"], "shrinks");
  EXPECT_EQ(f[2]["variant"], "frozen_random_scaled");
  EXPECT_EQ(f[2]["gain"], "amplifies");  // rms 2 · 0.68 = 1.37
  EXPECT_EQ(f[3]["gain"], "keeps");
  EXPECT_NE(format_analysis(analyze({r})).find("frozen_random 0.57 (0.10 to 1.20), root mean square 0.68: it shrinks"),
            std::string::npos) << format_analysis(analyze({r}));
}

// Experiment 6's why: runs whose final loss is near ln(alphabet) stalled at chance.
TEST(Analysis, StabilityTableCountsRunsStalledAtChance) {
  std::vector<std::pair<Spec, double>> runs;
  for (double lr : {0.01, 0.3})
    for (int seed = 0; seed < 2; ++seed)
      for (const char* v : {"learned", "identity"}) {
        Spec s{v, seed, 10, lr == 0.3 ? 1.4 : 0.001};  // at 0.3 the loss stays at 1.4, ln 4 = 1.386
        if (lr == 0.3 && seed == 1 && std::string(v) == "identity") s.diverged_at = 30;
        runs.push_back({s, lr});
      }
  const json a = analyze({sweep_results("lr_stability", runs)});
  const json& f = a["experiments"][0]["finding"];
  EXPECT_EQ(f["alphabet"], 4);
  EXPECT_NEAR(f["chance_loss"].get<double>(), std::log(4.0), 1e-12);
  EXPECT_EQ(f["table"][0]["near_chance"], 0);  // learned at 0.01
  EXPECT_EQ(f["table"][1]["near_chance"], 2);  // learned at 0.3
  EXPECT_EQ(f["table"][3]["near_chance"], 1);  // identity at 0.3: the other seed diverged
  ASSERT_EQ(f["stalls"].size(), 1u);
  const json& s = f["stalls"][0];
  EXPECT_DOUBLE_EQ(s["lr"].get<double>(), 0.3);
  EXPECT_EQ(s["ended"], 4);
  EXPECT_EQ(s["near_chance"], 3);
  EXPECT_EQ(s["diverged"], 1);
  EXPECT_NEAR(s["final_loss"]["mean"].get<double>(), 1.4, 1e-3);
  EXPECT_NE(format_analysis(a).find("At lr 0.3, 3 of 4 runs that trained to their end stalled near chance: final loss 1.40 "
                                    "against ln 4 = 1.39, guessing among 4 symbols (within 10%); 1 diverged."),
            std::string::npos) << format_analysis(a);
}

}  // namespace
}  // namespace wolab::analysis_test
