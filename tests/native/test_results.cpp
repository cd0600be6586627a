// Results JSON (docs/results.md): run status, records of real runs (done, stopped, running),
// probe fragments that add up to the record, the summary's statistics, what each experiment
// keeps, version 1 files read as version 2, and parse_results refusing malformed files.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "helpers.h"
#include "io/safetensors.h"
#include "lab/checkpoints.h"
#include "lab/experiment.h"
#include "lab/results.h"
#include "lab/status_json.h"
#include "run/probes.h"

namespace wolab {
namespace {

using json = nlohmann::json;
using State = RunStatus::State;

json done() { return {{"state", "done"}}; }
json diverged(int step) { return {{"state", "diverged"}, {"step", step}}; }
json stopped(int step) { return {{"state", "stopped"}, {"step", step}}; }

// A run entry as run_record writes it for small_config(), with chosen final metrics.
// A curve first under loss 0.1 at step `steps_to` (1 to 20): small_config's 20 steps smooth the
// loss over 1 step (lab/loss_threshold.h, threshold_window); three steps that never get there
// otherwise.
json curve_to(const json& steps_to) {
  if (!steps_to.is_number()) return {{"step", {1, 2, 3}}, {"loss", {2.0, 1.0, 0.5}}};
  json step = json::array(), loss = json::array();
  for (int s = 1; s <= steps_to.get<int>(); ++s) {
    step.push_back(s);
    loss.push_back(s < steps_to.get<int>() ? 1.0 : 0.0);
  }
  return {{"step", step}, {"loss", loss}};
}

json fake_run(const std::string& variant, int seed, double token_acc, json steps_to = nullptr,
              const json& status = done(), double lr = 0.001, double clip = 1) {
  const bool bad = status["state"] == "diverged";
  json metric = bad ? json(nullptr) : json(token_acc);
  return {{"variant", variant},
          {"seed", seed},
          {"lr", lr},
          {"clip", clip},
          {"parameters", variant == "identity" ? 900 : 1000},
          {"wo_sv", {{1, 1, 1, 1, 1, 1, 1, 1}}},
          {"curve", curve_to(steps_to)},
          {"eval", {{"step", {0, 5}}, {"loss", {2.5, 0.5}}, {"token_acc", {0.25, token_acc}}, {"exact", {0, 0.5}}}},
          {"stats", json::array()},
          {"wo", json::array()},
          {"ov", json::array()},
          {"final", {{"loss", bad ? json(nullptr) : json(1 - token_acc)}, {"token_acc", metric},
                     {"exact", bad ? json(nullptr) : json(token_acc / 2)}, {"greedy_exact", metric},
                     {"steps_to_loss_0_1", steps_to}}},
          {"status", status}};
}

const json* summary_of(const json& results, const std::string& variant, double lr = 0.001) {
  for (const json& s : results["summary"])
    if (s["variant"] == variant && s["lr"] == lr) return &s;
  return nullptr;
}

Trainer trained(const RunConfig& cfg, bool keep_wo) {
  Trainer t(cfg);
  t.keep_wo_snapshots(keep_wo);
  while (!t.finished()) t.step(7);
  return t;
}

TEST(Status, WordsAndJsonRoundTrip) {
  const std::pair<RunStatus, const char*> cases[] = {{{State::running, 0}, "running"},
                                                     {{State::done, 0}, "done"},
                                                     {{State::stopped, 40}, "stopped at step 40"},
                                                     {{State::diverged, 17}, "diverged at step 17"}};
  for (const auto& [status, words] : cases) {
    EXPECT_EQ(describe(status), words);
    EXPECT_EQ(status_from_description(words), status) << words;
    EXPECT_EQ(status_from_json(status_json(status)), status) << words;
  }
  EXPECT_EQ(status_json({State::diverged, 17}), diverged(17));
  EXPECT_EQ(status_json({State::done, 0}), done());
  for (const char* text : {"", "Done", "diverged", "diverged at step", "diverged at step x", "done at step 3",
                           "diverged at step -1", "diverged at step 99999999999", "stopped at step 4 "})
    EXPECT_EQ(status_from_description(text), std::nullopt) << text;
  for (const char* text : {R"("done")", R"({})", R"({"state": "done", "step": 3})", R"({"state": "diverged"})",
                           R"({"state": "diverged", "step": -1})", R"({"state": "stopped", "step": 1.5})",
                           R"({"state": "gone"})", R"({"state": "done", "extra": 1})"})
    EXPECT_EQ(status_from_json(json::parse(text)), std::nullopt) << text;
}

TEST(Results, SummaryIsMeanAndSampleStdOverDoneRuns) {
  json r = make_results(small_config(), "remove_wo",
                        {fake_run("identity", 0, 0.4, 12), fake_run("learned", 0, 0.5, 10),
                         fake_run("learned", 1, 0.7, 20), fake_run("learned", 2, 0.9),
                         fake_run("learned", 3, 0.1, 3, stopped(4)),
                         fake_run("identity", 1, 0, nullptr, diverged(3))});
  ASSERT_EQ(r["summary"].size(), 2u);
  EXPECT_EQ(r["summary"][0]["variant"], "learned");  // the experiment's order, not the runs'
  const json& learned = *summary_of(r, "learned");
  EXPECT_EQ(learned["lr"], 0.001);
  EXPECT_EQ(learned["n"], 4);
  EXPECT_EQ(learned["diverged"], 0);
  EXPECT_EQ(learned["stopped"], 1);  // counted, not averaged: it trained fewer steps
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
  EXPECT_TRUE(identity["token_acc"]["std"].is_null());  // one run: no spread
  EXPECT_EQ(identity["steps_to_loss_0_1"]["reached"], 1);
}

// A run whose worker failed comes in among the records as the page has it, and goes to "failed":
// checked as a run's variant, seed and lr are, kept on import, absent when nothing failed.
TEST(Results, AFailedRunIsListedApartAndChecked) {
  const json failure = {{"variant", "identity"}, {"seed", 1}, {"lr", 0.001}, {"status", {{"state", "failed"}}},
                        {"error", "could not load wolab.js"}};
  const json r = make_results(small_config(), "remove_wo",
                              {fake_run("learned", 0, 0.5, 10), fake_run("identity", 0, 0.4, 12), failure});
  EXPECT_EQ(r["runs"].size(), 2u);
  EXPECT_EQ(r["failed"], json::parse(R"([{"variant": "identity", "seed": 1, "lr": 0.001, "error": "could not load wolab.js"}])"));
  EXPECT_EQ(parse_results(r.dump())["failed"], r["failed"]);
  EXPECT_FALSE(make_results(small_config(), "remove_wo", {fake_run("learned", 0, 0.5, 10)}).contains("failed"));
  // Not a run of the plan, or no error: refused, naming the place.
  const auto refused = [&](const json& entry, const std::string& what) {
    json bad = r;
    bad["failed"] = json::array({entry});
    try {
      parse_results(bad.dump());
      ADD_FAILURE() << "accepted " << entry;
    } catch (const ResultsError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("results: " + what, 0), 0u) << e.what();
    }
  };
  json other = r["failed"][0];
  other["variant"] = "frozen_random";
  refused(other, "failed[0].variant: \"frozen_random\" is not a variant of remove_wo");
  other = r["failed"][0];
  other["lr"] = 0.5;
  refused(other, "failed[0].lr: 0.5 is not a learning rate of remove_wo");
  other = r["failed"][0];
  other.erase("error");
  refused(other, "failed[0].error: missing");
}

TEST(Results, AllDivergedGivesNullNotNaN) {
  json r = make_results(small_config(), "wo_heatmap",
                        {fake_run("learned", 0, 0, nullptr, diverged(2)), fake_run("learned", 1, 0, nullptr, diverged(7))});
  const json& s = r["summary"][0];
  EXPECT_EQ(s["diverged"], 2);
  EXPECT_TRUE(s["token_acc"]["mean"].is_null());
  EXPECT_TRUE(s["token_acc"]["std"].is_null());
  EXPECT_EQ(s["steps_to_loss_0_1"]["reached"], 0);
  EXPECT_EQ(r.dump().find("NaN"), std::string::npos);
  EXPECT_EQ(parse_results(r.dump()), r);
}

TEST(Results, LrStabilitySummarisesEachVariantAndLearningRate) {
  ExperimentConfig cfg = small_config();
  cfg.lr_stability.lrs = {0.001f, 0.03f};
  json r = make_results(cfg, "lr_stability",
                        {fake_run("identity", 0, 0.5, 3, done(), 0.03, 0), fake_run("learned", 0, 0.4, 3, done(), 0.001, 0),
                         fake_run("learned", 0, 0, nullptr, diverged(2), 0.03, 0),
                         fake_run("learned", 1, 0.6, 3, done(), 0.001, 0)});
  ASSERT_EQ(r["summary"].size(), 3u);  // (learned, 0.001), (learned, 0.03), (identity, 0.03)
  EXPECT_EQ(r["summary"][0]["lr"], 0.001);
  EXPECT_EQ(r["summary"][1]["lr"], 0.03);
  EXPECT_EQ(r["summary"][2]["variant"], "identity");
  EXPECT_EQ((*summary_of(r, "learned", 0.001))["n"], 2);
  EXPECT_NEAR((*summary_of(r, "learned", 0.001))["token_acc"]["mean"].get<double>(), 0.5, 1e-12);
  EXPECT_EQ((*summary_of(r, "learned", 0.03))["diverged"], 1);
  EXPECT_EQ(r["config"]["lr_stability"]["lrs"], json::parse("[0.001, 0.03]"));
  // A run at a rate or clip the experiment does not train at is not one of its runs.
  try {
    make_results(cfg, "lr_stability", {fake_run("learned", 0, 0.4, 3, done(), 0.01, 0)});
    ADD_FAILURE() << "accepted lr 0.01";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "results: runs[0].lr: 0.01 is not a learning rate of lr_stability (lr_stability.lrs)");
  }
  try {
    make_results(cfg, "lr_stability", {fake_run("learned", 0, 0.4, 3, done(), 0.001, 1)});
    ADD_FAILURE() << "accepted clip 1";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "results: runs[0].clip: expected 0, the clip of lr_stability (lr_stability.clip)");
  }
  EXPECT_EQ(parse_results(r.dump()), r);
}

