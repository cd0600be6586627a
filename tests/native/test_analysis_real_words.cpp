// The analysis of experiment real_words on constructed runs (docs/claims.md, "Real words"): PER
// and WER against learned per seed, runs still learning, too few seeds, and the second column
// beside the toy tasks.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "analysis/words.h"
#include "analysis_fixtures.h"

namespace wolab::analysis_test {
namespace {

// Experiment real_words on constructed runs: Spec's curves and accuracies as above, with the
// PER and WER on every held-out word given per run (status stopped for `stopped`).
// A run on real words: its held-out PER falls from per + 0.5 at step 0 to `per` at step 50 and
// stays there (converged), or is still `tail_drop` above it at step 50 (still learning).
struct WordSpec {
  Spec run;
  double per = 0.2, wer = 0.6;
  double tail_drop = 0;
  double mid = 0;  // how much higher than `per` its held-out PER still is at step 50
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
    r["eval"]["per"][0] = w.per + 0.5;
    if (evals == 3) r["eval"]["per"][1] = w.per + w.tail_drop + w.mid;
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
// loss and held-out PER flat at the end), with these WERs (PER a third of each); still learning
// with a loss falling towards 0.3 at tau 40 and a PER 5 points lower at the end than at step 50.
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
      w.tail_drop = still_learning ? 0.05 : 0;
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
  // The pair's final accuracy, which the verdict sentences word, is PER here, not token accuracy.
  EXPECT_EQ(pairs[0]["accuracy"]["metric"], "per");
  EXPECT_EQ(pairs[2]["wer"]["leader"], nullptr);       // learned_identity_init: tied in two seeds
  EXPECT_EQ(pairs[2]["wer"]["ties"].get<int>() + pairs[2]["wer"]["ahead_a"].get<int>() +
                pairs[2]["wer"]["ahead_b"].get<int>(),
            3);
  EXPECT_TRUE(pairs[0]["still_learning"].empty());

  // The second column: claims 1-4 judged on real words, the final accuracy being PER.
  EXPECT_EQ(words_claim(a, 2)["verdict"], "partly_supported");
  EXPECT_EQ(words_claim(a, 2)["reason"], "drop_smaller");  // PER 2 points, under 5-15 (WER 6)
  EXPECT_EQ(words_claim(a, 2)["figures"]["comparison"]["metric"], "per");
  EXPECT_EQ(words_claim(a, 2)["experiment"], "real_words");
  EXPECT_EQ(words_claim(a, 3)["reason"], "identity_better");  // frozen_random's PER is higher still
  EXPECT_EQ(words_claim(a, 4)["reason"], "worse_not_far");     // PER 5 points (WER 15): not 10
  // The toy column reads no real words.
  for (const json& c : a["claims"]) EXPECT_EQ(c["reason"], "experiment_absent") << c["id"];
  const std::string text = format_analysis(a);
  EXPECT_NE(text.find("Claims 1–4 on real words"), std::string::npos);
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
  EXPECT_EQ(words_claim(a, 4)["reason"], "worse_not_far");  // learned and frozen_random: 3 seeds, PER 6.7 points
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
  // (identity 40% slower), not on real words (the same held-out PER curves); claim 2 is not
  // decided on the toy task (both at the ceiling: too easy to show it); claims 3 and 4 have no
  // toy verdict (no freeze_wo).
  EXPECT_EQ(claim(a, 1)["verdict"], "supported");
  EXPECT_EQ(claim(a, 2)["verdict"], "not_decided");
  EXPECT_EQ(words_claim(a, 1)["verdict"], "not_supported");
  EXPECT_EQ(a["conclusion"]["words"], json::parse(R"({"agree": [], "differ": [1]})"));
  EXPECT_NE(format_analysis(a).find("Where both decide, the toy tasks and real words agree on no claim and differ on claim 1.\n"),
            std::string::npos) << format_analysis(a);
  EXPECT_EQ(analyze({toy})["conclusion"]["words"], json::parse(R"({"agree": [], "differ": []})"));
  // Real words recorded apart (trained to the end): the toy analysis concluded with their verdicts.
  const json apart = analyze({words_results(words({{0.60, 0.61, 0.80, 0.60}, {0.60, 0.61, 0.80, 0.60}, {0.60, 0.61, 0.80, 0.60}}))});
  EXPECT_EQ(conclude(analyze({toy}), apart)["words"], a["conclusion"]["words"]);
  EXPECT_EQ(conclude(analyze({toy}), apart)["counts"], analyze({toy})["conclusion"]["counts"]);
  // Its headline counts the claims it tests: 1 to 4 on real words, not the toy tasks' nine.
  EXPECT_EQ(analysis_words(apart, Lang::en)["headline"].get<std::string>().rfind(
                "Of the article's claims 1–4, judged on real words, these runs partly support 2 and do not support 2.", 0),
            0u) << analysis_words(apart, Lang::en)["headline"];
  EXPECT_EQ(analysis_words(a, Lang::en)["headline"].get<std::string>().rfind("Of the article's 9 claims, these runs support 1", 0), 0u);
}

// Claim 1 on real words reads the held-out PER over the run, not the training loss: here learned
// and identity have the same training loss, so they cross loss < 0.1 at the same step in every
// seed, but identity's held-out PER is still 30 points above its final value at step 50.
TEST(Analysis, RealWordsSpeedIsTheHeldOutPerOverTheRunNotTheTrainingLoss) {
  std::vector<WordSpec> runs = words({{0.60, 0.60, 0.80, 0.60}, {0.60, 0.60, 0.80, 0.60}, {0.60, 0.60, 0.80, 0.60}});
  for (WordSpec& w : runs)
    if (w.run.variant == "identity") w.mid = 0.3;
  const json a = analyze({words_results(runs)});
  const json& c = words_claim(a, 1);
  const json& m = c["figures"]["comparison"];
  EXPECT_EQ(m["metric"], "per_area");
  // The area under PER 0.7, 0.2, 0.2 (learned) and 0.7, 0.5, 0.2 (identity) at steps 0, 50, 100,
  // over 100 steps: 0.325 and 0.475, identity's 46% higher in every seed.
  EXPECT_NEAR(m["values"][0]["a"].get<double>(), 0.325, 1e-6);
  EXPECT_NEAR(m["values"][0]["b"].get<double>(), 0.475, 1e-6);
  EXPECT_NEAR(m["effect"]["mean"].get<double>(), std::log(0.325 / 0.475), 1e-6);
  EXPECT_EQ(c["reason"], "clearly_slower");
  const std::string plain = plain_words(c["plain"], Lang::en);
  EXPECT_EQ(plain.rfind("Without W_o held-out PER fell more slowly in 3 of 3 runs, by a clear 46%", 0), 0u) << plain;
  // The training loss cannot tell them apart: the same step in every seed, a tie.
  const json& steps = metric(comparison(a, "learned", "identity"), "steps_to_loss_0_1");
  EXPECT_EQ(steps["ties"], 3);
  EXPECT_EQ(steps["values"][0]["a"], steps["values"][0]["b"]);
}

}  // namespace
}  // namespace wolab::analysis_test
