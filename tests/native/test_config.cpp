// Config JSON: defaults, round trip, every validation rule with its exact message, the memory
// estimate and its limit, CLI flag parsing and the settings table behind --help.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "lab/config.h"
#include "lab/settings_help.h"
#include "run/memory_estimate.h"
#include "run/tasks.h"

namespace wolab {
namespace {

using json = nlohmann::json;

std::string first_problem(const std::string& text) {
  auto problems = config_problems(text);
  return problems.empty() ? "" : problems.front();
}

TEST(Config, EmptyObjectGivesTheSpecDefaults) {
  ExperimentConfig c = parse_experiment_config("{}");
  EXPECT_EQ(c.experiment, "remove_wo");
  EXPECT_EQ(c.seeds, 5);
  EXPECT_EQ(c.base.model.d_model, 64);
  EXPECT_EQ(c.base.model.heads, 4);
  EXPECT_EQ(c.base.model.layers, 2);
  EXPECT_EQ(c.base.model.d_ff, 256);
  EXPECT_EQ(c.base.model.ln, LnPlace::post);
  EXPECT_EQ(c.base.model.wo, WoMode::learned);
  EXPECT_EQ(c.base.task.kind, TaskKind::copy);
  EXPECT_EQ(c.base.task.alphabet, 10);
  EXPECT_EQ(c.base.task.length, 8);
  EXPECT_EQ(c.base.train.steps, 400);
  EXPECT_EQ(c.base.train.batch, 32);
  EXPECT_FLOAT_EQ(c.base.train.lr, 1e-3f);
  EXPECT_FLOAT_EQ(c.base.train.clip, 1.0f);
  EXPECT_EQ(c.base.train.probe_every, 25);
  EXPECT_EQ(c.base.train.seed, 0u);
  EXPECT_EQ(c.base.model.vocab, 12);    // derived: alphabet + BOS + SEP
  EXPECT_EQ(c.base.model.seq_len, 17);  // derived: 2·length + 1
  EXPECT_EQ(c.lr_stability.lrs, (std::vector<float>{0.001f, 0.003f, 0.01f, 0.02f, 0.03f}));
  EXPECT_EQ(c.lr_stability.clip, 0.0f);
}

TEST(Config, EveryFieldIsRead) {
  ExperimentConfig c = parse_experiment_config(R"({
    "experiment": "freeze_wo", "seeds": 3,
    "model": {"d_model": 48, "heads": 6, "layers": 3, "d_ff": 100, "ln": "pre", "wo": "frozen_random"},
    "task": {"name": "sort", "alphabet": 20, "length": 5},
    "train": {"steps": 50, "batch": 7, "lr": 0.5, "clip": 0, "probe_every": 9, "seed": 9007199254740992},
    "lr_stability": {"lrs": [0.0001, 0.5, 1], "clip": 2.5}})");
  EXPECT_EQ(c.experiment, "freeze_wo");
  EXPECT_EQ(c.seeds, 3);
  EXPECT_EQ(c.base.model.d_model, 48);
  EXPECT_EQ(c.base.model.heads, 6);
  EXPECT_EQ(c.base.model.layers, 3);
  EXPECT_EQ(c.base.model.d_ff, 100);
  EXPECT_EQ(c.base.model.ln, LnPlace::pre);
  EXPECT_EQ(c.base.model.wo, WoMode::frozen_random);
  EXPECT_EQ(c.base.task.kind, TaskKind::sort);
  EXPECT_EQ(c.base.task.alphabet, 20);
  EXPECT_EQ(c.base.task.length, 5);
  EXPECT_EQ(c.base.train.steps, 50);
  EXPECT_EQ(c.base.train.batch, 7);
  EXPECT_FLOAT_EQ(c.base.train.lr, 0.5f);
  EXPECT_FLOAT_EQ(c.base.train.clip, 0.0f);
  EXPECT_EQ(c.base.train.probe_every, 9);
  EXPECT_EQ(c.base.train.seed, 9007199254740992ull);
  EXPECT_EQ(c.base.model.vocab, 22);
  EXPECT_EQ(c.base.model.seq_len, 11);
  EXPECT_EQ(c.lr_stability.lrs, (std::vector<float>{0.0001f, 0.5f, 1.0f}));
  EXPECT_EQ(c.lr_stability.clip, 2.5f);
}

TEST(Config, LearningRateListsAreCheckedValueByValue) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"lr_stability": {"lrs": 0.01}})",
       "lr_stability.lrs: expected an array of numbers, got a number; use 1 to 12 increasing numbers in (0, 1]"},
      {R"({"lr_stability": {"lrs": []}})", "lr_stability.lrs: has 0 values; use 1 to 12 increasing numbers in (0, 1]"},
      {R"({"lr_stability": {"lrs": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.91, 0.92, 0.93, 0.94]}})",
       "lr_stability.lrs: has 13 values; use 1 to 12 increasing numbers in (0, 1]"},
      {R"({"lr_stability": {"lrs": [0.01, "x"]}})",
       "lr_stability.lrs: expected a number, got a string; use 1 to 12 increasing numbers in (0, 1]"},
      {R"({"lr_stability": {"lrs": [0, 0.01]}})", "lr_stability.lrs: 0 is out of range; use 1 to 12 increasing numbers in (0, 1]"},
      {R"({"lr_stability": {"lrs": [0.01, 2]}})", "lr_stability.lrs: 2 is out of range; use 1 to 12 increasing numbers in (0, 1]"},
      {R"({"lr_stability": {"lrs": [0.01, 0.01]}})",
       "lr_stability.lrs: 0.01 does not increase on 0.01; use 1 to 12 increasing numbers in (0, 1]"},
      {R"({"lr_stability": {"lrs": [0.03, 0.01]}})",
       "lr_stability.lrs: 0.01 does not increase on 0.03; use 1 to 12 increasing numbers in (0, 1]"},
      // distinct as doubles, one float: the runs would be the same
      {R"({"lr_stability": {"lrs": [0.1, 0.10000000000000001]}})",
       "lr_stability.lrs: 0.1 does not increase on 0.1; use 1 to 12 increasing numbers in (0, 1]"},
      {R"({"lr_stability": {"clip": -1}})", "lr_stability.clip: -1 is out of range; use a number >= 0"},
      {R"({"lr_stability": 3})", "lr_stability: expected an object, got a number; use an object with keys lrs and clip"},
      {R"({"lr_stability": {"lr": [0.1]}})", "lr_stability.lr: unknown key; use lrs or clip"},
  };
  for (const auto& [text, expected] : cases) EXPECT_EQ(first_problem(text), expected) << text;
  EXPECT_EQ(first_problem(R"({"lr_stability": {"lrs": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.91, 0.92, 1]}})"), "");
}