TEST(Results, HeaderAndConfigAreComplete) {
  ExperimentConfig cfg = small_config();
  cfg.experiment = "all";
  json r = make_results(cfg, "freeze_wo", {fake_run("frozen_random", 0, 0.5)});
  EXPECT_EQ(r["format"], "wolab-results");
  EXPECT_EQ(r["version"], 2);
  EXPECT_EQ(r["created_by"], std::string("wolab ") + kVersion);
  EXPECT_EQ(r["experiment"], "freeze_wo");
  EXPECT_EQ(r["config"]["experiment"], "freeze_wo");  // each file of "all" names its own
  EXPECT_EQ(r["config"]["model"]["d_model"], 8);
  EXPECT_EQ(r["config"]["train"]["lr"], 0.001);
  EXPECT_EQ(r["config"]["lr_stability"]["clip"], 0);
  EXPECT_THROW(make_results(cfg, "all", {}), ConfigError);
  EXPECT_THROW(make_results(cfg, "remove_wo", {fake_run("frozen_random", 0, 0.5)}), ConfigError);
}

TEST(Results, EachExperimentKeepsWhatItShows) {
  json run = fake_run("learned", 0, 0.5);
  run["stats"] = {{{"step", 5}, {"layer", 0}, {"concat", {{"mean", 0}, {"std", 1}}}, {"wo_out", {{"mean", 0}, {"std", 1}}},
                   {"residual", {{"mean", 0}, {"std", 1}}}, {"head_grad_norm", {1.0, 2.0}}}};
  run["wo"] = {{{"step", 0}, {"layer", 0}, {"rows", 8}, {"cols", 8}, {"data", std::vector<double>(64, 0.5)}}};
  run["ov"] = {{{"step", 0}, {"layer", 0}, {"head", 1}, {"values", {2.0, 1.0, 0.5, 0.0}}}};
  const json stats = make_results(small_config(), "activation_stats", {run})["runs"][0];
  EXPECT_EQ(stats["stats"], run["stats"]);
  EXPECT_EQ(stats["wo"], json::array());
  EXPECT_EQ(stats["ov"], json::array());
  const json heatmap = make_results(small_config(), "wo_heatmap", {run})["runs"][0];
  EXPECT_EQ(heatmap["stats"], json::array());
  json kept = heatmap["wo"];  // less the figures it adds (RecordedWoCarriesItsHeadNorms)
  for (json& entry : kept)
    for (const char* figure : {"head_norms", "head_change_norms", "dominant_rows", "diagonal_energy", "change_from_init"})
      entry.erase(figure);
  EXPECT_EQ(kept, run["wo"]);
  EXPECT_EQ(heatmap["ov"], run["ov"]);
  const json remove = make_results(small_config(), "remove_wo", {run})["runs"][0];
  EXPECT_EQ(remove["stats"], json::array());
  EXPECT_EQ(remove["wo"], json::array());
}

