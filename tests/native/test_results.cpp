// Results JSON: records of real runs, the summary's statistics, experiments as run lists, and
// parse_results refusing malformed or foreign files.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "experiment.h"
#include "results.h"

namespace wolab {
namespace {

using json = nlohmann::json;

ExperimentConfig small_config() {
  ExperimentConfig c;
  c.seeds = 2;
  c.base.model.d_model = 8;
  c.base.model.heads = 2;
  c.base.model.layers = 1;
  c.base.model.d_ff = 16;
  c.base.task.alphabet = 4;
  c.base.task.length = 3;
  c.base.train.steps = 20;
  c.base.train.batch = 8;
  c.base.train.probe_every = 5;
  derive(c.base);
  return c;
}

// A run entry as run_record writes it, with chosen final metrics.
json fake_run(const std::string& variant, int seed, double token_acc, json steps_to = nullptr,
              const std::string& status = "done") {
  const bool diverged = status != "done";
  json metric = diverged ? json(nullptr) : json(token_acc);
  return {{"variant", variant},
          {"seed", seed},
          {"parameters", variant == "identity" ? 900 : 1000},
          {"curve", {{"step", {1, 2, 3}}, {"loss", {2.0, 1.0, 0.05}}}},
          {"eval", {{"step", {0, 5}}, {"loss", {2.5, 0.5}}, {"token_acc", {0.25, token_acc}}, {"exact", {0, 0.5}}}},
          {"stats", json::array()},
          {"wo", json::array()},
          {"final", {{"loss", diverged ? json(nullptr) : json(1 - token_acc)}, {"token_acc", metric},
                     {"exact", diverged ? json(nullptr) : json(token_acc / 2)}, {"greedy_exact", metric},
                     {"steps_to_loss_0_1", steps_to}}},
          {"status", status}};
}

const json* summary_of(const json& results, const std::string& variant) {
  for (const json& s : results["summary"])
    if (s["variant"] == variant) return &s;
  return nullptr;
}

TEST(Results, SummaryIsMeanAndSampleStdOverRunsThatDidNotDiverge) {
  json r = make_results(small_config(), "remove_wo",
                        {fake_run("identity", 0, 0.4, 12), fake_run("learned", 0, 0.5, 10),
                         fake_run("learned", 1, 0.7, 20), fake_run("learned", 2, 0.9),
                         fake_run("identity", 1, 0, nullptr, "diverged at step 3")});
  ASSERT_EQ(r["summary"].size(), 2u);
  EXPECT_EQ(r["summary"][0]["variant"], "learned");  // the experiment's order, not the runs'
  const json& learned = *summary_of(r, "learned");
  EXPECT_EQ(learned["n"], 3);
  EXPECT_EQ(learned["diverged"], 0);
  EXPECT_EQ(learned["parameters"], 1000);
  EXPECT_NEAR(learned["token_acc"]["mean"].get<double>(), 0.7, 1e-12);
  EXPECT_NEAR(learned["token_acc"]["std"].get<double>(), 0.2, 1e-12);  // n - 1 in the denominator
  EXPECT_NEAR(learned["exact"]["mean"].get<double>(), 0.35, 1e-12);
  EXPECT_NEAR(learned["loss"]["mean"].get<double>(), 0.3, 1e-12);
  EXPECT_NEAR(learned["steps_to_loss_0_1"]["mean"].get<double>(), 15, 1e-12);  // the runs that got there
  EXPECT_NEAR(learned["steps_to_loss_0_1"]["std"].get<double>(), std::sqrt(50.0), 1e-12);
  EXPECT_EQ(learned["steps_to_loss_0_1"]["reached"], 2);

  const json& identity = *summary_of(r, "identity");
  EXPECT_EQ(identity["n"], 2);
  EXPECT_EQ(identity["diverged"], 1);  // counted, not averaged
  EXPECT_NEAR(identity["token_acc"]["mean"].get<double>(), 0.4, 1e-12);
  EXPECT_EQ(identity["token_acc"]["std"], 0.0);  // one run: std 0
  EXPECT_EQ(identity["steps_to_loss_0_1"]["reached"], 1);
}

TEST(Results, AllDivergedGivesNullNotNaN) {
  json r = make_results(small_config(), "wo_heatmap",
                        {fake_run("learned", 0, 0, nullptr, "diverged at step 2"),
                         fake_run("learned", 1, 0, nullptr, "diverged at step 7")});
  const json& s = r["summary"][0];
  EXPECT_EQ(s["diverged"], 2);
  EXPECT_TRUE(s["token_acc"]["mean"].is_null());
  EXPECT_TRUE(s["token_acc"]["std"].is_null());
  EXPECT_EQ(s["steps_to_loss_0_1"]["reached"], 0);
  EXPECT_EQ(r.dump().find("NaN"), std::string::npos);
  EXPECT_EQ(parse_results(r.dump()), r);
}

TEST(Results, HeaderAndConfigAreComplete) {
  ExperimentConfig cfg = small_config();
  cfg.experiment = "all";
  json r = make_results(cfg, "freeze_wo", {fake_run("frozen_random", 0, 0.5)});
  EXPECT_EQ(r["format"], "wolab-results");
  EXPECT_EQ(r["version"], 1);
  EXPECT_EQ(r["created_by"], std::string("wolab ") + kVersion);
  EXPECT_EQ(r["experiment"], "freeze_wo");
  EXPECT_EQ(r["config"]["experiment"], "freeze_wo");  // each file of "all" names its own
  EXPECT_EQ(r["config"]["model"]["d_model"], 8);
  EXPECT_EQ(r["config"]["train"]["lr"], 0.001);
  EXPECT_THROW(make_results(cfg, "all", {}), ConfigError);
  EXPECT_THROW(make_results(cfg, "remove_wo", {fake_run("frozen_random", 0, 0.5)}), ConfigError);
}

TEST(Results, ParseNormalisesAndRecomputesTheSummary) {
  json r = make_results(small_config(), "remove_wo", {fake_run("learned", 0, 0.5), fake_run("identity", 0, 0.6)});
  EXPECT_EQ(parse_results(r.dump()), r);
  json tampered = r;
  tampered["summary"][0]["token_acc"]["mean"] = 1.0;
  tampered["config"] = {{"seeds", 2},
                        {"model", {{"d_model", 8}, {"heads", 2}, {"layers", 1}, {"d_ff", 16}}},
                        {"task", {{"alphabet", 4}, {"length", 3}}},
                        {"train", {{"steps", 20}, {"batch", 8}, {"probe_every", 5}}}};
  tampered["unknown_extra"] = true;
  EXPECT_EQ(parse_results(tampered.dump()), r);
}

TEST(Results, ParseRefusesMalformedAndForeignFiles) {
  const json good = make_results(small_config(), "remove_wo",
                                 {fake_run("learned", 0, 0.5, 3), fake_run("identity", 0, 0, nullptr, "diverged at step 4")});
  ASSERT_NO_THROW(parse_results(good.dump()));
  using Edit = std::function<void(json&)>;
  const std::pair<Edit, const char*> cases[] = {
      {[](json& j) { j = json::array(); }, "not a W_o Lab results file"},
      {[](json& j) { j["format"] = "other"; }, "not a W_o Lab results file"},
      {[](json& j) { j.erase("format"); }, "not a W_o Lab results file"},
      {[](json& j) { j["version"] = 2; }, "results: version: 2 is not supported"},
      {[](json& j) { j.erase("runs"); }, "results: runs: missing"},
      {[](json& j) { j["runs"] = json::object(); }, "results: runs: expected an array"},
      {[](json& j) { j.erase("summary"); }, "results: summary: missing"},
      {[](json& j) { j["experiment"] = "all"; }, "results: experiment: unknown experiment \"all\""},
      {[](json& j) { j["created_by"] = 5; }, "results: created_by: expected a string"},
      {[](json& j) { j["config"]["model"]["heads"] = 3; }, "results: config.model.heads: d_model 8 is not divisible"},
      {[](json& j) { j["config"]["model"]["dmodel"] = 3; }, "results: config.model.dmodel: unknown key"},
      {[](json& j) { j["runs"][0]["variant"] = "frozen_random"; },
       "results: runs[0].variant: \"frozen_random\" is not a variant of remove_wo"},
      {[](json& j) { j["runs"][0].erase("seed"); }, "results: runs[0].seed: missing"},
      {[](json& j) { j["runs"][0]["seed"] = -1; }, "results: runs[0].seed: -1 is out of range"},
      {[](json& j) { j["runs"][0]["parameters"] = 1.5; }, "results: runs[0].parameters: expected an integer"},
      {[](json& j) { j["runs"][0]["curve"]["loss"].push_back(1.0); }, "runs[0].curve.loss: has 4 entries, expected 3"},
      {[](json& j) { j["runs"][0]["curve"]["loss"][1] = "x"; }, "runs[0].curve.loss[1]: expected a number"},
      {[](json& j) { j["runs"][0]["curve"]["loss"][1] = nullptr; }, "runs[0].curve.loss[1]: expected a number"},
      {[](json& j) { j["runs"][0]["curve"]["step"] = {1, 1, 2}; }, "runs[0].curve.step[1]: steps must increase"},
      {[](json& j) { j["runs"][0]["curve"]["step"] = {1, 2, 21}; }, "runs[0].curve.step[2]: 21 is out of range 1..20"},
      {[](json& j) { j["runs"][0]["eval"]["token_acc"][1] = 1.5; }, "runs[0].eval.token_acc[1]: 1.5 is out of range"},
      {[](json& j) { j["runs"][0]["eval"]["exact"] = {0}; }, "runs[0].eval.exact: has 1 entries, expected 2"},
      {[](json& j) { j["runs"][0]["stats"] = {{{"step", 5}, {"layer", 1}}}; }, "runs[0].stats[0].layer: 1 is out of range 0..0"},
      {[](json& j) {
         j["runs"][0]["stats"] = {{{"step", 5}, {"layer", 0}, {"concat", {{"mean", 0}, {"std", 1}}},
                                   {"wo_out", {{"mean", 0}, {"std", 1}}}, {"residual", {{"mean", 0}, {"std", 1}}},
                                   {"head_grad_norm", {1.0}}}};
       },
       "runs[0].stats[0].head_grad_norm: has 1 entries, expected 2"},
      {[](json& j) { j["runs"][0]["wo"] = {{{"step", 0}, {"layer", 0}, {"rows", 8}, {"cols", 8}, {"data", {1, 2}}}}; },
       "runs[0].wo[0].data: has 2 entries, expected 64"},
      {[](json& j) { j["runs"][0]["wo"] = {{{"step", 0}, {"layer", 0}, {"rows", 4}, {"cols", 8}, {"data", {}}}}; },
       "runs[0].wo[0].rows: 4 is out of range 8..8"},
      {[](json& j) { j["runs"][0]["final"]["loss"] = nullptr; }, "runs[0].final.loss: expected a number"},
      {[](json& j) { j["runs"][0]["final"]["greedy_exact"] = 2; }, "runs[0].final.greedy_exact: 2 is out of range"},
      {[](json& j) { j["runs"][0]["final"]["steps_to_loss_0_1"] = 0; }, "runs[0].final.steps_to_loss_0_1: 0 is out of range"},
      {[](json& j) { j["runs"][0]["status"] = "running"; }, "runs[0].status: expected \"done\" or \"diverged at step N\""},
      {[](json& j) { j["runs"][1]["status"] = "diverged at step x"; }, "runs[1].status: expected"},
      {[](json& j) { j["runs"][1]["final"]["loss"] = "high"; }, "runs[1].final.loss: expected a number"},
  };
  for (const auto& [edit, expected] : cases) {
    json bad = good;
    edit(bad);
    try {
      parse_results(bad.dump());
      ADD_FAILURE() << "accepted: " << expected;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << "got: " << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("results: ", 0), 0u) << e.what();
    }
  }
  // Text that JSON cannot hold as a finite number, and text that is not JSON at all.
  std::string text = good.dump();
  std::string inf = text;
  inf.replace(inf.find("\"loss\":[2.0"), 11, "\"loss\":[1e999");
  try {
    parse_results(inf);
    ADD_FAILURE() << "accepted 1e999";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("results: not valid JSON (number overflow", 0), 0u) << e.what();
  }
  EXPECT_THROW(parse_results("{\"format\": \"wolab-results\""), ConfigError);
  EXPECT_THROW(parse_results(""), ConfigError);
}