// JSON.stringify(1.0) is "1": a whole number where a real is expected is that real, even for
// settings with no upper bound.
TEST(Config, WholeNumbersAreRealsToo) {
  ExperimentConfig c = parse_experiment_config(R"({"train": {"clip": 2, "lr": 1}})");
  EXPECT_FLOAT_EQ(c.base.train.clip, 2.0f);
  EXPECT_FLOAT_EQ(c.base.train.lr, 1.0f);
  EXPECT_EQ(first_problem(R"({"train": {"lr": 2}})"), "train.lr: 2 is out of range; use a number in (0, 1]");
}

TEST(Config, JsonIsFullyDefaultedAndRoundTrips) {
  json j = config_json(parse_experiment_config(R"({"model": {"d_model": 32}, "train": {"lr": 0.003}})"));
  EXPECT_EQ(j, json::parse(R"({"experiment": "remove_wo", "seeds": 5,
    "model": {"d_model": 32, "heads": 4, "layers": 2, "d_ff": 256, "ln": "post", "wo": "learned"},
    "task": {"name": "copy", "alphabet": 10, "length": 8, "heldout": 512},
    "train": {"steps": 400, "batch": 32, "lr": 0.003, "schedule": "constant", "warmup": 0, "lr_min": 0,
              "clip": 1.0, "probe_every": 25, "loss_every": 1, "seed": 0},
    "lr_stability": {"lrs": [0.001, 0.003, 0.01, 0.02, 0.03], "clip": 0},
    "real_words": {"d_model": 64, "heads": 4, "layers": 2, "d_ff": 256, "steps": 2000, "batch": 32,
                   "probe_every": 100, "heldout": 256}})"));
  EXPECT_EQ(j["train"]["lr"].dump(), "0.003");  // the decimal the user wrote, not the float's tail
  EXPECT_EQ(config_json(parse_experiment_config(j.dump())), j);

  RunConfig run = parse_run_config(j.dump());  // a run config reads the same document
  EXPECT_EQ(run.model.d_model, 32);
  json rj = config_json(run);
  EXPECT_EQ(rj.size(), 3u);  // model, task, train
  EXPECT_EQ(config_json(parse_run_config(rj.dump())), rj);
}