TEST(Results, ParseNormalisesAndRecomputesTheSummary) {
  json r = make_results(small_config(), "remove_wo", {fake_run("learned", 0, 0.5), fake_run("identity", 0, 0.6)});
  EXPECT_EQ(parse_results(r.dump()), r);
  json tampered = r;
  tampered["summary"][0]["token_acc"]["mean"] = 1.0;
  tampered["config"] = {{"seeds", 2},
                        {"model", {{"d_model", 8}, {"heads", 2}, {"layers", 1}, {"d_ff", 16}}},
                        {"task", {{"alphabet", 4}, {"length", 3}}},
                        {"train", {{"steps", 20}, {"batch", 8}, {"probe_every", 5}}},
                        {"real_words", r["config"]["real_words"]}};  // small_config()'s own
  tampered["unknown_extra"] = true;
  EXPECT_EQ(parse_results(tampered.dump()), r);
}

// Files written before one seed's std was null said 0; the summary is recomputed, so they import.
TEST(Results, OneSeedStdZeroOfOlderFilesImportsAsNull) {
  json r = make_results(small_config(), "remove_wo", {fake_run("learned", 0, 0.5), fake_run("identity", 0, 0.6)});
  json older = r;
  for (json& s : older["summary"])
    for (const char* metric : {"token_acc", "exact", "greedy_exact", "loss"}) s[metric]["std"] = 0.0;
  EXPECT_EQ(parse_results(older.dump()), r);
  EXPECT_TRUE(r["summary"][0]["loss"]["std"].is_null());
}

