// The experiment table and plan (lab/experiment.h, lab/plan.h): each experiment's variants and needs, the runs a set of
// experiments needs with shared runs trained once, lr_stability's sweep and its clip, and
// run_experiment training the plan, sequentially or in parallel with the same results.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "helpers.h"
#include "lab/experiment.h"
#include "lab/plan.h"
#include "lab/results.h"

namespace wolab {
namespace {

using json = nlohmann::json;

std::vector<std::string> variant_names(const std::string& experiment) {
  std::vector<std::string> out;
  for (WoMode v : find_experiment(experiment)->variants) out.push_back(to_string(v));
  return out;
}

using Key = std::tuple<WoMode, TaskKind, uint64_t, float, float>;  // variant, task, seed, lr, clip
Key key_of(const PlannedRun& r) {
  return {r.config.model.wo, r.config.task.kind, r.config.train.seed, r.config.train.lr, r.config.train.clip};
}

bool compares(const PlannedRun& r, const std::string& experiment) {
  return std::find(r.experiments.begin(), r.experiments.end(), experiment) != r.experiments.end();
}

TEST(Experiment, VariantsAndNeedsMatchTheDocs) {
  using V = std::vector<std::string>;
  EXPECT_EQ(variant_names("remove_wo"), (V{"learned", "identity"}));
  EXPECT_EQ(variant_names("freeze_wo"), (V{"learned", "identity", "frozen_random", "learned_identity_init"}));
  EXPECT_EQ(variant_names("wo_heatmap"), (V{"learned"}));
  EXPECT_EQ(variant_names("activation_stats"), (V{"learned", "identity"}));
  EXPECT_EQ(variant_names("gain_vs_learning"),
            (V{"learned", "identity", "frozen_random", "frozen_random_scaled", "frozen_orthogonal"}));
  EXPECT_EQ(variant_names("lr_stability"), (V{"learned", "identity", "frozen_random", "learned_identity_init"}));
  EXPECT_EQ(variant_names("real_words"), (V{"learned", "identity", "frozen_random", "learned_identity_init"}));
  EXPECT_EQ(variant_names("wo_purpose"), (V{"learned", "identity", "block_diagonal", "scalar_gain", "identity_matched"}));
  EXPECT_EQ(variant_names("words_purpose"), (V{"learned", "identity", "block_diagonal", "scalar_gain", "identity_matched",
                                                "frozen_random_scaled", "frozen_orthogonal"}));
  EXPECT_EQ(find_experiment("all"), nullptr);
  // "all": the page's experiments, not words_purpose (native only: by name)
  EXPECT_EQ(selected_experiments("all").size(), 8u);
  EXPECT_EQ(selected_experiments("words_purpose").size(), 1u);
  EXPECT_FALSE(find_experiment("words_purpose")->page);
  EXPECT_EQ(experiments_json().size(), 8u);
  EXPECT_EQ(experiments_json(true).size(), 9u);
  EXPECT_TRUE(selected_experiments("nope").empty());
  std::vector<std::string> needs;
  for (const ExperimentInfo& e : experiments())
    if (e.stats || e.wo_snapshots || e.lr_sweep)
      needs.push_back(e.name + (e.stats ? " stats" : "") + (e.wo_snapshots ? " wo" : "") + (e.lr_sweep ? " sweep" : ""));
  EXPECT_EQ(needs, (V{"wo_heatmap wo", "activation_stats stats", "lr_stability sweep"}));
  const json j = experiments_json();
  EXPECT_EQ(j[4]["variants"][4], "frozen_orthogonal");
  EXPECT_EQ(j[5], json::parse(R"({"name": "lr_stability", "variants": ["learned", "identity", "frozen_random",
      "learned_identity_init"], "stats": false, "wo_snapshots": false, "lr_sweep": true,
      "frozen": ["frozen_random"], "not_kept": ["stats", "wo", "ov"], "needs_data": null})"));
  EXPECT_EQ(j[6]["needs_data"], "lexicon");  // real_words
  EXPECT_EQ(j[0]["frozen"], json::array());  // remove_wo: learned and identity
  EXPECT_EQ(j[4]["frozen"], json::parse(R"(["frozen_random", "frozen_random_scaled", "frozen_orthogonal"])"));
  EXPECT_EQ(j[2]["not_kept"], json::parse(R"(["stats"])"));  // wo_heatmap keeps W_o
  EXPECT_EQ(j[3]["not_kept"], json::parse(R"(["wo", "ov"])"));  // activation_stats keeps stats
  // Every experiment name the config accepts is one of the table's, or "all".
  std::vector<std::string> names;
  for (const ExperimentInfo& e : experiments()) names.push_back(e.name);
  names.push_back("all");
  EXPECT_EQ(settings_json()[0]["choices"].get<std::vector<std::string>>(), names);
}

// The rates a config's experiment trains at are those its plan's runs train at.
TEST(Experiment, LearningRatesAreThoseOfThePlan) {
  for (const std::string name : {"remove_wo", "lr_stability", "all"}) {
    ExperimentConfig cfg = small_config();
    cfg.experiment = name;
    std::set<float> planned;
    for (const PlannedRun& r : plan_runs(cfg, {name})) planned.insert(r.config.train.lr);
    EXPECT_EQ(learning_rates(cfg), std::vector<float>(planned.begin(), planned.end())) << name;
  }
  ExperimentConfig unknown = small_config();
  unknown.experiment = "nope";
  EXPECT_TRUE(learning_rates(unknown).empty());
}

TEST(Plan, OneExperimentIsVariantsTimesSeedsSeedMajor) {
  ExperimentConfig cfg = small_config();
  cfg.base.train.seed = 10;
  const auto plan = plan_runs(cfg, {"freeze_wo"});
  ASSERT_EQ(plan.size(), 8u);
  for (size_t i = 0; i < plan.size(); ++i) {
    EXPECT_EQ(plan[i].config.train.seed, 10 + i / 4);
    EXPECT_EQ(to_string(plan[i].config.model.wo), variant_names("freeze_wo")[i % 4]);
    EXPECT_EQ(plan[i].config.train.lr, cfg.base.train.lr);
    EXPECT_EQ(plan[i].config.train.clip, cfg.base.train.clip);
    EXPECT_EQ(plan[i].experiments, std::vector<std::string>{"freeze_wo"});
    EXPECT_FALSE(plan[i].keep_stats || plan[i].keep_wo);
  }
  const json j = plan_json(plan);
  EXPECT_EQ(j[5]["variant"], "identity");
  EXPECT_EQ(j[5]["seed"], 11);
  EXPECT_EQ(j[5]["lr"], 0.001);
  EXPECT_EQ(j[5]["clip"], 1);
  EXPECT_EQ(j[5]["keep"], json::parse(R"({"stats": false, "wo": false})"));
  EXPECT_EQ(j[5]["experiments"], json::parse(R"(["freeze_wo"])"));
  EXPECT_EQ(j[5]["config"], config_json(plan[5].config));
  EXPECT_EQ(parse_run_config(j[5]["config"].dump()).model.wo, WoMode::identity);
}

TEST(Plan, AllTrainsEachDistinctRunOnce) {
  ExperimentConfig cfg = small_config();
  cfg.seeds = 3;
  const auto plan = plan_runs(cfg, {"all"});
  // Per seed: the six W_o modes at train.lr and train.clip, shared by the first five
  // experiments, lr_stability's 4 variants × 5 rates, all unclipped, so shared with none,
  // real_words' 4 on words, and wo_purpose's 3 controls (its learned and identity shared).
  ASSERT_EQ(plan.size(), 3u * (6 + 4 * 5 + 4 + 3));
  std::set<Key> keys;
  for (const PlannedRun& r : plan) EXPECT_TRUE(keys.insert(key_of(r)).second) << to_string(r.config.model.wo);
  // Every run an experiment needs on its own is in the plan of "all", under that experiment.
  for (const ExperimentInfo* one : selected_experiments("all")) {
    const ExperimentInfo& e = *one;
    const auto mine = plan_runs(cfg, {e.name});
    size_t found = 0;
    for (const PlannedRun& r : plan) {
      if (!compares(r, e.name)) continue;
      ++found;
      bool in_own = false;
      for (const PlannedRun& m : mine) in_own = in_own || key_of(m) == key_of(r);
      EXPECT_TRUE(in_own) << e.name;
    }
    EXPECT_EQ(found, mine.size()) << e.name;
  }
  // The learned run of a seed serves six experiments and keeps what two of them show.
  const PlannedRun& learned = plan[0];
  EXPECT_EQ(learned.config.model.wo, WoMode::learned);
  EXPECT_EQ(learned.experiments, (std::vector<std::string>{"remove_wo", "freeze_wo", "wo_heatmap",
                                                          "activation_stats", "gain_vs_learning", "wo_purpose"}));
  EXPECT_TRUE(learned.keep_stats);
  EXPECT_TRUE(learned.keep_wo);
  for (const PlannedRun& r : plan) {
    EXPECT_EQ(r.keep_wo, r.config.model.wo == WoMode::learned && compares(r, "wo_heatmap"));
    EXPECT_EQ(r.keep_stats, compares(r, "activation_stats"));
  }
  // Names given twice, or one experiment with "all", plan the same runs.
  EXPECT_EQ(plan_json(plan_runs(cfg, {"lr_stability", "all", "remove_wo"})), plan_json(plan));
}

TEST(Plan, LrStabilityIsVariantsTimesRatesTimesSeedsWithClippingOff) {
  ExperimentConfig cfg = small_config();
  cfg.seeds = 2;
  const auto plan = plan_runs(cfg, {"lr_stability"});
  ASSERT_EQ(plan.size(), 4u * 5 * 2);
  std::map<std::pair<WoMode, float>, int> seeds;
  for (const PlannedRun& r : plan) {
    EXPECT_EQ(r.config.train.clip, 0.0f) << "clipping hides instability: off by default";
    ++seeds[{r.config.model.wo, r.config.train.lr}];
  }
  EXPECT_EQ(seeds.size(), 4u * 5);
  for (const auto& [variant_lr, n] : seeds) EXPECT_EQ(n, 2);
  EXPECT_EQ(plan[1].config.train.lr, 3e-3f);  // within a seed: variant by variant, rate by rate
  EXPECT_EQ(plan[5].config.model.wo, WoMode::identity);

  cfg.lr_stability.clip = 0.5f;
  cfg.lr_stability.lrs = {0.001f, 0.1f};
  for (const PlannedRun& r : plan_runs(cfg, {"lr_stability"})) EXPECT_EQ(r.config.train.clip, 0.5f);
  EXPECT_EQ(plan_runs(cfg, {"lr_stability"}).size(), 4u * 2 * 2);

  // With lr_stability's clip equal to train.clip, its runs at train.lr are freeze_wo's runs.
  cfg.lr_stability.clip = cfg.base.train.clip;
  const auto shared = plan_runs(cfg, {"freeze_wo", "lr_stability"});
  EXPECT_EQ(shared.size(), 2u * (4 + 4));  // 4 at lr 0.001 shared, 4 at lr 0.1
  EXPECT_EQ(shared[0].experiments, (std::vector<std::string>{"freeze_wo", "lr_stability"}));
}

// Clipping off must mean the updates are unclipped: the same as with a clip no gradient reaches.
// And the setting turns it back on: a clip far below the gradient norm changes the updates.
TEST(Plan, ClippingReallyIsOffInLrStabilityRuns) {
  ExperimentConfig cfg = small_config();
  cfg.seeds = 1;
  const PlannedRun run = plan_runs(cfg, {"lr_stability"}).back();  // the largest rate
  auto losses = [](RunConfig c) {
    Trainer t(c);
    return t.step(6);
  };
  RunConfig never_clipped = run.config;
  never_clipped.train.clip = 1e30f;
  EXPECT_EQ(losses(run.config), losses(never_clipped));

  cfg.lr_stability.clip = 1e-3f;
  const PlannedRun clipped = plan_runs(cfg, {"lr_stability"}).back();
  EXPECT_EQ(clipped.config.train.clip, 1e-3f);
  const auto a = losses(clipped.config), b = losses(run.config);
  EXPECT_EQ(a[0], b[0]);  // the same first forward pass ...
  EXPECT_NE(a[5], b[5]);  // ... then smaller steps
}

TEST(Plan, BadNamesAndConfigsAreRefused) {
  const ExperimentConfig cfg = small_config();
  try {
    plan_runs(cfg, {"remove_wo", "nope"});
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "experiments: unknown experiment \"nope\"; use remove_wo, freeze_wo, wo_heatmap, "
                           "activation_stats, gain_vs_learning, lr_stability, real_words, wo_purpose, words_purpose, or all");
  }
  EXPECT_THROW(plan_runs(cfg, {}), ConfigError);
  ExperimentConfig bad = cfg;
  bad.lr_stability.lrs = {};
  try {
    plan_runs(bad, {"lr_stability"});
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("lr_stability.lrs: has 0 values; use 1 to 12 increasing numbers", 0), 0u)
        << e.what();
  }
  // The heatmap's snapshots count against the memory limit for the experiments that keep them.
  ExperimentConfig big = cfg;
  big.base.model.d_model = 1024;
  big.base.model.heads = 1;
  big.base.train.steps = 2000;
  big.base.train.probe_every = 1;
  EXPECT_NO_THROW(plan_runs(big, {"remove_wo"}));
  try {
    plan_runs(big, {"remove_wo", "wo_heatmap"});
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("train.probe_every: this run needs about", 0), 0u) << e.what();
  }
}

