// Experiment real_words (lab/experiment.h): its runs train on g2p with its own model and length,
// share no run with the toy experiments, and need the lexicon; a g2p run's record carries PER and
// WER at every probe step and on every held-out word at the end (docs/results.md), adds up from
// its probe fragments, and keeps W_o snapshots, stats and OV values like any other run.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/cmudict.h"
#include "lab/config.h"
#include "lab/experiment.h"
#include "lab/plan.h"
#include "lab/results.h"
#include "run/g2p.h"
#include "run/trainer.h"
#include "helpers.h"

namespace wolab {
namespace {

using json = nlohmann::json;

ExperimentConfig words_config() {
  ExperimentConfig cfg = parse_experiment_config(R"({"experiment": "real_words", "seeds": 1,
    "real_words": {"d_model": 16, "heads": 2, "layers": 1, "d_ff": 32, "steps": 12, "batch": 8,
                   "probe_every": 5, "heldout": 16}})");
  return cfg;
}

RunConfig words_run(WoMode wo = WoMode::learned) {
  RunConfig run = run_config(*find_experiment("real_words"), words_config());
  run.model.wo = wo;
  return run;
}

TEST(RealWords, TrainsOnG2pWithItsOwnSettings) {
  const ExperimentConfig cfg = words_config();
  const RunConfig run = run_config(*find_experiment("real_words"), cfg);
  EXPECT_EQ(run.task.kind, TaskKind::g2p);
  EXPECT_EQ(run.model.d_model, 16);
  EXPECT_EQ(run.model.heads, 2);
  EXPECT_EQ(run.train.steps, 12);
  EXPECT_EQ(run.task.heldout, 16);
  EXPECT_EQ(run.model.vocab, kG2pVocab);  // derived
  EXPECT_EQ(run.train.lr, cfg.base.train.lr);  // the rest is base's
  // The toy experiments keep base.
  EXPECT_EQ(config_json(run_config(*find_experiment("remove_wo"), cfg)), config_json(cfg.base));
  EXPECT_EQ(find_experiment("real_words")->needs_data, "lexicon");
  EXPECT_TRUE(needs_lexicon(cfg));
  ExperimentConfig toy = cfg;
  toy.experiment = "freeze_wo";
  EXPECT_FALSE(needs_lexicon(toy));
  toy.experiment = "all";
  EXPECT_TRUE(needs_lexicon(toy));
  const json listed = experiments_json()[6];
  EXPECT_EQ(listed["name"], "real_words");
  EXPECT_EQ(listed["needs_data"], "lexicon");
  EXPECT_TRUE(experiments_json().front()["needs_data"].is_null());
}

TEST(RealWords, PlanSharesNoRunWithTheToyExperiments) {
  ExperimentConfig cfg = words_config();
  const std::vector<PlannedRun> plan = plan_runs(cfg, {"freeze_wo", "real_words"});
  ASSERT_EQ(plan.size(), 8u);  // 4 variants each, one seed
  for (size_t i = 0; i < plan.size(); ++i) {
    ASSERT_EQ(plan[i].experiments.size(), 1u);
    EXPECT_EQ(plan[i].experiments[0], i < 4 ? "freeze_wo" : "real_words");
    EXPECT_EQ(plan[i].config.task.kind, i < 4 ? TaskKind::copy : TaskKind::g2p);
  }
}

TEST(RealWords, ItsSettingsAreCheckedAndNamed) {
  ExperimentConfig cfg = words_config();
  cfg.real_words.heads = 3;
  const std::vector<std::string> problems = validate(cfg);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "real_words.heads: d_model 16 is not divisible by heads 3; choose heads dividing d_model");
  cfg.experiment = "remove_wo";  // not trained, not checked beyond its ranges
  EXPECT_TRUE(validate(cfg).empty());
  EXPECT_EQ(config_problems(R"({"real_words": {"steps": 0}})").at(0),
            "real_words.steps: 0 is out of range; use an integer in 1..1000000");
}

TEST(RealWords, RecordCarriesPerAndWerAtProbesAndOnEveryHeldOutWord) {
  Trainer t(words_run(), small_lexicon());
  while (!t.finished()) t.step(5);
  const json r = run_record(t);
  EXPECT_EQ(r["eval"]["step"], json::parse("[5, 10, 12]"));
  ASSERT_EQ(r["eval"]["per"].size(), 3u);
  ASSERT_EQ(r["eval"]["wer"].size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_FLOAT_EQ(r["eval"]["per"][i].get<float>(), t.g2p_evals()[i].per);
    EXPECT_FLOAT_EQ(r["eval"]["wer"][i].get<float>(), t.g2p_evals()[i].wer);
  }
  const json& words = r["final"]["heldout_words"];
  const G2pScores all = t.g2p_scores(true);
  EXPECT_EQ(words["words"], static_cast<int>(small_lexicon()->heldout.size()));
  EXPECT_GT(words["words"].get<int>(), 16);  // all of them, not the probe subset
  EXPECT_FLOAT_EQ(words["per"].get<float>(), all.per);
  EXPECT_FLOAT_EQ(words["wer"].get<float>(), all.wer);
  EXPECT_FLOAT_EQ(words["token_acc"].get<float>(), all.token_acc);
  EXPECT_FLOAT_EQ(words["loss"].get<float>(), all.loss);
  EXPECT_FLOAT_EQ(r["final"]["greedy_exact"].get<float>(), 1 - t.g2p_evals().back().wer);
}