// A version 1 file as the previous build wrote it: string statuses, no lr, clip, wo_sv or ov.
json version_1(const json& v2) {
  json v1 = v2;
  v1["version"] = 1;
  v1["config"].erase("lr_stability");
  for (json& run : v1["runs"]) {
    run["status"] = describe(*status_from_json(run["status"]));
    for (const char* key : {"lr", "clip", "wo_sv", "ov"}) run.erase(key);
  }
  for (json& s : v1["summary"]) s.erase("lr");
  return v1;
}

TEST(Results, Version1FilesAreReadAsVersion2) {
  ExperimentConfig cfg = small_config();
  cfg.base.train.lr = 0.002f;
  cfg.base.train.clip = 0.5f;
  const json v2 = make_results(cfg, "remove_wo",
                               {fake_run("learned", 0, 0.5, 3, done(), 0.002, 0.5),
                                fake_run("identity", 0, 0, nullptr, diverged(4), 0.002, 0.5)});
  const json read = parse_results(version_1(v2).dump());
  EXPECT_EQ(read["version"], 2);
  ASSERT_EQ(read["runs"].size(), 2u);
  EXPECT_EQ(read["runs"][1]["status"], diverged(4));
  EXPECT_EQ(read["runs"][0]["lr"], 0.002);  // the config's: version 1 had no sweeps
  EXPECT_EQ(read["runs"][0]["clip"], 0.5);
  EXPECT_TRUE(read["runs"][0]["wo_sv"].is_null());  // not recorded then
  EXPECT_EQ(read["runs"][0]["ov"], json::array());
  json expected = v2;
  for (json& run : expected["runs"]) run["wo_sv"] = nullptr;
  EXPECT_EQ(read, expected);

  json running = version_1(v2);
  running["runs"][0]["status"] = "running";
  try {
    parse_results(running.dump());
    ADD_FAILURE() << "accepted a running run";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "results: runs[0].status: expected \"done\" or \"diverged at step N\"");
  }
}