TEST(Config, PresetsAreValidAndComplete) {
  json p = presets();
  ASSERT_TRUE(p.contains("quick") && p.contains("article"));
  EXPECT_EQ(p["article"]["model"]["d_model"], 256);
  EXPECT_EQ(p["article"]["model"]["heads"], 4);
  EXPECT_LT(p["quick"]["model"]["d_model"].get<int>(), 256);
  std::vector<std::string> names;
  for (const auto& item : p.items()) names.push_back(item.key());
  std::vector<std::string> offered = preset_names();
  EXPECT_EQ(offered.front(), "quick");  // the page's default
  std::sort(offered.begin(), offered.end());
  EXPECT_EQ(offered, names);
  for (const auto& item : p.items()) {
    EXPECT_TRUE(config_problems(item.value().dump()).empty()) << item.key();
    EXPECT_EQ(config_json(parse_experiment_config(item.value().dump())), item.value()) << item.key();
  }
}

TEST(Config, EnumNamesRoundTrip) {
  for (WoMode m : {WoMode::learned, WoMode::identity, WoMode::frozen_random, WoMode::learned_identity_init,
                   WoMode::frozen_random_scaled, WoMode::frozen_orthogonal, WoMode::block_diagonal,
                   WoMode::scalar_gain, WoMode::identity_matched})
    EXPECT_EQ(wo_mode_from_string(to_string(m)), m);
  for (LnPlace p : {LnPlace::post, LnPlace::pre}) EXPECT_EQ(ln_place_from_string(to_string(p)), p);
  for (TaskKind t : {TaskKind::copy, TaskKind::reverse, TaskKind::sort})
    EXPECT_EQ(task_kind_from_string(to_string(t)), t);
  EXPECT_FALSE(wo_mode_from_string("Learned"));
  EXPECT_FALSE(ln_place_from_string(""));
  EXPECT_FALSE(task_kind_from_string("sorted"));
}

TEST(Config, StructureErrorsNameTheField) {
  EXPECT_EQ(first_problem(R"({"model": {"dmodel": 64}})"),
            "model.dmodel: unknown key; use d_model, heads, layers, d_ff, ln or wo");
  EXPECT_EQ(first_problem(R"({"modle": {}})"),
            "modle: unknown key; use experiment, seeds, model, task, train, lr_stability or real_words");
  EXPECT_EQ(first_problem(R"({"model.d_model": 64})"),
            "model.d_model: unknown key; use experiment, seeds, model, task, train, lr_stability or real_words");
  EXPECT_EQ(first_problem(R"({"model": 64})"),
            "model: expected an object, got a number; use an object with keys d_model, heads, layers, d_ff, ln and wo");
  EXPECT_EQ(first_problem(R"({"model": {"d_model": "64"}})"),
            "model.d_model: expected a number, got a string; use an integer in 1..1024");
  EXPECT_EQ(first_problem(R"({"model": {"d_model": true}})"),
            "model.d_model: expected a number, got a boolean; use an integer in 1..1024");
  EXPECT_EQ(first_problem(R"({"model": {"d_model": null}})"),
            "model.d_model: expected a number, got null; use an integer in 1..1024");
  EXPECT_EQ(first_problem(R"({"model": {"d_model": 64.5}})"),
            "model.d_model: 64.5 is not an integer; use an integer in 1..1024");
  EXPECT_EQ(first_problem(R"({"model": {"ln": 1}})"),
            "model.ln: expected a string, got a number; use post or pre");
  EXPECT_EQ(first_problem(R"({"model": {"wo": "none"}})"),
            "model.wo: unknown value \"none\"; use learned, identity, frozen_random, learned_identity_init, "
            "frozen_random_scaled, frozen_orthogonal, block_diagonal, scalar_gain or identity_matched");
  EXPECT_EQ(first_problem("[1, 2]"),
            "config: expected a JSON object, got an array; write a JSON object such as {\"model\": {\"d_model\": 64}}");
  EXPECT_EQ(first_problem("{\"model\": {").rfind("config: not valid JSON (", 0), 0u);
  EXPECT_EQ(first_problem("").rfind("config: not valid JSON (", 0), 0u);
  EXPECT_EQ(first_problem(R"({"train": {"lr": 1e999}})").rfind("config: not valid JSON (number overflow", 0), 0u);
  EXPECT_EQ(first_problem("{\n\"a\":\n").find('\n'), std::string::npos);  // one line
  // A whole-number float is an integer (Python writes 64.0).
  EXPECT_EQ(parse_experiment_config(R"({"model": {"d_model": 64.0}})").base.model.d_model, 64);
}