TEST(Results, RecordOfARealRun) {
  RunConfig cfg = small_config().base;
  Trainer t(cfg);
  t.keep_wo_snapshots(true);
  EXPECT_THROW(run_record(t, WoMode::learned, true), std::logic_error);  // still running
  while (!t.finished()) t.step(7);
  json r = run_record(t, WoMode::learned, true);
  EXPECT_EQ(r["variant"], "learned");
  EXPECT_EQ(r["status"], "done");
  EXPECT_EQ(r["parameters"], t.parameter_count());
  ASSERT_EQ(r["curve"]["step"].size(), 20u);
  EXPECT_EQ(r["curve"]["step"][0], 1);
  EXPECT_EQ(r["curve"]["step"][19], 20);
  EXPECT_EQ(r["curve"]["loss"][19].get<double>(), decimal_float(t.losses().back()));
  EXPECT_EQ(r["eval"]["step"], json::parse("[5, 10, 15, 20]"));
  EXPECT_EQ(r["final"]["loss"], r["eval"]["loss"][3]);
  EXPECT_EQ(r["final"]["token_acc"], r["eval"]["token_acc"][3]);
  json reached = nullptr;
  for (size_t i = 0; i < t.losses().size() && reached.is_null(); ++i)
    if (t.losses()[i] < 0.1f) reached = i + 1;
  EXPECT_EQ(r["final"]["steps_to_loss_0_1"], reached);
  EXPECT_EQ(r["stats"].size(), 4u);               // 4 probe steps × 1 layer
  EXPECT_EQ(r["stats"][0]["head_grad_norm"].size(), 2u);
  ASSERT_EQ(r["wo"].size(), 5u);                  // step 0 and 4 probe steps
  EXPECT_EQ(r["wo"][0]["data"].size(), 64u);
  EXPECT_EQ(run_record(t, WoMode::learned, false)["wo"], json::array());

  ExperimentConfig e = small_config();
  e.experiment = "wo_heatmap";
  json results = make_results(e, "wo_heatmap", {r});
  EXPECT_EQ(parse_results(results.dump()), results);
}