// Each refusal says what kind of file it is, for a page to word: not JSON, JSON but not results,
// another version, or a results file with something wrong inside.
TEST(Results, ParseNamesTheFaultOfARefusedFile) {
  const json good = make_results(small_config(), "remove_wo", {fake_run("learned", 0, 0.5, 3)});
  const auto fault = [](const std::string& text) -> std::string {
    try {
      parse_results(text);
    } catch (const ResultsError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("results: ", 0), 0u) << e.what();
      return fault_code(e.fault);
    }
    return "accepted";
  };
  EXPECT_EQ(fault(good.dump()), "accepted");
  EXPECT_EQ(fault(std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16)), "not_json");
  EXPECT_EQ(fault(good.dump().substr(0, 40)), "truncated");  // a download that stopped partway
  EXPECT_EQ(fault(good.dump().substr(0, good.dump().size() - 1)), "truncated");
  EXPECT_EQ(fault("{\"format\": \"wolab-results\", \"version\": 2 garbage}"), "not_json");
  EXPECT_EQ(fault(R"({"seeds": 3, "model": {"d_model": 16}})"), "not_results");
  EXPECT_EQ(fault("[1, 2]"), "not_results");
  json other = good;
  other["version"] = 99;
  EXPECT_EQ(fault(other.dump()), "version");
  json damaged = good;
  damaged["runs"][0]["curve"]["loss"].push_back(1.0);
  EXPECT_EQ(fault(damaged.dump()), "damaged");
  damaged = good;
  damaged["experiment"] = "all";  // refused by the experiment table, not by the file check
  EXPECT_EQ(fault(damaged.dump()), "damaged");
}