TEST(Config, EveryRangeHasItsMessage) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"experiment": "all_of_them"})",
       "experiment: unknown value \"all_of_them\"; use remove_wo, freeze_wo, wo_heatmap, activation_stats, "
       "gain_vs_learning, lr_stability, real_words, wo_purpose, words_purpose or all"},
      {R"({"seeds": 0})", "seeds: 0 is out of range; use an integer in 1..100"},
      {R"({"seeds": 101})", "seeds: 101 is out of range; use an integer in 1..100"},
      {R"({"model": {"d_model": 0}})", "model.d_model: 0 is out of range; use an integer in 1..1024"},
      {R"({"model": {"d_model": 1025}})", "model.d_model: 1025 is out of range; use an integer in 1..1024"},
      {R"({"model": {"d_model": 1e20}})", "model.d_model: 1e+20 is out of range; use an integer in 1..1024"},
      {R"({"model": {"heads": 0}})", "model.heads: 0 is out of range; use an integer in 1..64"},
      {R"({"model": {"heads": 65}})", "model.heads: 65 is out of range; use an integer in 1..64"},
      {R"({"model": {"layers": 13}})", "model.layers: 13 is out of range; use an integer in 1..12"},
      {R"({"model": {"d_ff": 4097}})", "model.d_ff: 4097 is out of range; use an integer in 1..4096"},
      {R"({"model": {"ln": "middle"}})", "model.ln: unknown value \"middle\"; use post or pre"},
      {R"({"task": {"name": "sorted"}})", "task.name: unknown value \"sorted\"; use copy, reverse, sort or g2p"},
      {R"({"task": {"alphabet": 1}})", "task.alphabet: 1 is out of range; use an integer in 2..64"},
      {R"({"task": {"alphabet": 65}})", "task.alphabet: 65 is out of range; use an integer in 2..64"},
      {R"({"task": {"length": 0}})", "task.length: 0 is out of range; use an integer in 1..64"},
      {R"({"task": {"length": 65}})", "task.length: 65 is out of range; use an integer in 1..64"},
      {R"({"train": {"batch": 1025}})", "train.batch: 1025 is out of range; use an integer in 1..1024"},
      {R"({"train": {"steps": 0}})", "train.steps: 0 is out of range; use an integer in 1..1000000"},
      {R"({"train": {"steps": 1000001}})", "train.steps: 1000001 is out of range; use an integer in 1..1000000"},
      {R"({"train": {"lr": 0}})", "train.lr: 0 is out of range; use a number in (0, 1]"},
      {R"({"train": {"lr": 1.5}})", "train.lr: 1.5 is out of range; use a number in (0, 1]"},
      {R"({"train": {"clip": -0.5}})", "train.clip: -0.5 is out of range; use a number >= 0"},
      {R"({"train": {"clip": 1e300}})", "train.clip: 1e+300 is out of range; use a number >= 0"},
      {R"({"train": {"probe_every": 0}})", "train.probe_every: 0 is out of range; use an integer in 1..1000000"},
      {R"({"train": {"seed": -1}})", "train.seed: -1 is out of range; use an integer in 0..9007199254740992"},
      {R"({"train": {"seed": 9007199254740993}})",
       "train.seed: 9007199254740993 is out of range; use an integer in 0..9007199254740992"},
      {R"({"model": {"d_model": 64, "heads": 5}})",
       "model.heads: d_model 64 is not divisible by heads 5; choose heads dividing d_model"},
      // The value with fewer factors of two is named: here d_model, with multiples of heads.
      {R"({"model": {"d_model": 63, "heads": 4}})",
       "model.d_model: d_model 63 is not divisible by heads 4; choose a d_model divisible by 4, such as 60 or 64"},
      {R"({"model": {"d_model": 2, "heads": 4}})",
       "model.d_model: d_model 2 is not divisible by heads 4; choose a d_model divisible by 4, such as 4"},
      {R"({"model": {"d_model": 1022, "heads": 8}})",
       "model.d_model: d_model 1022 is not divisible by heads 8; choose a d_model divisible by 8, such as 1016 or 1024"},
      {R"({"model": {"d_model": 1021, "heads": 12}})",
       "model.d_model: d_model 1021 is not divisible by heads 12; choose a d_model divisible by 12, such as 1020"},
  };
  for (const auto& [text, expected] : cases) {
    EXPECT_EQ(first_problem(text), expected) << text;
    try {
      parse_experiment_config(text);
      ADD_FAILURE() << "accepted " << text;
    } catch (const ConfigError& e) {
      EXPECT_EQ(std::string(e.what()), expected);
    }
  }
  // The limits themselves are allowed.
  EXPECT_TRUE(config_problems(R"({"seeds": 100, "model": {"d_model": 1, "heads": 1, "layers": 1, "d_ff": 1},
      "task": {"alphabet": 2, "length": 1}, "train": {"lr": 1, "clip": 0, "seed": 9007199254740992}})").empty());
}