TEST(Experiment, RunsThePlanWithProgress) {
  ExperimentConfig cfg = small_config();
  cfg.base.train.seed = 10;
  int calls = 0, finished_calls = 0, last_run = -1;
  auto results = run_experiment(cfg, [&](int run, int runs, const Trainer& t) {
    ++calls;
    EXPECT_EQ(runs, 4);
    EXPECT_GE(run, last_run);  // one job: one run after another
    last_run = run;
    finished_calls += t.finished();
  });
  ASSERT_EQ(results.size(), 1u);
  const json& r = results[0];
  EXPECT_EQ(r["experiment"], "remove_wo");
  ASSERT_EQ(r["runs"].size(), 4u);
  EXPECT_EQ(r["runs"][0]["seed"], 10);
  EXPECT_EQ(r["runs"][1]["variant"], "identity");
  EXPECT_EQ(r["runs"][3]["seed"], 11);
  EXPECT_EQ(finished_calls, 4);
  EXPECT_EQ(calls, 4 * (1 + 2));  // at the start and after each chunk of 10 of 20 steps
  EXPECT_EQ(r["summary"][0]["n"], 2);
  EXPECT_EQ(parse_results(r.dump()), r);
}

TEST(Experiment, AllSharesRunsAndEachResultKeepsItsOwn) {
  ExperimentConfig cfg = small_config();
  cfg.experiment = "all";
  cfg.seeds = 1;
  cfg.base.train.steps = 5;
  cfg.lr_stability.lrs = {0.001f, 0.01f};
  int runs_seen = 0;
  auto results = run_experiment(cfg, [&](int, int runs, const Trainer&) { runs_seen = runs; }, 1, small_lexicon());
  EXPECT_EQ(runs_seen, 6 + 4 * 2 + 4 + 3);  // not the 2+4+1+2+5+8+4+5 = 31 runs of the eight experiments
  ASSERT_EQ(results.size(), 8u);
  const size_t runs[] = {2, 4, 1, 2, 5, 8, 4, 5};
  for (size_t i = 0; i < 8; ++i) {
    const std::string name = experiments()[i].name;
    EXPECT_EQ(results[i]["experiment"], name);
    EXPECT_EQ(results[i]["runs"].size(), runs[i]) << name;
    for (const json& run : results[i]["runs"]) {
      EXPECT_EQ(run["wo"].empty(), name != "wo_heatmap") << name;
      EXPECT_EQ(run["ov"].empty(), name != "wo_heatmap") << name;
      EXPECT_EQ(run["stats"].empty(), name != "activation_stats") << name;
      EXPECT_EQ(run["clip"], name == "lr_stability" ? 0 : 1) << name;
    }
    EXPECT_EQ(parse_results(results[i].dump()), results[i]);
  }
  // The learned run is the same run in every experiment that compares it.
  EXPECT_EQ(results[0]["runs"][0]["curve"], results[3]["runs"][0]["curve"]);
  EXPECT_EQ(results[0]["runs"][0]["curve"], results[4]["runs"][0]["curve"]);
  EXPECT_NE(results[0]["runs"][0]["curve"], results[5]["runs"][0]["curve"]);  // unclipped
}

// Runs on several threads give what one thread gives: every run owns all it touches.
TEST(Experiment, ParallelJobsGiveTheSameResults) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "the wasm build has no threads";
#endif
  ExperimentConfig cfg = small_config();
  cfg.experiment = "all";
  cfg.seeds = 2;
  cfg.base.train.steps = 10;
  cfg.lr_stability.lrs = {0.003f, 0.03f};
  const auto one = run_experiment(cfg, nullptr, 1, small_lexicon());
  std::set<int> seen;
  int concurrent = 0, most = 0;
  const auto two = run_experiment(
      cfg,
      [&](int run, int, const Trainer& t) {
        if (seen.insert(run).second) most = std::max(most, ++concurrent);
        if (t.finished()) --concurrent;
      },
      2, small_lexicon());
  EXPECT_EQ(most, 2) << "two runs trained at the same time";
  ASSERT_EQ(one.size(), two.size());
  for (size_t i = 0; i < one.size(); ++i) EXPECT_EQ(one[i], two[i]) << one[i]["experiment"];
}

}  // namespace
}  // namespace wolab