TEST(Results, ParseRefusesMalformedAndForeignFiles) {
  const json good = make_results(small_config(), "remove_wo",
                                 {fake_run("learned", 0, 0.5, 3), fake_run("identity", 0, 0, nullptr, diverged(4))});
  ASSERT_NO_THROW(parse_results(good.dump()));
  using Edit = std::function<void(json&)>;
  const std::pair<Edit, const char*> cases[] = {
      {[](json& j) { j = json::array(); }, "not a W_o Lab results file"},
      {[](json& j) { j["format"] = "other"; }, "not a W_o Lab results file"},
      {[](json& j) { j.erase("format"); }, "not a W_o Lab results file"},
      {[](json& j) { j["version"] = 3; }, "results: version: 3 is not supported; this build reads versions 1 and 2"},
      {[](json& j) { j.erase("runs"); }, "results: runs: missing"},
      {[](json& j) { j["runs"] = json::object(); }, "results: runs: expected an array"},
      {[](json& j) { j.erase("summary"); }, "results: summary: missing"},
      {[](json& j) { j["experiment"] = "all"; }, "results: experiment: unknown experiment \"all\""},
      {[](json& j) { j["created_by"] = 5; }, "results: created_by: expected a string"},
      {[](json& j) { j["config"]["model"]["heads"] = 3; }, "results: config.model.heads: d_model 8 is not divisible"},
      {[](json& j) { j["config"]["model"]["dmodel"] = 3; }, "results: config.model.dmodel: unknown key"},
      {[](json& j) { j["config"]["lr_stability"]["lrs"] = {0.1, 0.01}; },
       "results: config.lr_stability.lrs: 0.01 does not increase on 0.1"},
      {[](json& j) { j["runs"][0]["variant"] = "frozen_random"; },
       "results: runs[0].variant: \"frozen_random\" is not a variant of remove_wo"},
      {[](json& j) { j["runs"][0].erase("seed"); }, "results: runs[0].seed: missing"},
      {[](json& j) { j["runs"][0]["seed"] = -1; }, "results: runs[0].seed: -1 is out of range"},
      {[](json& j) { j["runs"][0]["parameters"] = 1.5; }, "results: runs[0].parameters: expected an integer"},
      {[](json& j) { j["runs"][0].erase("lr"); }, "results: runs[0].lr: missing"},
      {[](json& j) { j["runs"][0]["lr"] = 0.01; }, "runs[0].lr: 0.01 is not a learning rate of remove_wo (train.lr)"},
      {[](json& j) { j["runs"][0]["clip"] = 0; }, "runs[0].clip: expected 1, the clip of remove_wo (train.clip)"},
      {[](json& j) { j["runs"][0]["wo_sv"] = json::array(); }, "runs[0].wo_sv: has 0 entries, expected 1"},
      {[](json& j) { j["runs"][0]["wo_sv"][0] = {1}; }, "runs[0].wo_sv[0]: has 1 entries, expected 8"},
      {[](json& j) { j["runs"][0]["wo_sv"][0][3] = -1; }, "runs[0].wo_sv[0][3]: -1 is out of range"},
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
      {[](json& j) { j["runs"][0]["ov"] = {{{"step", 0}, {"layer", 0}, {"head", 2}, {"values", {1, 1, 1, 1}}}}; },
       "runs[0].ov[0].head: 2 is out of range 0..1"},
      {[](json& j) { j["runs"][0]["ov"] = {{{"step", 0}, {"layer", 0}, {"head", 0}, {"values", {1, 1}}}}; },
       "runs[0].ov[0].values: has 2 entries, expected 4"},
      {[](json& j) { j["runs"][0].erase("ov"); }, "runs[0].ov: missing"},
      {[](json& j) { j["runs"][0]["final"]["loss"] = nullptr; }, "runs[0].final.loss: expected a number"},
      {[](json& j) { j["runs"][0]["final"]["greedy_exact"] = 2; }, "runs[0].final.greedy_exact: 2 is out of range"},
      {[](json& j) { j["runs"][0]["final"]["steps_to_loss_0_1"] = 0; }, "runs[0].final.steps_to_loss_0_1: 0 is out of range"},
      {[](json& j) { j["runs"][0]["status"] = {{"state", "running"}}; },
       "runs[0].status: the run is still running; stop it or let it finish"},
      {[](json& j) { j["runs"][0]["status"] = "done"; }, "runs[0].status: expected {\"state\": \"done\"}"},
      {[](json& j) { j["runs"][1]["status"] = {{"state", "diverged"}, {"step", "x"}}; }, "runs[1].status: expected"},
      {[](json& j) { j["runs"][1]["status"] = diverged(21); }, "runs[1].status.step: 21 is out of range 1..20"},
      {[](json& j) { j["runs"][1]["status"] = diverged(0); }, "runs[1].status.step: 0 is out of range 1..20"},
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
  cfg.train.lr = 0.002f;
  const Trainer t0(cfg);
  Trainer t = trained(cfg, true);
  json r = run_record(t);
  EXPECT_EQ(r["variant"], "learned");  // from the trainer's own config
  EXPECT_EQ(r["lr"], 0.002);
  EXPECT_EQ(r["clip"], 1);
  EXPECT_EQ(r["status"], done());
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
  EXPECT_EQ(r["stats"].size(), 4u);  // 4 probe steps × 1 layer
  EXPECT_EQ(r["stats"][0]["head_grad_norm"].size(), 2u);
  ASSERT_EQ(r["wo"].size(), 5u);  // step 0 and 4 probe steps
  EXPECT_EQ(r["wo"][0]["data"].size(), 64u);
  ASSERT_EQ(r["ov"].size(), 5u * 2);  // and each of them per head
  EXPECT_EQ(r["ov"][9]["step"], 20);
  EXPECT_EQ(r["ov"][9]["layer"], 0);
  EXPECT_EQ(r["ov"][9]["head"], 1);
  std::vector<double> ov_last;
  for (float x : t.ov_singular_values(0, 1)) ov_last.push_back(decimal_float(x));
  EXPECT_EQ(r["ov"][9]["values"].get<std::vector<double>>(), ov_last);

  // wo_sv: W_o's singular values at step 0, whose squares add up to its squared Frobenius norm.
  ASSERT_EQ(r["wo_sv"].size(), 1u);
  ASSERT_EQ(r["wo_sv"][0].size(), 8u);
  double sum_sq = 0, frobenius_sq = 0;
  for (const json& s : r["wo_sv"][0]) sum_sq += s.get<double>() * s.get<double>();
  for (float w : t0.wo_init(0)) frobenius_sq += double(w) * w;
  EXPECT_NEAR(sum_sq, frobenius_sq, 1e-5 * frobenius_sq);
  EXPECT_GE(r["wo_sv"][0][0].get<double>(), r["wo_sv"][0][7].get<double>());

  ExperimentConfig e = small_config();
  e.base.train.lr = 0.002f;
  json results = make_results(e, "wo_heatmap", {r});
  EXPECT_EQ(parse_results(results.dump()), results);
}

// train.loss_every N: a point per N steps at the last of them, their mean; the last point of
// fewer steps; nothing from the first non-finite loss on; every step's own value at N = 1.
TEST(Results, LossCurveKeepsAPointPerNStepsTheirMean) {
  const float nan = std::nanf("");
  EXPECT_EQ(loss_curve({1, 2, 3, 4, 5}, 2), json::parse(R"({"step": [2, 4, 5], "loss": [1.5, 3.5, 5]})"));
  EXPECT_EQ(loss_curve({1, 2, 3, nan, 5}, 2), json::parse(R"({"step": [2, 3], "loss": [1.5, 3]})"));
  EXPECT_EQ(loss_curve({0.1f, 0.7f}, 1), json::parse(R"({"step": [1, 2], "loss": [0.1, 0.7]})"));
  EXPECT_EQ(loss_curve({}, 10), json::parse(R"({"step": [], "loss": []})"));

  RunConfig cfg = small_config().base;
  cfg.train.loss_every = 6;  // 20 steps: points at 6, 12, 18 and 20
  Trainer t = trained(cfg, true);
  const json r = run_record(t);
  EXPECT_EQ(r["curve"]["step"], json::parse("[6, 12, 18, 20]"));
  double last = 0;
  for (size_t i = 18; i < 20; ++i) last += t.losses()[i];
  EXPECT_EQ(r["curve"]["loss"][3].get<double>(), decimal_float(static_cast<float>(last / 2)));
  // The final metrics do not depend on it: steps to loss < 0.1 counts every step.
  cfg.train.loss_every = 1;
  Trainer every = trained(cfg, true);
  EXPECT_EQ(run_record(every)["final"], r["final"]);
}

// Each W_o snapshot carries its heads' block norms, of W_o and of its change since step 0, as
// head_block_norms computes them; an imported file's are recomputed from the data.
TEST(Results, RecordedWoCarriesItsHeadNorms) {
  Trainer t = trained(small_config().base, true);
  const json r = run_record(t);
  auto floats = [](const std::vector<float>& xs) {
    std::vector<double> out;
    for (float x : xs) out.push_back(decimal_float(x));
    return out;
  };
  const std::vector<float> init = t.wo_init(0), last = t.wo_weights(0);  // (8,8)
  const json &first = r["wo"][0], &end = r["wo"][4];
  EXPECT_EQ(first["head_norms"].get<std::vector<double>>(), floats(head_block_norms(init.data(), 8, 8, 2)));
  EXPECT_EQ(first["head_change_norms"], json::parse("[0, 0]"));
  EXPECT_EQ(end["head_norms"].get<std::vector<double>>(), floats(t.head_block_norms(0)));
  EXPECT_EQ(end["head_change_norms"].get<std::vector<double>>(),
            floats(head_block_norms(last.data(), 8, 8, 2, init.data())));
  EXPECT_GT(end["head_change_norms"][0].get<double>(), 0);
  // And what claim 5 reads of it (wo_figures), against step 0 of the layer.
  const WoFigures f = wo_figures(last.data(), init.data(), 8);
  EXPECT_EQ(end["dominant_rows"].get<double>(), f.dominant_rows);
  EXPECT_EQ(end["diagonal_energy"].get<double>(), f.diagonal_energy);
  EXPECT_EQ(end["change_from_init"].get<double>(), f.change_from_init);
  EXPECT_GT(f.change_from_init, 0);
  EXPECT_EQ(first["change_from_init"].get<double>(), 0);

  const json results = make_results(small_config(), "wo_heatmap", {r});
  json file = results;
  file["runs"][0]["wo"][0].erase("head_norms");    // as files written before them
  file["runs"][0]["wo"][4]["head_norms"] = {1, 2};  // or edited by hand
  file["runs"][0]["wo"][4]["dominant_rows"] = 1;
  EXPECT_EQ(parse_results(file.dump()), results);
}

TEST(Results, IdentityWoHasUnitSingularValues) {
  RunConfig cfg = small_config().base;
  cfg.model.wo = WoMode::identity;
  Trainer t(cfg);
  json r = run_record(t);
  for (const json& s : r["wo_sv"][0]) EXPECT_NEAR(s.get<double>(), 1.0, 1e-6);
}

TEST(Results, RecordWhileRunningHasNoFinalAndIsNotSaved) {
  Trainer t(small_config().base);
  t.keep_wo_snapshots(true);
  t.step(7);
  json r = run_record(t);
  EXPECT_EQ(r["status"], json({{"state", "running"}}));
  EXPECT_TRUE(r["final"].is_null());
  EXPECT_EQ(r["curve"]["step"].size(), 7u);
  EXPECT_EQ(r["eval"]["step"], json::parse("[5]"));
  try {
    make_results(small_config(), "remove_wo", {r});
    ADD_FAILURE() << "saved a running run";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "results: runs[0].status: the run is still running; stop it or let it finish");
  }
}

