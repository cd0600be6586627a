// The analysis on constructed results whose verdicts are known: paired statistics (leads, ties,
// spread, one seed, diverged runs, thresholds never reached), convergence, each claim's rule
// (docs/claims.md) and the findings of experiments 5 and 6.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <optional>
#include <array>
#include <set>

#include "analysis/analysis.h"
#include "lab/config.h"
#include "lab/results.h"

namespace wolab {
namespace {

using json = nlohmann::json;

constexpr int kSteps = 100;
// A loss floor whose curve (at tau 10) is flat over the last 10% of the run: a run below the
// ceiling that converged rather than one still learning (docs/claims.md, "Convergence").
constexpr double kFlatFloor = 0.02;

// One run: its training loss falls as floor + (2.3 - floor)·exp(-step / tau); its held-out token
// accuracy is acc_mid at step 50 and acc at the end.
struct Spec {
  std::string variant;
  int seed = 0;
  double tau = 10, floor = 0.001;
  double acc = 1.0, acc_mid = 1.0;
  int diverged_at = 0;  // 0: done
  json stats = json::array(), wo = json::array();
};

double loss_at(const Spec& s, int step) { return s.floor + (2.3 - s.floor) * std::exp(-step / s.tau); }

// A schema-1 run record, as the first CLI wrote it.
json record(const Spec& s) {
  const int last = s.diverged_at ? s.diverged_at - 1 : kSteps;
  json steps = json::array(), losses = json::array(), reached = nullptr;
  for (int i = 1; i <= last; ++i) {
    steps.push_back(i);
    losses.push_back(loss_at(s, i));
    if (reached.is_null() && loss_at(s, i) < 0.1) reached = i;
  }
  // A diverged run keeps its eval at step 0 only, and its final metrics come from there.
  json ev = {{"step", {0}}, {"loss", {2.3}}, {"token_acc", {0.1}}, {"exact", {0}}};
  json fin = {{"loss", 2.3}, {"token_acc", 0.1}, {"exact", 0}, {"greedy_exact", nullptr}, {"steps_to_loss_0_1", reached}};
  if (!s.diverged_at) {
    ev = {{"step", {0, 50, kSteps}},
          {"loss", {2.3, loss_at(s, 50), loss_at(s, kSteps)}},
          {"token_acc", {0.1, s.acc_mid, s.acc}},
          {"exact", {0, s.acc_mid / 2, s.acc / 2}}};
    fin = {{"loss", loss_at(s, kSteps)}, {"token_acc", s.acc}, {"exact", s.acc / 2}, {"greedy_exact", s.acc / 2},
           {"steps_to_loss_0_1", reached}};
  }
  return {{"variant", s.variant}, {"seed", s.seed}, {"parameters", 100}, {"curve", {{"step", steps}, {"loss", losses}}},
          {"eval", ev}, {"stats", s.stats}, {"wo", s.wo}, {"final", fin},
          {"status", s.diverged_at ? "diverged at step " + std::to_string(s.diverged_at) : "done"}};
}

json config(const std::string& experiment, int layers = 1) {
  return {{"experiment", experiment},
          {"seeds", 3},
          {"model", {{"d_model", 8}, {"heads", 2}, {"layers", layers}, {"d_ff", 16}}},
          {"task", {{"name", "copy"}, {"alphabet", 4}, {"length", 3}}},
          {"train", {{"steps", kSteps}, {"probe_every", 10}}}};
}

// A schema-1 results file of these runs, read back as parse_results returns it.
json results(const std::string& experiment, const std::vector<Spec>& specs, int layers = 1) {
  json runs = json::array();
  for (const Spec& s : specs) runs.push_back(record(s));
  json file = {{"format", "wolab-results"}, {"version", 1}, {"created_by", "test"}, {"experiment", experiment},
               {"config", config(experiment, layers)}, {"runs", runs}, {"summary", json::array()}};
  return parse_results(file.dump());
}

// An experiment the schema-1 reader does not know, built in the shape parse_results returns:
// typed status, each run's learning rate.
json sweep_results(const std::string& experiment, const std::vector<std::pair<Spec, double>>& runs) {
  json list = json::array();
  for (const auto& [spec, lr] : runs) {
    json r = record(spec);
    r["status"] = spec.diverged_at ? json{{"state", "diverged"}, {"step", spec.diverged_at}} : json{{"state", "done"}};
    r["lr"] = lr;
    list.push_back(r);
  }
  json c = config_json(parse_experiment_config(config("remove_wo").dump()));
  return {{"experiment", experiment}, {"config", c}, {"runs", list}};
}

const json& claim(const json& analysis, int id) { return analysis["claims"][id - 1]; }

const json& comparison(const json& analysis, const std::string& a, const std::string& b) {
  for (const json& p : analysis["experiments"][0]["comparisons"])
    if (p["a"] == a && p["b"] == b) return p;
  throw std::runtime_error("no comparison " + a + " vs " + b);
}

const json& metric(const json& pair, const std::string& name) {
  for (const json& m : pair["metrics"])
    if (m["metric"] == name) return m;
  throw std::runtime_error("no metric " + name);
}

std::vector<Spec> learned_identity(std::vector<double> learned_tau, std::vector<double> identity_tau) {
  std::vector<Spec> out;
  for (size_t i = 0; i < learned_tau.size(); ++i) {
    out.push_back({"learned", int(i), learned_tau[i]});
    out.push_back({"identity", int(i), identity_tau[i]});
  }
  return out;
}

TEST(Analysis, PairedLeadsTiesAndSpreadPerSeed) {
  // Seed 0: learned faster and more accurate; seed 1: a tie on both; seed 2: identity ahead.
  std::vector<Spec> runs = learned_identity({10, 10, 10}, {20, 10, 5});
  const double learned_acc[] = {0.9, 0.8, 0.7}, identity_acc[] = {0.85, 0.8, 0.75};
  for (Spec& s : runs) s.acc = s.acc_mid = (s.variant == "learned" ? learned_acc : identity_acc)[s.seed];
  json a = analyze({results("remove_wo", runs)});
  const json& p = comparison(a, "learned", "identity");
  EXPECT_EQ(p["n"], 3);

  const json& acc = metric(p, "token_acc");
  EXPECT_EQ(acc["ahead_a"], 1);
  EXPECT_EQ(acc["ahead_b"], 1);
  EXPECT_EQ(acc["ties"], 1);
  EXPECT_TRUE(acc["leader"].is_null());
  EXPECT_NEAR(acc["diff"]["mean"].get<double>(), 0.0, 1e-12);
  EXPECT_NEAR(acc["diff"]["min"].get<double>(), -0.05, 1e-12);
  EXPECT_NEAR(acc["diff"]["max"].get<double>(), 0.05, 1e-12);
  EXPECT_NEAR(acc["diff"]["sd"].get<double>(), 0.05, 1e-12);

  // Steps to loss < 0.1: 2.3·exp(-s/tau) < 0.1 first at s = ceil(tau·ln 23) (floor 0.001 aside).
  const json& steps = metric(p, "steps_to_loss_0_1");
  EXPECT_EQ(steps["values"][0]["a"], 32);
  EXPECT_EQ(steps["values"][0]["b"], 63);
  EXPECT_EQ(steps["ahead_a"], 1);
  EXPECT_EQ(steps["ahead_b"], 1);
  EXPECT_EQ(steps["ties"], 1);
  EXPECT_EQ(steps["reached_a"], 3);
  EXPECT_EQ(steps["reached_b"], 3);
  EXPECT_EQ(p["speed"], "steps_to_loss_0_1");
  EXPECT_EQ(claim(a, 1)["verdict"], "not_supported");

  // Losses at fixed steps are smoothed over 5% of the run: step 50 averages steps 46..50.
  const json& mid = metric(p, "loss_at_50");
  EXPECT_EQ(mid["step"], 50);
  double sum = 0;
  for (int s = 46; s <= 50; ++s) sum += loss_at({"learned", 0, 10}, s);
  EXPECT_NEAR(mid["values"][0]["a"].get<double>(), sum / 5, 1e-12);
}

TEST(Analysis, OneSeedHasNoSpreadAndReadsAsOneSeed) {
  std::vector<Spec> runs = learned_identity({10}, {20});
  runs[0].acc = runs[0].acc_mid = 0.9;
  runs[1].acc = runs[1].acc_mid = 0.8;
  json a = analyze({results("remove_wo", runs)});
  const json& acc = metric(comparison(a, "learned", "identity"), "token_acc");
  EXPECT_EQ(acc["n"], 1);
  EXPECT_EQ(acc["leader"], "learned");
  EXPECT_TRUE(acc["consistent"]);
  EXPECT_TRUE(acc["diff"]["sd"].is_null());
  const std::string text = format_analysis(a);
  EXPECT_NE(text.find("learned ahead in the only seed, by 10.0 points"), std::string::npos) << text;
  EXPECT_NE(text.find("1 paired seed\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("1 seeds"), std::string::npos) << text;
  EXPECT_EQ(text.find(", sd "), std::string::npos) << text;
  EXPECT_EQ(text.find("±"), std::string::npos) << text;
}

TEST(Analysis, DivergedRunsLeaveThePairAndAreCounted) {
  std::vector<Spec> runs = learned_identity({10, 10, 10}, {20, 20, 20});
  runs[3].diverged_at = 40;  // identity, seed 1
  json a = analyze({results("remove_wo", runs)});
  const json& p = comparison(a, "learned", "identity");
  EXPECT_EQ(p["n"], 2);
  EXPECT_EQ(p["excluded"], 1);
  EXPECT_EQ(p["diverged"]["a"], 0);
  EXPECT_EQ(p["diverged"]["b"], 1);
  EXPECT_EQ(metric(p, "steps_to_loss_0_1")["ahead_a"], 2);
  const json& conv = a["experiments"][0]["convergence"][1];
  EXPECT_EQ(conv["variant"], "identity");
  EXPECT_EQ(conv["diverged"], 1);
  EXPECT_EQ(conv["done"], 2);
  EXPECT_NE(format_analysis(a).find("1 left out (diverged: learned 0, identity 1"), std::string::npos);
}

TEST(Analysis, AThresholdReachedBeatsOneNeverReached) {
  std::vector<Spec> runs = learned_identity({10, 10, 10}, {10, 10, 10});
  for (Spec& s : runs)
    if (s.variant == "identity") s.floor = 0.5;  // never below 0.1
  json a = analyze({results("remove_wo", runs)});
  const json& p = comparison(a, "learned", "identity");
  const json& steps = metric(p, "steps_to_loss_0_1");
  EXPECT_EQ(steps["ahead_a"], 3);
  EXPECT_EQ(steps["reached_b"], 0);
  EXPECT_TRUE(steps["diff"].is_null());  // no seed where both reached it
  // The gap counts the censored run as the run's length: a lower bound, (100 - 32) / 32.
  EXPECT_NEAR(steps["gap"]["mean"].get<double>(), (100.0 - 32) / 32, 1e-12);
  EXPECT_EQ(p["speed"], "steps_to_loss_0_1");
  EXPECT_EQ(claim(a, 1)["verdict"], "supported");
  EXPECT_NE(format_analysis(a).find("identity needed at least "), std::string::npos) << format_analysis(a);

  // When neither reached it in some seed, speed is the loss at the end instead.
  for (Spec& s : runs) s.floor = 0.5;
  for (Spec& s : runs) s.tau = s.variant == "learned" ? 10 : 80;
  json b = analyze({results("remove_wo", runs)});
  const json& q = comparison(b, "learned", "identity");
  EXPECT_EQ(metric(q, "steps_to_loss_0_1")["neither"], 3);
  EXPECT_EQ(q["speed"], "loss_at_100");
  EXPECT_EQ(metric(q, "loss_at_100")["leader"], "learned");
}

TEST(Analysis, ConvergenceSaysWhenRunsWereStillLearning) {
  std::vector<Spec> runs = {{"learned", 0, 10}, {"identity", 0, 60}};
  runs[1].acc = 0.8;
  runs[1].acc_mid = 0.6;
  json a = analyze({results("remove_wo", runs)});
  const json& conv = a["experiments"][0]["convergence"];
  EXPECT_EQ(conv[0]["state"], "converged");
  EXPECT_EQ(conv[1]["state"], "still_learning");
  EXPECT_NE(format_analysis(a).find("still learning at the last step (1 seed)"), std::string::npos);

  // Flat loss above the threshold and flat accuracy below the ceiling: stalled.
  runs[1] = {"identity", 0, 5, 0.5, 0.6, 0.6};
  json b = analyze({results("remove_wo", runs)});
  EXPECT_EQ(b["experiments"][0]["convergence"][1]["state"], "stalled");
}

struct ClaimCase {
  std::vector<double> learned_tau, identity_tau, learned_acc, identity_acc;
  int claim;
  const char* verdict;
  const char* reason;
};

TEST(Analysis, ClaimsOneAndTwoFollowTheirRules) {
  const ClaimCase cases[] = {
      {{10, 10, 10}, {20, 20, 20}, {1, 1, 1}, {1, 1, 1}, 1, "supported", "clearly_slower"},
      // 16% more steps in every seed: consistent, under the 20% called clear.
      {{10, 10, 10}, {11.6, 11.6, 11.6}, {1, 1, 1}, {1, 1, 1}, 1, "partly_supported", "slower_small_gap"},
      {{10, 10, 10}, {20, 20, 5}, {1, 1, 1}, {1, 1, 1}, 1, "partly_supported", "slower_some_seeds"},
      {{10, 10, 10}, {10, 10, 10}, {1, 1, 1}, {1, 1, 1}, 1, "not_supported", "not_slower"},
      {{10, 10, 10}, {10, 10, 10}, {1, 1, 1}, {0.995, 0.99, 1}, 2, "not_supported", "both_at_ceiling"},
      {{10, 10, 10}, {10, 10, 10}, {0.95, 0.9, 0.97}, {0.85, 0.8, 0.85}, 2, "supported", "drop_in_range"},
      {{10, 10, 10}, {10, 10, 10}, {0.95, 0.9, 0.97}, {0.93, 0.88, 0.95}, 2, "partly_supported", "drop_smaller"},
      {{10, 10, 10}, {10, 10, 10}, {0.95, 0.9, 0.97}, {0.70, 0.6, 0.75}, 2, "partly_supported", "drop_larger"},
      {{10, 10, 10}, {10, 10, 10}, {0.95, 0.9, 0.8}, {0.85, 0.8, 0.9}, 2, "partly_supported", "drop_some_seeds"},
      {{10, 10, 10}, {10, 10, 10}, {0.8, 0.8, 0.8}, {0.9, 0.8, 0.9}, 2, "not_supported", "no_drop"},
  };
  for (const ClaimCase& c : cases) {
    std::vector<Spec> runs = learned_identity(c.learned_tau, c.identity_tau);
    for (Spec& s : runs) {
      s.acc = s.acc_mid = (s.variant == "learned" ? c.learned_acc : c.identity_acc)[s.seed];
      s.floor = kFlatFloor;
    }
    const json got = claim(analyze({results("remove_wo", runs)}), c.claim);
    EXPECT_EQ(got["verdict"], c.verdict) << c.reason;
    EXPECT_EQ(got["reason"], c.reason);
    EXPECT_EQ(got["experiment"], "remove_wo");
  }
}

TEST(Analysis, ClaimsThreeAndFourCompareFrozenRandom) {
  // Identity beats frozen_random and learned beats it by far: the measurement this project's
  // first runs showed, against the article's claim 3.
  std::vector<Spec> runs;
  for (int seed = 0; seed < 3; ++seed)
    for (auto [variant, acc] : {std::pair<const char*, double>{"learned", 0.95}, {"identity", 0.8},
                                {"frozen_random", 0.6}, {"learned_identity_init", 0.95}})
      runs.push_back({variant, seed, 10, kFlatFloor, acc - 0.01 * seed, acc - 0.01 * seed});
  json a = analyze({results("freeze_wo", runs)});
  EXPECT_EQ(claim(a, 3)["verdict"], "not_supported");
  EXPECT_EQ(claim(a, 3)["reason"], "identity_better");
  EXPECT_EQ(claim(a, 4)["verdict"], "supported");
  EXPECT_EQ(claim(a, 4)["reason"], "far_worse");
  EXPECT_NEAR(claim(a, 4)["figures"]["comparison"]["gap"]["mean"].get<double>(), 0.35, 1e-9);

  // At the ceiling, performance is speed: frozen_random needing 59% more steps is "far" worse.
  for (Spec& s : runs) {
    s.acc = s.acc_mid = 1;
    s.tau = s.variant == "frozen_random" ? 16 : 10;
  }
  json b = analyze({results("freeze_wo", runs)});
  EXPECT_EQ(claim(b, 4)["figures"]["comparison"]["metric"], "steps_to_loss_0_1");
  EXPECT_EQ(claim(b, 4)["reason"], "far_worse");
  EXPECT_EQ(claim(b, 3)["reason"], "identity_better");
}

// freeze_wo of 3 seeds with these final token accuracies (below the ceiling, so performance is
// accuracy), per seed.
json freeze_results(std::vector<double> learned, std::vector<double> identity, std::vector<double> frozen_random) {
  std::vector<Spec> runs;
  for (int seed = 0; seed < 3; ++seed)
    for (auto [variant, acc] : {std::pair{"learned", learned[seed]}, {"identity", identity[seed]},
                                {"frozen_random", frozen_random[seed]}})
      runs.push_back({variant, seed, 10, kFlatFloor, acc, acc});
  return results("freeze_wo", runs);
}

// A claim about final values needs final runs: with a run of the pair still learning at its last
// step, claim 2 is not decided (the comparison kept, and how long a run would need), and claims
// 3 and 4 compare the pair's speed, not an accuracy that is not final.
TEST(Analysis, RunsStillLearningDecideNoFinalAccuracy) {
  std::vector<Spec> runs = learned_identity({10, 10, 10}, {10, 10, 10});  // floor 0.001: still falling
  for (Spec& s : runs) s.acc = s.acc_mid = s.variant == "learned" ? 0.95 : 0.85;
  const json a = analyze({results("remove_wo", runs)});
  const json& c = claim(a, 2);
  EXPECT_EQ(c["verdict"], "not_decided");
  EXPECT_EQ(c["reason"], "still_learning");
  EXPECT_EQ(c["figures"]["needs_more_than"], kSteps);
  EXPECT_EQ(c["figures"]["still_learning"], json({"learned", "identity"}));
  EXPECT_EQ(c["figures"]["comparison"]["leader"], "learned");
  EXPECT_FALSE(c["fragile"].get<bool>());
  EXPECT_NE(format_analysis(a).find("not decided"), std::string::npos);
  EXPECT_NE(reason_text(c).find("a run would need more than 100 steps"), std::string::npos) << reason_text(c);
  EXPECT_EQ(a["conclusion"]["counts"]["not_decided"], 1);

  const json f = freeze_results({0.95, 0.95, 0.95}, {0.6, 0.6, 0.6}, {0.8, 0.8, 0.8});
  EXPECT_EQ(claim(analyze({f}), 4)["figures"]["comparison"]["metric"], "token_acc");  // converged runs
  std::vector<Spec> still;
  for (int seed = 0; seed < 3; ++seed)
    for (auto [variant, tau] : {std::pair<const char*, double>{"learned", 10}, {"identity", 10}, {"frozen_random", 20}})
      still.push_back({variant, seed, tau, 0.001, 0.8, 0.8});
  const json b = analyze({results("freeze_wo", still)});
  EXPECT_EQ(claim(b, 4)["figures"]["comparison"]["metric"], "steps_to_loss_0_1");
  EXPECT_EQ(claim(b, 4)["reason"], "far_worse");  // 63 steps against 32
  EXPECT_EQ(claim(b, 3)["reason"], "identity_better");
}

// Enough evidence or no verdict: a stopped run leaves its seed out of the pair, and two paired
// seeds are fewer than the kMinSeeds a verdict needs.
TEST(Analysis, AStoppedRunLeavesTooFewSeeds) {
  json r = results("remove_wo", learned_identity({10, 10, 10}, {20, 20, 20}));
  EXPECT_EQ(claim(analyze({r}), 1)["reason"], "clearly_slower");
  r["runs"][3]["status"] = {{"state", "stopped"}, {"step", 20}};  // identity, seed 1
  const json a = analyze({r});
  const json& c = claim(a, 1);
  EXPECT_EQ(c["verdict"], "not_decided");
  EXPECT_EQ(c["reason"], "too_few_seeds");
  EXPECT_EQ(c["figures"]["n"], 2);
  EXPECT_EQ(c["figures"]["needed"], kMinSeeds);
  EXPECT_EQ(c["figures"]["comparison"]["n"], 2);
  EXPECT_EQ(comparison(a, "learned", "identity")["stopped"]["b"], 1);
  EXPECT_EQ(a["thresholds"]["min_seeds"], kMinSeeds);
  EXPECT_NE(reason_text(c).find("2 of the 3 seeds a verdict needs"), std::string::npos) << reason_text(c);
}

// Runs the reader stopped before any pair finished: the claims were tested and stopped, so not
// decided (runs_stopped), never "not tested"; a pair left unpaired by a diverged run alone
// cannot be tested (no_pairs). Runs stopped before they began are not in the results at all.
TEST(Analysis, StoppedRunsLeaveTheClaimUndecidedNotUntested) {
  json r = freeze_results({0.9, 0.9, 0.9}, {0.6, 0.6, 0.6}, {0.8, 0.8, 0.8});
  json kept = json::array();
  for (json& run : r["runs"]) {
    if (run["variant"] == "frozen_random") continue;  // queued when Stop was pressed
    if (run["variant"] == "identity") run["status"] = {{"state", "stopped"}, {"step", 20}};
    kept.push_back(run);
  }
  r["runs"] = kept;
  const json a = analyze({r});
  for (int id : {1, 2, 3, 4}) {
    const json& c = claim(a, id);
    EXPECT_EQ(c["verdict"], "not_decided") << id;
    EXPECT_EQ(c["reason"], "runs_stopped") << id;
    EXPECT_EQ(c["figures"]["stopped"], 3) << id;
    EXPECT_EQ(reason_text(c).rfind("stopped", 0), 0u) << reason_text(c);
  }
  std::vector<Spec> diverged = learned_identity({10}, {20});
  diverged[1].diverged_at = 40;
  EXPECT_EQ(claim(analyze({results("remove_wo", diverged)}), 1)["reason"], "no_pairs");
}

// The leader is ahead in more than half the seeds and its mean gap favours it; the words say
// "ahead" only for a clear lead, count every seed (ties too) and print the threshold missed.
TEST(Analysis, WordsMatchTheNumbers) {
  const auto remove_wo = [](std::vector<double> learned_acc, std::vector<double> identity_acc) {
    std::vector<Spec> runs = learned_identity({10, 10, 10}, {10, 10, 10});
    for (Spec& s : runs) {
      s.acc = s.acc_mid = (s.variant == "learned" ? learned_acc : identity_acc)[s.seed];
      s.floor = kFlatFloor;
    }
    return analyze({results("remove_wo", runs)});
  };
  // Ahead in 2 seeds by 2 points, behind in the third by 30: a negative mean is no lead.
  const json neg = remove_wo({0.9, 0.9, 0.6}, {0.88, 0.88, 0.9});
  const json& m = claim(neg, 2)["figures"]["comparison"];
  EXPECT_EQ(m["ahead_a"], 2);
  EXPECT_TRUE(m["leader"].is_null());
  EXPECT_TRUE(m["gap"].is_null());
  EXPECT_EQ(claim(neg, 2)["reason"], "no_drop");
  EXPECT_TRUE(claim(neg, 2)["fragile"].get<bool>());  // the seeds split
  std::string text = format_analysis(neg);
  EXPECT_NE(text.find("token accuracy: no clear leader (learned ahead in 2, identity in 1, 0 ties, of 3 seeds)"),
            std::string::npos) << text;
  EXPECT_EQ(text.find("learned ahead in 2 of 3 seeds"), std::string::npos) << text;

  // Three ties are counted as such.
  text = format_analysis(remove_wo({0.9, 0.9, 0.9}, {0.9, 0.9, 0.9}));
  EXPECT_NE(text.find("no clear leader (learned ahead in 0, identity in 0, 3 ties, of 3 seeds)"), std::string::npos)
      << text;

  // Ahead in 2 of 3 by 3 points on average: a leader, not a consistent one.
  text = format_analysis(remove_wo({0.95, 0.95, 0.85}, {0.9, 0.9, 0.86}));
  EXPECT_NE(text.find("no clear leader (learned ahead in 2, identity in 1, 0 ties, of 3 seeds); learned by 3.0 points "
                      "(-1.0 to 5.0) on average (learned ahead in 2 of 3 seeds, under the 80% of seeds called "
                      "consistent)"),
            std::string::npos) << text;

  // 16% more steps in every seed: consistent, under the 20% called clear.
  const json small = analyze({results("remove_wo", learned_identity({10, 10, 10}, {11.6, 11.6, 11.6}))});
  EXPECT_EQ(claim(small, 1)["reason"], "slower_small_gap");
  EXPECT_FALSE(claim(small, 1)["fragile"].get<bool>());
  text = format_analysis(small);
  EXPECT_NE(text.find("learned ahead in 3 of 3 seeds; identity needed 16% more steps on average, under the 20% called clear"),
            std::string::npos) << text;
}

// The conclusion counts the verdicts, says whether longer runs might change them and quotes
// claims 1 and 3 where they were tested (docs/claims.md, "The conclusion"); where real words
// agree, RealWordsAreTheSecondColumnBesideTheToyTasks.
TEST(Analysis, TheConclusionCountsVerdictsAndQuotesClaimsOneAndThree) {
  // Learned clearly faster, both at the ceiling: claim 1 supported, claim 2 not; 3-9 untested.
  const json a = analyze({results("remove_wo", learned_identity({10, 10, 10}, {20, 20, 20}))})["conclusion"];
  EXPECT_EQ(a["counts"], json::parse(R"({"supported": 1, "partly_supported": 0, "not_supported": 1, "not_decided": 0, "not_tested": 7})"));
  EXPECT_FALSE(a["still_learning"].get<bool>());
  EXPECT_EQ(a["quotes"], json::parse("[1]"));

  std::vector<Spec> runs = {{"learned", 0, 10}, {"identity", 0, 60}};  // identity still learning
  runs[1].acc = 0.8;
  runs[1].acc_mid = 0.6;
  for (auto [variant, acc] : {std::pair<const char*, double>{"frozen_random", 0.6}, {"learned_identity_init", 1.0}})
    runs.push_back({variant, 0, 20, 0.001, acc, acc});
  const json b = analyze({results("freeze_wo", runs)})["conclusion"];
  EXPECT_TRUE(b["still_learning"].get<bool>());
  EXPECT_EQ(b["quotes"], json::parse("[1, 3]"));

  const json none = analyze({})["conclusion"];
  EXPECT_EQ(none["counts"]["not_tested"], 9);
  EXPECT_EQ(none["quotes"], json::array());
}

// Each experiment's entry carries the thresholds, for a reader of that entry alone (the page).
TEST(Analysis, EachExperimentCarriesTheThresholds) {
  const json a = analyze({results("remove_wo", learned_identity({10}, {20}))});
  EXPECT_EQ(a["experiments"][0]["thresholds"], a["thresholds"]);
  EXPECT_EQ(a["thresholds"]["loss_threshold"], kLossThreshold);
  EXPECT_EQ(a["thresholds"]["trainable_share"], kTrainableShare);
}

// (8*8) W_o entries, row-major (out, in).
json matrix(const std::function<double(int, int)>& f) {
  json data = json::array();
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) data.push_back(f(i, j));
  return data;
}

json snapshot(int step, const json& data, int layer = 0) {
  return {{"step", step}, {"layer", layer}, {"rows", 8}, {"cols", 8}, {"data", data}};
}

// W_o at step 0: no diagonal preference, every head's block alike.
double wo_at_init(int i, int j) { return 0.3 * std::sin(7.0 * i + 3.0 * j + 1); }

// A W_o at step 0 that is diagonal-dominant: the identity plus a little of wo_at_init.
double dominant_at_init(int i, int j) { return (i == j ? 1.0 : 0.0) + 0.05 * wo_at_init(i, j); }

// wo_heatmap of 3 learned seeds whose W_o went from `init` to `trained`.
json heatmap_results(const std::function<double(int, int)>& trained,
                     const std::function<double(int, int)>& init = wo_at_init) {
  std::vector<Spec> runs;
  for (int seed = 0; seed < 3; ++seed) {
    Spec s{"learned", seed};
    s.wo = {snapshot(0, matrix(init)), snapshot(50, matrix(init)), snapshot(kSteps, matrix(trained))};
    runs.push_back(s);
  }
  return results("wo_heatmap", runs);
}

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
  EXPECT_EQ(r["figures"]["not_dominant"], json::parse(R"({"holds": 3, "held_at_init": 3, "n": 3,
                                                          "init_only": true, "consistent": false})"));
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

// Probe entries of layer 0 every 10 steps, with the given std of W_o(concat) and of the
// residual sum at probe k of 10 (concat's std is 1).
json stats(const std::function<double(int)>& wo_std, const std::function<double(int)>& residual_std) {
  json out = json::array();
  for (int k = 1; k <= 10; ++k)
    out.push_back({{"step", 10 * k}, {"layer", 0}, {"concat", {{"mean", 0}, {"std", 1}}},
                   {"wo_out", {{"mean", 0}, {"std", wo_std(k)}}}, {"residual", {{"mean", 0}, {"std", residual_std(k)}}},
                   {"head_grad_norm", {0.1, 0.1}}});
  return out;
}

// activation_stats of `seeds` seeds: learned's W_o(concat) and residual stds as given, identity's
// residual drifting by 10% of its start a probe.
json activation_results(const std::function<double(int)>& learned_wo, const std::function<double(int)>& learned_residual,
                        int seeds = 3) {
  std::vector<Spec> runs;
  for (int seed = 0; seed < seeds; ++seed) {
    Spec l{"learned", seed}, i{"identity", seed};
    l.stats = stats(learned_wo, learned_residual);
    i.stats = stats([](int) { return 1.0; }, [](int k) { return 1.0 + 0.1 * k; });
    runs.push_back(l);
    runs.push_back(i);
  }
  return results("activation_stats", runs);
}

// Learned W_o's scale grows from 0.54 to 0.9 of concat's.
double adapting_wo(int k) { return 0.5 + 0.04 * k; }

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

// lr_stability of `seeds` seeds at these rates: learned trains at every one (with a loss floor
// below 0.1); the identity runs that `diverges` picks diverge at step 30.
json stability_results(const std::vector<double>& lrs, const std::function<bool(int seed, double lr)>& diverges,
                       double floor = 0.001, int seeds = 3) {
  std::vector<std::pair<Spec, double>> runs;
  for (double lr : lrs)
    for (int seed = 0; seed < seeds; ++seed) {
      runs.push_back({Spec{"learned", seed, 10, floor}, lr});
      Spec i{"identity", seed, 12, floor};
      if (diverges(seed, lr)) i.diverged_at = 30;
      runs.push_back({i, lr});
    }
  return sweep_results("lr_stability", runs);
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
  EXPECT_EQ(f["table"][0]["steps_to_loss_0_1"]["mean"], 32);
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
}

// activation_stats whose per-head gradient norms at every probe are, per variant and seed, as given.
json with_head_grads(json r, const std::function<json(const std::string& variant, int seed)>& norms) {
  for (json& run : r["runs"])
    for (json& p : run["stats"]) p["head_grad_norm"] = norms(run["variant"], run["seed"]);
  return r;
}

// Claim 9: the spread of the per-head gradient norms (CV across heads) with W_o and without.
TEST(Analysis, ClaimNineComparesHowEvenlyTheHeadsShareTheGradient) {
  const json base = activation_results(adapting_wo, [](int) { return 1.0; });
  const json uneven = {0.1, 0.2};  // CV 0.05 / 0.15 = 1/3
  // Learned shares the gradient evenly (CV 0), identity does not: W_o balances.
  const json even = claim(analyze({with_head_grads(base, [&](const std::string& v, int) {
                            return v == "learned" ? json{0.1, 0.1} : uneven;
                          })}), 9);
  EXPECT_EQ(even["verdict"], "supported") << even.dump();
  EXPECT_EQ(even["reason"], "both_hold");
  EXPECT_NEAR(even["figures"]["head_grad_cv_learned"]["mean"].get<double>(), 0, 1e-12);
  EXPECT_NEAR(even["figures"]["head_grad_cv_identity"]["mean"].get<double>(), 1.0 / 3, 1e-12);
  EXPECT_EQ(even["figures"]["balances"]["holds"], 3);

  // Lower with W_o in 2 of 3 seeds, higher in the third: W_o changes the sharing, not towards balance.
  const json mixed = claim(analyze({with_head_grads(base, [&](const std::string& v, int seed) {
                             return v == "identity" ? uneven : seed == 2 ? json{0.1, 0.3} : json{0.1, 0.1};
                           })}), 9);
  EXPECT_EQ(mixed["verdict"], "not_supported");
  EXPECT_EQ(mixed["reason"], "valve_only");
  EXPECT_EQ(mixed["figures"]["reshapes"]["holds"], 3);
  EXPECT_EQ(mixed["figures"]["balances"]["holds"], 2);

  // The same spread with and without W_o: neither part.
  const json same = claim(analyze({with_head_grads(base, [&](const std::string&, int) { return uneven; })}), 9);
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

TEST(Analysis, ClaimsWithoutTheirExperimentAreNotTested) {
  json a = analyze({});
  ASSERT_EQ(a["claims"].size(), 9u);
  for (const json& c : a["claims"]) {
    EXPECT_EQ(c["verdict"], "not_tested");
    EXPECT_EQ(c["reason"], "experiment_absent");
  }
  // remove_wo tests claims 1 and 2 only.
  json b = analyze({results("remove_wo", learned_identity({10}, {20}))});
  EXPECT_NE(claim(b, 1)["verdict"], "not_tested");
  for (int id : {3, 4, 5, 6, 7, 8, 9}) EXPECT_EQ(claim(b, id)["verdict"], "not_tested") << id;
  EXPECT_NE(format_analysis(a).find("not tested with these settings"), std::string::npos);
}

struct ReasonCase {
  int claim;
  const char* verdict;
  const char* reason;
  json results;
};

// Each reason that the tests above do not reach, on one small input.
TEST(Analysis, EveryOtherReasonOnItsOwnInput) {
  std::vector<Spec> diverged = learned_identity({10}, {20});
  diverged[1].diverged_at = 40;  // identity's only seed
  const auto never = [](int, double) { return false; };
  const ReasonCase cases[] = {
      {1, "not_tested", "no_pairs", results("remove_wo", diverged)},
      // Two seeds of three: a verdict needs kMinSeeds.
      {1, "not_decided", "too_few_seeds", results("remove_wo", learned_identity({10, 10}, {20, 20}))},
      {6, "not_decided", "too_few_seeds",
       activation_results([](int) { return 0.5; }, [](int k) { return 1.0 + 0.001 * k; }, 2)},
      {5, "not_tested", "no_snapshots", results("wo_heatmap", {{"learned", 0}, {"learned", 1}})},
      {6, "not_tested", "no_stats", results("activation_stats", learned_identity({10, 10}, {10, 10}))},
      {7, "not_tested", "none_trained", stability_results({0.01, 0.03}, never, 0.5)},
      {3, "supported", "frozen_better", freeze_results({0.9, 0.9, 0.9}, {0.6, 0.6, 0.6}, {0.8, 0.8, 0.8})},
      {3, "partly_supported", "frozen_better_some_seeds", freeze_results({0.9, 0.9, 0.9}, {0.6, 0.6, 0.8}, {0.8, 0.8, 0.6})},
      {3, "not_supported", "no_difference", freeze_results({0.9, 0.9, 0.9}, {0.7, 0.7, 0.7}, {0.7, 0.7, 0.7})},
      {4, "partly_supported", "worse_not_far", freeze_results({0.95, 0.95, 0.95}, {0.6, 0.6, 0.6}, {0.9, 0.9, 0.9})},
      {4, "partly_supported", "worse_some_seeds", freeze_results({0.95, 0.95, 0.6}, {0.6, 0.6, 0.6}, {0.8, 0.8, 0.8})},
      {4, "not_supported", "not_worse", freeze_results({0.8, 0.8, 0.8}, {0.6, 0.6, 0.6}, {0.8, 0.8, 0.8})},
      // From a diagonal-dominant start, W_o grew uniform: not diagonal-dominant, no head stands out.
      {5, "partly_supported", "not_dominant_only",
       heatmap_results([](int i, int j) { return 1.5 * wo_at_init(i, j); }, dominant_at_init)},
      // The same from a random start: not diagonal-dominant at step 0 either, so no evidence.
      {5, "not_supported", "neither_holds", heatmap_results([](int i, int j) { return 1.5 * wo_at_init(i, j); })},
      // The identity with head 0's columns tripled: diagonal-dominant, head 0 stands out.
      {5, "partly_supported", "imbalance_only",
       heatmap_results([](int i, int j) { return (i == j ? 1.0 : 0.01) * (j < 4 ? 3.0 : 1.0); })},
      // W_o kept its scale, the residual sum is steadier than identity's.
      {6, "partly_supported", "steadier_only",
       activation_results([](int) { return 0.5; }, [](int k) { return 1.0 + 0.001 * k; })},
      // identity trains up to 0.02, learned up to 0.03: smaller by less than 3 times.
      {7, "partly_supported", "smaller_lr", stability_results({0.01, 0.02, 0.03}, [](int, double lr) { return lr > 0.02; })},
      // Both train up to 0.03, where one of identity's two seeds diverged.
      {7, "partly_supported", "diverges_more",
       stability_results({0.01, 0.03}, [](int seed, double lr) { return seed == 1 && lr == 0.03; })},
  };
  for (const ReasonCase& c : cases) {
    const json got = claim(analyze({c.results}), c.claim);
    EXPECT_EQ(got["verdict"], c.verdict) << c.reason;
    EXPECT_EQ(got["reason"], c.reason) << "claim " << c.claim;
  }
}

// The tables of codes.h: each code once, read back, and worded for the CLI; codes_json() lists
// them and the run states in their order.
TEST(Analysis, EveryCodeIsListedOnceWithItsText) {
  // Figures of every shape a reason's text reads (claims 2, 5-9 and too_few_seeds), under each
  // id whose parts the text quotes.
  const json part = {{"holds", 1}, {"held_at_init", 0}, {"n", 3}, {"init_only", false}, {"consistent", false}};
  const json figures = {{"n", 2}, {"needed", 3}, {"needs_more_than", 100}, {"not_dominant", part},
                        {"imbalanced", part}, {"adapts", part}, {"steadier", part}, {"small", part},
                        {"protects", part}, {"reshapes", part}, {"balances", part},
                        {"one_seed_short", json::parse(R"({"lr": 0.1, "reached": 1, "ended": 3})")},
                        {"incomplete", json::parse(R"([{"variant": "identity", "lr": 0.1, "ended": 2}])")}};
  std::set<std::string> seen;
  for (const ReasonInfo& r : kReasons) {
    EXPECT_TRUE(seen.insert(r.code).second) << r.code;
    EXPECT_EQ(reason_from_code(r.code), r.reason) << r.code;
    for (int id : {5, 6, 8, 9}) EXPECT_NE(reason_text({{"id", id}, {"reason", r.code}, {"figures", figures}}), "") << r.code;
  }
  for (const char* v : kVerdictCodes) EXPECT_NE(verdict_text(verdict_from_code(v)), "") << v;
  EXPECT_THROW(reason_from_code("slower"), ConfigError);
  EXPECT_THROW(verdict_from_code("Supported"), ConfigError);

  const json codes = codes_json();
  EXPECT_EQ(codes["verdicts"], json({"supported", "partly_supported", "not_supported", "not_decided", "not_tested"}));
  EXPECT_EQ(codes["states"], json({"running", "done", "stopped", "diverged"}));
  EXPECT_EQ(codes["trained_to_end"], json({"done", "diverged"}));
  EXPECT_EQ(codes["cut_short"], json({"stopped"}));
  ASSERT_EQ(codes["reasons"].size(), std::size(kReasons));
  EXPECT_EQ(codes["reasons"][0], json({{"code", "experiment_absent"}, {"verdict", "not_tested"}}));
  // One list of experiments per claim the analysis judges, in its order.
  const json claims = analyze({})["claims"];
  ASSERT_EQ(codes["claim_sources"].size(), claims.size());
  for (size_t i = 0; i < claims.size(); ++i) EXPECT_EQ(codes["claim_sources"][i]["id"], claims[i]["id"]);
  EXPECT_EQ(codes["claim_sources"][6]["experiments"], json({"lr_stability"}));
  EXPECT_THROW(claim_sources(0), std::logic_error);
}

TEST(Analysis, TextInputNamesTheBadDocument) {
  json good = results("remove_wo", learned_identity({10}, {20}));
  EXPECT_EQ(analyze_text(json::array({good}).dump())["claims"].size(), 9u);
  try {
    analyze_text(json::array({good, {{"format", "something else"}}}).dump());
    FAIL() << "accepted a foreign document";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("results[1]: not a W_o Lab results file", 0), 0u) << e.what();
  }
  EXPECT_THROW(analyze_text("not json"), ConfigError);
  EXPECT_THROW(analyze_text("{}"), ConfigError);
}

// ---- Real words (docs/claims.md, "Real words") ----

// Experiment real_words on constructed runs: Spec's curves and accuracies as above, with the
// PER and WER on every held-out word given per run (status stopped for `stopped`).
struct WordSpec {
  Spec run;
  double per = 0.2, wer = 0.6;
  bool stopped = false;
};

json words_results(const std::vector<WordSpec>& specs) {
  json runs = json::array();
  for (const WordSpec& w : specs) {
    json r = record(w.run);
    r["status"] = w.stopped ? json{{"state", "stopped"}, {"step", kSteps}} : json{{"state", "done"}};
    if (w.stopped) r["status"]["step"] = kSteps - 1;
    r["lr"] = 0.001;
    r["clip"] = 1;
    r["wo_sv"] = nullptr;
    r["ov"] = json::array();
    const size_t evals = r["eval"]["step"].size();
    r["eval"]["per"] = std::vector<double>(evals, w.per);
    r["eval"]["wer"] = std::vector<double>(evals, w.wer);
    r["final"]["heldout_words"] = {{"words", 5726}, {"loss", 0.5}, {"token_acc", w.run.acc}, {"per", w.per}, {"wer", w.wer}};
    runs.push_back(r);
  }
  json c = config("real_words");
  c["real_words"] = {{"d_model", 8}, {"heads", 2}, {"layers", 1}, {"d_ff", 16}, {"steps", kSteps}, {"probe_every", 10}};
  json file = {{"format", "wolab-results"}, {"version", 2}, {"created_by", "test"}, {"experiment", "real_words"},
               {"config", c}, {"runs", runs}, {"summary", json::array()}};
  return parse_results(file.dump());
}

// Per seed: learned, identity, frozen_random and learned_identity_init, all converged (their
// loss flat at the end), with these WERs (PER a third of each); still learning with a loss
// falling towards 0.3 at tau 40 (10% lower over the last tenth of the run than the tenth before).
std::vector<WordSpec> words(const std::vector<std::array<double, 4>>& wers, bool still_learning = false) {
  const char* variants[] = {"learned", "identity", "frozen_random", "learned_identity_init"};
  std::vector<WordSpec> out;
  for (size_t seed = 0; seed < wers.size(); ++seed)
    for (size_t v = 0; v < 4; ++v) {
      WordSpec w;
      w.run.variant = variants[v];
      w.run.seed = static_cast<int>(seed);
      w.run.tau = still_learning ? 40 : 10;
      w.run.floor = still_learning ? 0.3 : kFlatFloor;
      w.run.acc = w.run.acc_mid = 0.8;  // teacher forced: g2p stays under the ceiling
      w.wer = wers[seed][v];
      w.per = w.wer / 3;
      out.push_back(w);
    }
  return out;
}

const json& words_claim(const json& analysis, int id) { return analysis["words_claims"][id - 1]; }

TEST(Analysis, RealWordsComparePerAndWerInPointsAgainstLearned) {
  // identity 6 points of WER worse than learned in every seed, frozen_random 15, the other even.
  const json a = analyze({words_results(words({{0.60, 0.66, 0.75, 0.60}, {0.58, 0.64, 0.74, 0.59},
                                               {0.62, 0.68, 0.76, 0.62}}))});
  const json& pairs = a["experiments"][0]["finding"]["pairs"];
  ASSERT_EQ(pairs.size(), 3u);
  EXPECT_EQ(pairs[0]["a"], "identity");
  EXPECT_EQ(pairs[0]["b"], "learned");
  const json& wer = pairs[0]["wer"];
  EXPECT_EQ(wer["leader"], "learned");  // lower is better
  EXPECT_EQ(wer["ahead_b"], 3);
  EXPECT_TRUE(wer["clear"].get<bool>());
  EXPECT_NEAR(wer["gap"]["mean"].get<double>(), 0.06, 1e-9);  // points, not relative
  EXPECT_NEAR(wer["diff"]["mean"].get<double>(), 0.06, 1e-9);  // identity - learned
  EXPECT_EQ(pairs[0]["per"]["leader"], "learned");
  EXPECT_NEAR(pairs[0]["per"]["gap"]["mean"].get<double>(), 0.02, 1e-9);  // a third of WER's
  // The pair's final accuracy, which the verdict sentences word, is WER here, not token accuracy.
  EXPECT_EQ(pairs[0]["accuracy"]["metric"], "wer");
  EXPECT_EQ(pairs[2]["wer"]["leader"], nullptr);       // learned_identity_init: within half a point
  EXPECT_EQ(pairs[2]["wer"]["ties"].get<int>() + pairs[2]["wer"]["ahead_a"].get<int>() +
                pairs[2]["wer"]["ahead_b"].get<int>(),
            3);
  EXPECT_TRUE(pairs[0]["still_learning"].empty());

  // The second column: claims 1-4 judged on real words, the final accuracy being WER.
  EXPECT_EQ(words_claim(a, 2)["verdict"], "supported");
  EXPECT_EQ(words_claim(a, 2)["reason"], "drop_in_range");  // 6 points, within 5-15
  EXPECT_EQ(words_claim(a, 2)["figures"]["comparison"]["metric"], "wer");
  EXPECT_EQ(words_claim(a, 2)["experiment"], "real_words");
  EXPECT_EQ(words_claim(a, 3)["reason"], "identity_better");  // frozen_random's WER is higher still
  EXPECT_EQ(words_claim(a, 4)["reason"], "far_worse");         // 15 points: far
  // The toy column reads no real words.
  for (const json& c : a["claims"]) EXPECT_EQ(c["reason"], "experiment_absent") << c["id"];
  const std::string text = format_analysis(a);
  EXPECT_NE(text.find("Claims 1-4 on real words"), std::string::npos);
  EXPECT_NE(text.find("closest test"), std::string::npos);
  EXPECT_NE(text.find("WER (all words): learned ahead in 3 of 3 seeds, by 6.0 points"), std::string::npos) << text;
}

TEST(Analysis, RealWordsStillLearningDecideNoFinalClaim) {
  // Curves still falling over the last tenth: no final WER to judge claim 2 by, and claims 3
  // and 4 read speed instead.
  const json a = analyze({words_results(words({{0.60, 0.70, 0.80, 0.60}, {0.60, 0.70, 0.80, 0.60},
                                               {0.60, 0.70, 0.80, 0.60}}, /*still_learning=*/true))});
  EXPECT_EQ(words_claim(a, 2)["verdict"], "not_decided");
  EXPECT_EQ(words_claim(a, 2)["reason"], "still_learning");
  EXPECT_EQ(words_claim(a, 2)["figures"]["needs_more_than"], kSteps);
  EXPECT_NE(words_claim(a, 3)["figures"]["comparison"]["metric"], "wer");
  EXPECT_EQ(a["experiments"][0]["finding"]["pairs"][0]["still_learning"].size(), 2u);
  EXPECT_NE(format_analysis(a).find("still learning at the last step: identity, learned"), std::string::npos);
}

TEST(Analysis, RealWordsNeedThreeFinishedSeedsAndStoppedRunsCountForNothing) {
  std::vector<WordSpec> runs = words({{0.60, 0.70, 0.80, 0.60}, {0.60, 0.70, 0.80, 0.60}, {0.60, 0.70, 0.80, 0.60}});
  runs[1].stopped = true;  // seed 0's identity
  const json a = analyze({words_results(runs)});
  for (int id : {1, 2, 3}) {
    EXPECT_EQ(words_claim(a, id)["reason"], "too_few_seeds") << id;
    EXPECT_EQ(words_claim(a, id)["figures"]["n"], 2) << id;
  }
  EXPECT_EQ(words_claim(a, 4)["reason"], "far_worse");  // learned and frozen_random: 3 seeds
}

TEST(Analysis, RealWordsAreTheSecondColumnBesideTheToyTasks) {
  const json toy = results("remove_wo", learned_identity({10, 10, 10}, {14, 14, 14}));
  const json a = analyze({toy, words_results(words({{0.60, 0.61, 0.80, 0.60}, {0.60, 0.61, 0.80, 0.60},
                                                    {0.60, 0.61, 0.80, 0.60}}))});
  EXPECT_EQ(claim(a, 1)["experiment"], "remove_wo");
  EXPECT_EQ(words_claim(a, 1)["experiment"], "real_words");
  EXPECT_EQ(words_claim(a, 2)["reason"], "drop_smaller");  // 1 point in every seed: consistent, under 5
  EXPECT_EQ(a["words_claims"].size(), 4u);
  // The conclusion compares the columns where both decide: claim 1 supported on the toy task
  // (identity 40% slower), not on real words; claim 2 not supported (both at the ceiling)
  // against partly (1 point); claims 3 and 4 have no toy verdict (no freeze_wo).
  EXPECT_EQ(claim(a, 1)["verdict"], "supported");
  EXPECT_EQ(words_claim(a, 1)["verdict"], "not_supported");
  EXPECT_EQ(a["conclusion"]["words"], json::parse(R"({"agree": [], "differ": [1, 2]})"));
  EXPECT_NE(format_analysis(a).find("Where both decide, the toy tasks and real words agree on no claim and differ on claims 1 and 2.\n"),
            std::string::npos);
  EXPECT_EQ(analyze({toy})["conclusion"]["words"], json::parse(R"({"agree": [], "differ": []})"));
}

}  // namespace
}  // namespace wolab