TEST(RealWords, ProbeFragmentsAddUpToTheRecord) {
  Trainer t(words_run(), small_lexicon());
  t.keep_wo_snapshots(true);
  json built = run_record(t);
  EXPECT_EQ(built["eval"]["per"], json::array());
  int last = 0;
  while (!t.finished()) {
    t.step(1);
    const json f = probe_record(t);
    if (f["step"] == last) continue;
    last = f["step"].get<int>();
    built["eval"]["step"].push_back(f["step"]);
    for (const char* key : {"loss", "token_acc", "exact", "per", "wer"}) built["eval"][key].push_back(f["eval"][key]);
    for (const char* key : {"stats", "wo", "ov"})
      for (const json& entry : f[key]) built[key].push_back(entry);
  }
  const json r = run_record(t);
  for (const char* key : {"eval", "stats", "wo", "ov"}) EXPECT_EQ(built[key], r[key]) << key;
}

// What the other experiments measure works on words too: a g2p run keeps stats (head gradient
// norms included), W_o snapshots and OV values, and the results of an experiment that shows
// them accept its record.
TEST(RealWords, StatsSnapshotsAndOvValuesWorkOnWords) {
  Trainer t(words_run(), small_lexicon());
  t.keep_wo_snapshots(true);
  while (!t.finished()) t.step(5);
  const json r = run_record(t);
  ASSERT_EQ(r["stats"].size(), 3u);  // one layer, three probe steps
  EXPECT_EQ(r["stats"][0]["head_grad_norm"].size(), 2u);
  EXPECT_GT(r["stats"][0]["head_grad_norm"][0].get<double>(), 0);
  EXPECT_EQ(r["wo"].size(), 4u);      // step 0 and three probes
  EXPECT_EQ(r["ov"].size(), 4u * 2);  // and two heads each
  ExperimentConfig cfg = words_config();
  cfg.base = words_run();  // the toy experiments on the task g2p
  const json results = make_results(cfg, "wo_heatmap", {r});
  EXPECT_EQ(results["runs"][0]["wo"].size(), 4u);
  EXPECT_EQ(results["runs"][0]["wo"][3]["head_norms"].size(), 2u);
  EXPECT_EQ(make_results(cfg, "activation_stats", {r})["runs"][0]["stats"].size(), 3u);
}

TEST(RealWords, SummaryAveragesPerAndWerAndImportChecksThem) {
  std::vector<json> runs;
  for (WoMode wo : find_experiment("real_words")->variants) {
    Trainer t(words_run(wo), small_lexicon());
    while (!t.finished()) t.step(6);
    runs.push_back(run_record(t));
  }
  const json results = make_results(words_config(), "real_words", runs);
  ASSERT_EQ(results["summary"].size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    const json& s = results["summary"][i];
    EXPECT_DOUBLE_EQ(s["per"]["mean"].get<double>(), runs[i]["final"]["heldout_words"]["per"].get<double>());
    EXPECT_DOUBLE_EQ(s["wer"]["mean"].get<double>(), runs[i]["final"]["heldout_words"]["wer"].get<double>());
    EXPECT_TRUE(s["per"]["std"].is_null());  // one seed
  }
  EXPECT_EQ(parse_results(results.dump()), results);

  json bad = results;
  bad["runs"][1]["final"]["heldout_words"]["wer"] = 1.5;
  EXPECT_THROW(
      {
        try {
          parse_results(bad.dump());
        } catch (const ConfigError& e) {
          EXPECT_EQ(std::string(e.what()), "results: runs[1].final.heldout_words.wer: 1.5 is out of range 0..1");
          throw;
        }
      },
      ConfigError);
  bad = results;
  bad["runs"][0]["eval"].erase("per");
  EXPECT_THROW(parse_results(bad.dump()), ConfigError);
  bad = results;
  bad["runs"][2]["final"]["heldout_words"] = nullptr;  // only a diverged run may lack them
  EXPECT_THROW(parse_results(bad.dump()), ConfigError);
}

}  // namespace
}  // namespace wolab