TEST(Experiment, VariantsMatchTheSpec) {
  auto names = [](const std::string& e) {
    std::vector<std::string> out;
    for (WoMode v : find_experiment(e)->variants) out.push_back(to_string(v));
    return out;
  };
  EXPECT_EQ(names("remove_wo"), (std::vector<std::string>{"learned", "identity"}));
  EXPECT_EQ(names("freeze_wo"),
            (std::vector<std::string>{"learned", "identity", "frozen_random", "learned_identity_init"}));
  EXPECT_EQ(names("wo_heatmap"), (std::vector<std::string>{"learned"}));
  EXPECT_EQ(names("activation_stats"), (std::vector<std::string>{"learned", "identity"}));
  EXPECT_EQ(find_experiment("all"), nullptr);
  EXPECT_EQ(experiments_json()[1]["variants"][2], "frozen_random");
  // Every experiment name the config accepts is runnable (all = the four).
  const std::string allowed = settings().front().allowed;  // "remove_wo|...|all"
  size_t begin = 0, count = 0;
  for (size_t bar; (bar = allowed.find('|', begin)) != std::string::npos; begin = bar + 1, ++count)
    EXPECT_NE(find_experiment(allowed.substr(begin, bar - begin)), nullptr) << allowed;
  EXPECT_EQ(allowed.substr(begin), "all");
  EXPECT_EQ(count, experiments().size());
}

