// The analysis's edges: claims without their experiment, every reason a claim can give on an
// input of its own, the tables of codes and their words, and text input that is not results.
#include <gtest/gtest.h>

#include <iterator>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis_fixtures.h"

namespace wolab::analysis_test {
namespace {

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
      {1, "not_tested", "no_pairs", planning_seeds(results("remove_wo", diverged), 1)},
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
                        {"incomplete", json::parse(R"([{"variant": "identity", "lr": 0.1, "ended": 2}])")},
                        {"failed", 1}, {"error", "simulated crash"}};
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
  EXPECT_EQ(codes["failed_state"], "failed");
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

}  // namespace
}  // namespace wolab::analysis_test