TEST(Config, ProblemsAreAllListed) {
  auto problems = config_problems(R"({"seeds": 0, "model": {"d_model": 0, "layers": 99}})");
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_NE(std::find(problems.begin(), problems.end(), "model.d_model: 0 is out of range; use an integer in 1..1024"),
            problems.end());
  EXPECT_NE(std::find(problems.begin(), problems.end(), "seeds: 0 is out of range; use an integer in 1..100"),
            problems.end());
}

TEST(Config, ValidateJudgesStructsBuiltInCode) {
  RunConfig run;
  EXPECT_TRUE(validate(run).empty());
  run.model.layers = 0;
  run.train.lr = -1;
  auto problems = validate(run);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0], "model.layers: 0 is out of range; use an integer in 1..12");
  EXPECT_EQ(problems[1], "train.lr: -1 is out of range; use a number in (0, 1]");
  ExperimentConfig e;
  e.seeds = 200;
  e.experiment = "bogus";
  problems = validate(e);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].rfind("experiment: unknown value \"bogus\"", 0), 0u);
}

// The estimate against real allocations is test_memory.cpp's; here, its shape: it grows with
// every size of a run, and kept W_o snapshots add at least their own floats.
TEST(Config, EstimateGrowsWithEverySize) {
  const RunConfig base = parse_run_config("{}");
  const uint64_t at_default = estimate_bytes(base);
  const std::pair<const char*, void (*)(RunConfig&)> larger[] = {
      {"d_model", [](RunConfig& c) { c.model.d_model *= 2; }},
      {"heads", [](RunConfig& c) { c.model.heads *= 2; }},
      {"layers", [](RunConfig& c) { c.model.layers += 1; }},
      {"d_ff", [](RunConfig& c) { c.model.d_ff *= 2; }},
      {"ln pre", [](RunConfig& c) { c.model.ln = LnPlace::pre; }},
      {"alphabet", [](RunConfig& c) { c.task.alphabet *= 2; }},
      {"length", [](RunConfig& c) { c.task.length *= 2; }},
      {"batch", [](RunConfig& c) { c.train.batch *= 2; }},
      {"steps", [](RunConfig& c) { c.train.steps *= 2; }},
      {"probe_every", [](RunConfig& c) { c.train.probe_every /= 5; }},
  };
  for (const auto& [what, grow] : larger) {
    RunConfig c = base;
    grow(c);
    derive(c);
    EXPECT_GT(estimate_bytes(c), at_default) << what;
  }
  RunConfig c = base;
  const uint64_t snapshots = 1 + 400 / 25;  // step 0 and 16 probe steps (400 is one)
  EXPECT_GE(estimate_bytes(c, true) - estimate_bytes(c), 4 * 2 * 64 * 64 * snapshots);
  c.train.steps = 410;  // the last step snapshots too when it is not a probe step
  EXPECT_GE(estimate_bytes(c, true) - estimate_bytes(c), 4 * 2 * 64 * 64 * (snapshots + 1));
}