TEST(Experiment, RunsVariantsTimesSeedsWithProgress) {
  ExperimentConfig cfg = small_config();
  cfg.base.train.seed = 10;
  int calls = 0, finished_calls = 0, last_run = -1;
  auto results = run_experiment(cfg, [&](int run, int runs, const Trainer& t) {
    ++calls;
    EXPECT_EQ(runs, 4);
    EXPECT_GE(run, last_run);
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

TEST(Experiment, AllSharesRunsAndKeepsWoOnlyForTheHeatmap) {
  ExperimentConfig cfg = small_config();
  cfg.experiment = "all";
  cfg.seeds = 1;
  cfg.base.train.steps = 5;
  int runs_seen = 0;
  auto results = run_experiment(cfg, [&](int, int runs, const Trainer&) { runs_seen = runs; });
  EXPECT_EQ(runs_seen, 4);  // the four W_o modes once, not the 9 runs of the four experiments
  ASSERT_EQ(results.size(), 4u);
  const char* order[] = {"remove_wo", "freeze_wo", "wo_heatmap", "activation_stats"};
  const size_t runs[] = {2, 4, 1, 2};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(results[i]["experiment"], order[i]);
    EXPECT_EQ(results[i]["runs"].size(), runs[i]) << order[i];
    for (const json& run : results[i]["runs"])
      EXPECT_EQ(run["wo"].empty(), i != 2) << order[i];
  }
  // The learned run is the same run in every experiment.
  EXPECT_EQ(results[0]["runs"][0]["curve"], results[3]["runs"][0]["curve"]);
}

}  // namespace
}  // namespace wolab