TEST(Results, StoppedRunIsRecordedFromWhatItHas) {
  Trainer t(small_config().base);
  t.step(7);
  t.stop();
  EXPECT_TRUE(t.finished());
  EXPECT_EQ(t.status(), (RunStatus{State::stopped, 7}));
  EXPECT_TRUE(t.step(5).empty());
  json r = run_record(t);
  EXPECT_EQ(r["status"], stopped(7));
  EXPECT_EQ(r["curve"]["step"].size(), 7u);
  const EvalResult now = t.evaluate();  // the final metrics are those of step 7
  EXPECT_EQ(now.step, 7);
  EXPECT_EQ(r["final"]["loss"].get<double>(), decimal_float(now.loss));
  EXPECT_TRUE(r["final"]["greedy_exact"].is_number());
  json results = make_results(small_config(), "remove_wo", {r});
  EXPECT_EQ(results["summary"][0]["stopped"], 1);
  EXPECT_TRUE(results["summary"][0]["token_acc"]["mean"].is_null());  // not averaged
  EXPECT_EQ(parse_results(results.dump()), results);
  t.stop();  // a finished run stays as it is
  EXPECT_EQ(t.status(), (RunStatus{State::stopped, 7}));

  // A checkpoint keeps the status in words, as it always has.
  const std::vector<uint8_t> bytes = save_checkpoint(t);
  EXPECT_EQ(read_safetensors(bytes.data(), bytes.size()).metadata.at("status"), "stopped at step 7");
  Trainer back = load_checkpoint(bytes);
  EXPECT_EQ(back.status(), (RunStatus{State::stopped, 7}));
  EXPECT_TRUE(back.finished());
}