TEST(Config, MemoryLimitIsEnforced) {
  const char* big = R"({"model": {"d_model": 1024, "d_ff": 4096, "layers": 12}, "train": {"batch": 1024},
                        "task": {"length": 64}})";
  std::string p = first_problem(big);
  EXPECT_EQ(p.rfind("model.d_model: this run needs about ", 0), 0u) << p;
  EXPECT_NE(p.find(" MiB, over the 512 MiB limit; use smaller d_model, d_ff, layers, batch or length"),
            std::string::npos);
  EXPECT_GT(estimate_bytes(parse_run_config("{}")), 0u);
  EXPECT_LT(estimate_bytes(parse_run_config("{}")), kMaxRunBytes);

  // W_o snapshots count only where they are kept: experiment wo_heatmap (and all).
  const char* many_probes = R"({"experiment": "%s", "model": {"d_model": 256},
                               "train": {"steps": 2000, "probe_every": 1}})";
  char text[256];
  std::snprintf(text, sizeof text, many_probes, "remove_wo");
  EXPECT_TRUE(config_problems(text).empty());
  // The history of a run's every step and probe step counts always.
  EXPECT_EQ(first_problem(R"({"train": {"steps": 1000000, "probe_every": 1}})")
                .rfind("train.steps: this run needs about ", 0),
            0u);
  for (const char* e : {"wo_heatmap", "all"}) {
    std::snprintf(text, sizeof text, many_probes, e);
    EXPECT_EQ(first_problem(text).rfind("train.probe_every: this run needs about ", 0), 0u) << e;
  }
}

TEST(Config, FlagsCheckTypeAndRange) {
  ExperimentConfig c;
  set_from_flag(c, "--d-model", "32");
  set_from_flag(c, "--lr", "3e-4");
  set_from_flag(c, "--task", "reverse");
  set_from_flag(c, "--length", "5");
  set_from_flag(c, "--seed", "7");
  EXPECT_EQ(c.base.model.d_model, 32);
  EXPECT_FLOAT_EQ(c.base.train.lr, 3e-4f);
  EXPECT_EQ(c.base.task.kind, TaskKind::reverse);
  EXPECT_EQ(c.base.model.seq_len, 11);  // derived again
  EXPECT_EQ(c.base.train.seed, 7u);
  set_from_flag(c, "--lrs", "0.001,0.003,1");
  set_from_flag(c, "--stability-clip", "1");
  EXPECT_EQ(c.lr_stability.lrs, (std::vector<float>{0.001f, 0.003f, 1.0f}));
  EXPECT_EQ(c.lr_stability.clip, 1.0f);
  set_from_flag(c, "--lrs", "0.02");
  EXPECT_EQ(c.lr_stability.lrs, std::vector<float>{0.02f});
  const std::pair<std::pair<const char*, const char*>, const char*> bad[] = {
      {{"--d-model", "abc"}, "--d-model: \"abc\" is not a number; use an integer in 1..1024"},
      {{"--d-model", ""}, "--d-model: \"\" is not a number; use an integer in 1..1024"},
      {{"--d-model", "12abc"}, "--d-model: \"12abc\" is not a number; use an integer in 1..1024"},
      {{"--lr", "nan"}, "--lr: \"nan\" is not a number; use a number in (0, 1]"},
      {{"--lr", "inf"}, "--lr: \"inf\" is not a number; use a number in (0, 1]"},
      {{"--steps", "2.5"}, "--steps: 2.5 is not an integer; use an integer in 1..1000000"},
      {{"--steps", "0"}, "--steps: 0 is out of range; use an integer in 1..1000000"},
      {{"--seed", "9007199254740993"}, "--seed: 9007199254740993 is out of range; use an integer in 0..9007199254740992"},
      {{"--ln", "mid"}, "--ln: unknown value \"mid\"; use post or pre"},
      {{"--lrs", "0.01,x"}, "--lrs: \"x\" is not a number; use 1 to 12 increasing numbers in (0, 1]"},
      {{"--lrs", "0.01,"}, "--lrs: \"\" is not a number; use 1 to 12 increasing numbers in (0, 1]"},
      {{"--lrs", "0.01 0.1"}, "--lrs: \"0.01 0.1\" is not a number; use 1 to 12 increasing numbers in (0, 1]"},
      {{"--lrs", "0.1,0.01"}, "--lrs: 0.01 does not increase on 0.1; use 1 to 12 increasing numbers in (0, 1]"},
      {{"--lrs", "0.5,2"}, "--lrs: 2 is out of range; use 1 to 12 increasing numbers in (0, 1]"},
      {{"--stability-clip", "-0.5"}, "--stability-clip: -0.5 is out of range; use a number >= 0"},
      {{"--wo", "identity"}, "--wo: unknown flag; see wolab run --help"},
      {{"--dmodel", "3"}, "--dmodel: unknown flag; see wolab run --help"},
  };
  for (const auto& [flag_value, expected] : bad) {
    try {
      set_from_flag(c, flag_value.first, flag_value.second);
      ADD_FAILURE() << "accepted " << flag_value.first << " " << flag_value.second;
    } catch (const ConfigError& e) {
      EXPECT_EQ(std::string(e.what()), expected);
    }
  }
  EXPECT_EQ(c.base.model.d_model, 32);  // a refused value changes nothing
  EXPECT_EQ(c.lr_stability.lrs, std::vector<float>{0.02f});
}

