// Sharded plans (lab/plan.h shard_plan, lab/shard.h): slices that cover the plan once and are
// balanced by cost, shard files merged into exactly the results of the whole plan trained at
// once, for every experiment, and the merge's refusals, each naming the file at fault.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "helpers.h"
#include "lab/plan.h"
#include "lab/results.h"
#include "lab/shard.h"

namespace wolab {
namespace {

using json = nlohmann::json;

ExperimentConfig all_config() {
  ExperimentConfig cfg = small_config();
  cfg.experiment = "all";
  cfg.base.train.steps = 10;
  cfg.lr_stability.lrs = {0.003f, 0.03f};
  return cfg;
}

TEST(Shard, SlicesCoverThePlanOnceBalancedByCost) {
  ExperimentConfig cfg = all_config();
  cfg.seeds = 3;
  cfg.base.model.layers = 2;  // W_o's share of the cost grows: identity runs cost less
  const std::vector<PlannedRun> plan = plan_runs(cfg, {"all"});
  double biggest = 0;
  for (const PlannedRun& r : plan) biggest = std::max(biggest, planned_cost(r));
  for (int n : {1, 2, 3, 5, static_cast<int>(plan.size())}) {
    const auto slices = shard_plan(plan, n);
    ASSERT_EQ(slices.size(), static_cast<size_t>(n));
    std::multiset<size_t> seen;
    double lo = HUGE_VAL, hi = 0;
    for (const auto& slice : slices) {
      EXPECT_FALSE(slice.empty()) << n;
      EXPECT_TRUE(std::is_sorted(slice.begin(), slice.end())) << n;
      double load = 0;
      for (size_t i : slice) {
        seen.insert(i);
        load += planned_cost(plan[i]);
      }
      lo = std::min(lo, load);
      hi = std::max(hi, load);
    }
    EXPECT_EQ(seen.size(), plan.size()) << n;
    for (size_t i = 0; i < plan.size(); ++i) EXPECT_EQ(seen.count(i), 1u) << n << " run " << i;
    // Greedy on the costliest first: no slice is heavier than another by more than one run.
    EXPECT_LE(hi - lo, biggest) << n;
    EXPECT_EQ(shard_plan(plan, n), slices) << "the same slices every time";
  }
  // The plan's runs differ in cost (identity has no W_o product, wo_heatmap keeps snapshots):
  // slices of equal counts would not be of equal cost, and the bound above is on cost.
  std::set<double> costs;
  for (const PlannedRun& r : plan) costs.insert(planned_cost(r));
  EXPECT_GT(costs.size(), 2u);
  EXPECT_THROW(shard_plan(plan, 0), ConfigError);
  try {
    shard_plan(plan, static_cast<int>(plan.size()) + 1);
    FAIL() << "more slices than runs";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("slices of a plan of " + std::to_string(plan.size()) + " runs"),
              std::string::npos)
        << e.what();
  }
}

// The shard files of slice 1..n of cfg's plan, as `wolab run --shard K/n` writes them.
std::vector<ShardText> shard_texts(const ExperimentConfig& cfg, int n) {
  const std::vector<PlannedRun> plan = plan_runs(cfg, {cfg.experiment});
  const auto slices = shard_plan(plan, n);
  std::vector<ShardText> out;
  for (int k = 1; k <= n; ++k) {
    auto records = train_runs(plan, slices[k - 1], nullptr, 1, small_lexicon());
    out.push_back({"part" + std::to_string(k) + ".json", json_text(shard_file(cfg, k, n, std::move(records)))});
  }
  return out;
}

TEST(Shard, MergedSlicesAreTheUnshardedResultsOfEveryExperiment) {
  const ExperimentConfig cfg = all_config();
  const std::vector<json> whole = run_experiment(cfg, nullptr, 1, small_lexicon());
  ASSERT_EQ(whole.size(), selected_experiments("all").size());
  for (int n : {1, 3}) {  // one slice is the whole plan
    std::vector<ShardText> files = shard_texts(cfg, n);
    std::reverse(files.begin(), files.end());  // any order
    const Merged merged = merge_shards(files);
    EXPECT_EQ(merged.config.experiment, "all");
    ASSERT_EQ(merged.results.size(), whole.size());
    for (size_t i = 0; i < whole.size(); ++i) {
      EXPECT_EQ(merged.results[i]["experiment"], experiments()[i].name);
      // The text the CLI writes, byte for byte (results hold no timing).
      EXPECT_EQ(merged.results[i].dump(), whole[i].dump()) << experiments()[i].name << ", " << n << " slices";
    }
  }
  // Each experiment alone, too: its own plan is cut (runs keep only what it keeps).
  for (const ExperimentInfo& e : experiments()) {
    if (!e.page) continue;  // words_purpose: real_words' training, seven variants over
    ExperimentConfig one = cfg;
    one.experiment = e.name;
    const Merged merged = merge_shards(shard_texts(one, 2));
    ASSERT_EQ(merged.results.size(), 1u) << e.name;
    EXPECT_EQ(merged.results[0].dump(), run_experiment(one, nullptr, 1, small_lexicon())[0].dump()) << e.name;
  }
}

std::string refusal(const std::vector<ShardText>& files) {
  try {
    merge_shards(files);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(merged)";
}

void expect_refused(const std::vector<ShardText>& files, const std::string& expected) {
  const std::string got = refusal(files);
  EXPECT_EQ(got.rfind("merge: ", 0), 0u) << got;
  EXPECT_EQ(got.find('\n'), std::string::npos) << got;
  EXPECT_NE(got.find(expected), std::string::npos) << "got: " << got << "\nexpected: " << expected;
}

TEST(Shard, MergeRefusesWhatIsNotOneWholePlanNamingTheFile) {
  ExperimentConfig cfg = small_config();
  cfg.experiment = "remove_wo";
  cfg.base.train.steps = 5;
  const std::vector<ShardText> three = shard_texts(cfg, 3);
  const ShardText &a = three[0], &b = three[1], &c = three[2];
  auto edited = [](ShardText f, const std::string& name, const std::function<void(json&)>& edit) {
    json j = json::parse(f.text);
    edit(j);
    return ShardText{name, j.dump()};
  };

  expect_refused({}, "merge: no shard file");
  expect_refused({a, c}, "merge: slice 2/3 missing: give the shard file of every slice of the plan (2 of 3 given)");
  expect_refused({a}, "slices 2/3, 3/3 missing");
  expect_refused({a, b, ShardText{"again.json", b.text}, c}, "again.json: slice 2/3 again, already in part2.json");

  ExperimentConfig other = cfg;
  other.base.train.steps = 6;
  expect_refused({a, b, shard_texts(other, 3)[2]}, "part3.json: a slice of another plan than part1.json's "
                                                   "(config differs at /train/steps: 6 vs 5)");
  expect_refused({a, b, ShardText{"of2.json", shard_texts(cfg, 2)[1].text}},
                 "of2.json: slice 2/2, but part1.json is a slice of 3: the plan was cut differently");
  expect_refused({a, b, edited(c, "old.json", [](json& j) { j["created_by"] = "wolab 0.0.9"; })},
                 "old.json: written by wolab 0.0.9, this is wolab " + std::string(kVersion) +
                     "; merge with the wolab that trained the slices");
  expect_refused({a, b, edited(c, "v2.json", [](json& j) { j["version"] = 2; })},
                 "v2.json: shard file version 2; this wolab reads version 1");

  // Corrupt: cut short, not JSON, a record changed, another slice's runs, a results file.
  expect_refused({a, b, ShardText{"cut.json", c.text.substr(0, c.text.size() / 2)}},
                 "cut.json: corrupt: not valid JSON");
  expect_refused({a, b, ShardText{"empty.json", ""}}, "empty.json: corrupt: not valid JSON");
  expect_refused({a, b, edited(c, "nan.json", [](json& j) { j["records"][0]["curve"]["loss"][0] = "x"; })},
                 "nan.json: corrupt: results: records[0].curve.loss[0]: expected a number");
  expect_refused({a, b, edited(c, "seed.json", [](json& j) { j["records"][0]["seed"] = 7; })},
                 "seed.json: corrupt: records[0] is not plan run");
  expect_refused({a, b, edited(c, "runs.json", [](json& j) { j["slice"]["runs"] = json::array({0}); })},
                 "runs.json: corrupt: slice.runs are not the runs of slice 3/3 of its plan");
  expect_refused({a, b, edited(c, "digest.json", [](json& j) { j["plan"]["digest"] = "0000000000000000"; })},
                 "digest.json: its plan's digest or size is not that of its config");
  expect_refused({a, b, edited(c, "index.json", [](json& j) { j["slice"]["index"] = 4; })},
                 "index.json: corrupt: slice.index: expected an integer in 1..3");
  expect_refused({a, b, edited(c, "norecords.json", [](json& j) { j.erase("records"); })},
                 "norecords.json: corrupt: no \"records\"");
  const std::string results = make_results(cfg, "remove_wo", {}).dump();
  expect_refused({ShardText{"results.json", results}}, "results.json: a results file, not a shard file");
  expect_refused({ShardText{"other.json", "{\"hello\": 1}"}}, "other.json: not a shard file of wolab run --shard");

  EXPECT_EQ(refusal({c, a, b}), "(merged)");
}

TEST(Shard, AShardFileHoldsOnlyItsSlicesRuns) {
  ExperimentConfig cfg = small_config();
  cfg.experiment = "remove_wo";
  cfg.base.train.steps = 5;
  const std::vector<PlannedRun> plan = plan_runs(cfg, {cfg.experiment});
  const auto slices = shard_plan(plan, 2);
  auto records = train_runs(plan, slices[0], nullptr, 1);
  EXPECT_THROW(shard_file(cfg, 2, 2, records), ConfigError) << "slice 1's records as slice 2";
  EXPECT_THROW(shard_file(cfg, 3, 2, records), ConfigError);
  const json file = shard_file(cfg, 1, 2, records);
  EXPECT_EQ(file["slice"]["runs"], slices[0]);
  EXPECT_EQ(file["plan"]["runs"], plan.size());
  EXPECT_EQ(file["records"].size(), slices[0].size());
}

}  // namespace
}  // namespace wolab