// The page appends probe_record() at each probe step to run_record() taken at step 0: that
// must give the record's series exactly, with the fragment's eval in the record's columns.
TEST(Results, ProbeFragmentsAddUpToTheRecord) {
  RunConfig cfg = small_config().base;
  cfg.train.steps = 17;  // the last step is a probe step off the probe_every grid
  Trainer t(cfg);
  t.keep_wo_snapshots(true);
  json built = run_record(t);
  const json first = probe_record(t);
  EXPECT_EQ(first["step"], 0);
  EXPECT_TRUE(first["eval"].is_null());
  EXPECT_EQ(first["wo"], built["wo"]);  // step 0's snapshots are in the record already
  EXPECT_EQ(first["ov"], built["ov"]);
  EXPECT_EQ(built["ov"].size(), 2u);
  int last = 0;
  while (!t.finished()) {
    t.step(1);
    const json f = probe_record(t);
    if (f["step"] == last) continue;  // no new probe this step
    last = f["step"].get<int>();
    ASSERT_FALSE(f["eval"].is_null());
    built["eval"]["step"].push_back(f["step"]);
    for (const char* key : {"loss", "token_acc", "exact"}) built["eval"][key].push_back(f["eval"][key]);
    for (const char* key : {"stats", "wo", "ov"})
      for (const json& entry : f[key]) built[key].push_back(entry);
  }
  const json r = run_record(t);
  EXPECT_EQ(built["eval"], r["eval"]);
  EXPECT_EQ(built["stats"], r["stats"]);
  EXPECT_EQ(built["wo"], r["wo"]);
  EXPECT_EQ(built["ov"], r["ov"]);
  EXPECT_EQ(r["eval"]["step"], json::parse("[5, 10, 15, 17]"));
  EXPECT_EQ(r["ov"].size(), 5u * 2);
}

TEST(Results, KeepStatsOffRecordsNone) {
  Trainer t(small_config().base);
  t.keep_stats(false);
  while (!t.finished()) t.step(10);
  EXPECT_TRUE(t.probes().empty());
  const json r = run_record(t);
  EXPECT_EQ(r["stats"], json::array());
  EXPECT_EQ(r["eval"]["step"].size(), 4u);  // evals are always kept
  EXPECT_EQ(probe_record(t)["stats"], json::array());
}

}  // namespace
}  // namespace wolab