TEST(Config, SettingsTableCoversEveryField) {
  auto table = settings();
  json defaults = config_json(ExperimentConfig{});
  int flags = 0;
  for (const SettingInfo& s : table) {
    std::string pointer = "/" + s.path;
    std::replace(pointer.begin(), pointer.end(), '.', '/');
    ASSERT_TRUE(defaults.contains(json::json_pointer(pointer))) << s.path;
    EXPECT_FALSE(s.allowed.empty()) << s.path;
    EXPECT_FALSE(s.help.empty()) << s.path;
    flags += !s.flag.empty();
  }
  EXPECT_EQ(table.size(), 32u);  // every key of the config JSON
  EXPECT_EQ(flags, 31);          // all but model.wo, which experiments set per variant
  EXPECT_EQ(table[2].flag, "--d-model");
  EXPECT_EQ(table[2].default_value, "64");
  EXPECT_EQ(table[2].allowed, "an integer in 1..1024");
  EXPECT_EQ(table[22].flag, "--lrs");
  EXPECT_EQ(table[22].default_value, "0.001,0.003,0.01,0.02,0.03");  // as the flag takes it
  EXPECT_EQ(table[15].flag, "--schedule");
  EXPECT_EQ(table[15].default_value, "constant");
}

// The page builds its form and URL parameters from settings_json(): one row per config field,
// with what a form needs to show and check it.
TEST(Config, SettingsJsonDescribesEveryField) {
  const json table = settings_json();
  const json defaults = config_json(ExperimentConfig{});
  ASSERT_EQ(table.size(), settings().size());
  std::vector<std::string> keys;
  for (const json& s : table) {
    std::string pointer = "/" + s["path"].get<std::string>();
    std::replace(pointer.begin(), pointer.end(), '.', '/');
    EXPECT_EQ(s["default"], defaults[json::json_pointer(pointer)]) << s["path"];
    EXPECT_EQ(s.size(), 15u) << s.dump();
    keys.push_back(s["key"]);
  }
  std::vector<std::string> unique = keys;
  std::sort(unique.begin(), unique.end());
  EXPECT_EQ(std::unique(unique.begin(), unique.end()), unique.end()) << "keys name one setting each";
  EXPECT_EQ(table[2], json::parse(R"({"path": "model.d_model", "key": "d_model", "flag": "--d-model",
      "kind": "integer", "default": 64, "min": 1, "max": 1024, "lo_open": false, "max_items": null,
      "choices": null, "needs_data": null, "unused_by": null, "form": true, "allowed": "an integer in 1..1024",
      "help": {"en": "width of the residual stream", "zh": "残差流的宽度"}})"));
  EXPECT_EQ(table[8]["key"], "task");
  EXPECT_EQ(table[8]["choices"], json::parse(R"(["copy", "reverse", "sort", "g2p"])"));
  EXPECT_EQ(table[8]["needs_data"], json::parse(R"({"g2p": "lexicon"})"));  // a front end must load it
  for (int i : {9, 10}) EXPECT_EQ(table[i]["unused_by"], json::parse(R"({"task.name": ["g2p"]})")) << table[i]["path"];
  EXPECT_EQ(table[7]["form"], false);  // model.wo: the plan sets it per variant
  EXPECT_EQ(table[0]["form"], false);  // experiment
  EXPECT_EQ(table[14]["lo_open"], true);  // train.lr in (0, 1]
  EXPECT_TRUE(table[18]["max"].is_null());  // train.clip: no upper limit
  EXPECT_EQ(table[15]["choices"], json::parse(R"(["constant", "cosine"])"));  // train.schedule
  EXPECT_EQ(table[20]["form"], false);  // train.loss_every: the page charts every step
  const json& lrs = table[22];
  EXPECT_EQ(lrs["key"], "lrs");
  EXPECT_EQ(lrs["kind"], "reals");
  EXPECT_EQ(lrs["max_items"], 12);
  EXPECT_EQ(lrs["default"], json::parse("[0.001, 0.003, 0.01, 0.02, 0.03]"));
  EXPECT_EQ(table[23]["key"], "stability_clip");
  EXPECT_EQ(table[23]["flag"], "--stability-clip");
  EXPECT_EQ(table[23]["default"], 0);
}

// The settings' help is one table (lab/settings_help.cpp): a row per setting, in the settings
// table's order, none for a setting that is gone, every language written; --help prints its
// English and settings_json() carries every language.
TEST(Config, SettingsHelpHasOneRowPerSettingInEveryLanguage) {
  const std::vector<SettingInfo> table = settings();
  const std::vector<SettingHelp>& help = settings_help_rows();
  ASSERT_EQ(help.size(), table.size());
  const json page = settings_json();
  for (size_t i = 0; i < table.size(); ++i) {
    EXPECT_EQ(help[i].path, table[i].path);
    EXPECT_EQ(table[i].help, help[i].help.en);
    for (size_t l = 0; l < std::size(kLangCodes); ++l) {
      const std::string text = text_in(help[i].help, static_cast<Lang>(l));
      EXPECT_FALSE(text.empty()) << table[i].path << " " << kLangCodes[l];
      EXPECT_EQ(page[i]["help"][kLangCodes[l]], text) << table[i].path;
    }
    EXPECT_NE(std::string(help[i].help.en), help[i].help.zh) << table[i].path << ": not translated";
  }
  EXPECT_THROW(setting_help("model.width"), std::logic_error);
}

TEST(Config, DecimalFloatIsShortestAndExact) {
  EXPECT_EQ(decimal_float(0.001f), 0.001);
  EXPECT_EQ(decimal_float(0.1f), 0.1);
  EXPECT_EQ(decimal_float(1.0f), 1.0);
  for (float x : {1e-9f, 3.14159274f, 123456.79f, 2.4321618f, -7.5e-30f})
    EXPECT_EQ(static_cast<float>(decimal_float(x)), x);
  EXPECT_TRUE(std::signbit(decimal_float(-0.0f)));
  // Every exponent, the denormals and the largest float included: each reads back as itself, in
  // at most 9 digits, and in the fewest that do (printf's %.kg, k = 1..9) but for Grisu2's rare
  // misses: it keeps off the exact midpoints between two floats, which a reader rounding to
  // even would take (235000992 is 2.35001e8 in 6 digits, 235000990 in Grisu2's 8).
  auto significant_digits = [](double d) {  // d is a decimal of <= 9 digits, so %.9e shows it whole
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9e", std::fabs(d));
    std::string mantissa(buf, std::strchr(buf, 'e'));
    mantissa.erase(1, 1);  // the point
    return static_cast<int>(mantissa.find_last_not_of('0') + 1);
  };
  uint32_t bits = 12345;
  std::vector<float> xs = {std::numeric_limits<float>::max(), std::numeric_limits<float>::denorm_min(),
                           std::numeric_limits<float>::min(), 1e22f, 1e23f, 3e-23f};
  for (int i = 0; i < 20000; ++i) {
    bits = bits * 1664525u + 1013904223u;
    float x;
    std::memcpy(&x, &bits, sizeof x);
    if (std::isfinite(x)) xs.push_back(x);
  }
  size_t longer = 0;
  for (float x : xs) {
    const double d = decimal_float(x);
    ASSERT_EQ(static_cast<float>(d), x) << x;
    int fewest = 9;
    for (int k = 8; k >= 1; --k) {
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.*g", k, static_cast<double>(x));
      if (static_cast<float>(std::strtod(buf, nullptr)) == x) fewest = k;
    }
    ASSERT_LE(significant_digits(d), 9) << x;
    longer += significant_digits(d) > fewest;
  }
  EXPECT_LT(longer, xs.size() / 100);
}

}  // namespace
}  // namespace wolab
