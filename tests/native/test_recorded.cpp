// The committed long runs (recorded/converged/, scripts/record-converged.sh) against drift: the
// first steps of one recorded run, trained again from its recorded config, give its curve's
// values bit for bit, and the committed analysis is what the core makes of the committed
// results today. When the core's numbers change on purpose, the files must be recorded again.
// (tests/shell/recorded.sh checks every file against the manifest's sha256.)
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/analysis.h"
#include "io/checkpoint.h"
#include "io/cmudict.h"
#include "lab/config.h"
#include "lab/plan.h"
#include "lab/results.h"
#include "run/g2p.h"
#include "run/trainer.h"

namespace wolab {
namespace {

using json = nlohmann::json;

const std::string kRecorded = std::string(WOLAB_FIXTURE_DIR) + "/../../recorded/converged/";
const char kRerecord[] =
    "the core's numbers changed since the runs were recorded: if that is intended, record them again with "
    "scripts/record-converged.sh (docs/sweeps.md, \"Real words to the end\"; about an hour on two cores) and "
    "commit recorded/converged/";

json read_recorded_json(const std::string& path) {
  const std::vector<uint8_t> bytes = read_file_bytes(path);
  return json::parse(bytes.begin(), bytes.end());
}

std::vector<std::string> presets_recorded() {
  std::vector<std::string> out;
  const std::string tail = "/results.real_words.json";
  const json manifest = read_recorded_json(kRecorded + "manifest.json");
  for (const auto& [name, sum] : manifest["files"].items())
    if (name.size() > tail.size() && name.compare(name.size() - tail.size(), tail.size(), tail) == 0)
      out.push_back(name.substr(0, name.size() - tail.size()));
  return out;
}

TEST(Recorded, EveryPresetOfTheSweepIsRecorded) {
  EXPECT_EQ(presets_recorded(), (std::vector<std::string>{"converged", "converged_narrow", "converged_small"}));
}

// The first 40 steps of each preset's first run (learned, first seed), trained again.
TEST(Recorded, TheFirstStepsOfARecordedRunReproduceBitForBit) {
#if !defined(WOLAB_LEXICON_TXT)
  GTEST_SKIP() << "no lexicon in this build: the wasm suite has only the raw dictionary";
#else
  const auto g2p = std::make_shared<const G2pData>(
      split_lexicon(std::make_shared<const Lexicon>(read_cmudict_file(WOLAB_LEXICON_TXT))));
  for (const std::string& preset : presets_recorded()) {
    const json results = parse_results(read_recorded_json(kRecorded + preset + "/results.real_words.json").dump());
    const ExperimentConfig cfg = parse_experiment_config(results["config"].dump());
    // The recorded config is the preset's, so `--preset` trains these runs today.
    EXPECT_EQ(results["config"], presets(/*with_native=*/true)[preset]) << preset << ": " << kRerecord;
    const json& record = results["runs"][0];
    const std::vector<PlannedRun> plan = plan_runs(cfg, {"real_words"});
    ASSERT_FALSE(plan.empty());
    const RunConfig& run = plan.front().config;
    ASSERT_EQ(record["variant"], to_string(run.model.wo));
    ASSERT_EQ(record["seed"], run.train.seed);
    Trainer t(run, g2p);
    // The curve's points of those steps, a point per train.loss_every steps as the record keeps them.
    const json trained = loss_curve(t.step(40), run.train.loss_every);
    const json& curve = record["curve"];
    ASSERT_GE(curve["loss"].size(), trained["loss"].size());
    for (size_t i = 0; i < trained["loss"].size(); ++i) {
      ASSERT_EQ(trained["step"][i], curve["step"][i]) << preset << ": " << kRerecord;
      ASSERT_EQ(trained["loss"][i], curve["loss"][i]) << preset << " step " << trained["step"][i] << ": " << kRerecord;
    }
  }
#endif
}

// `wolab report --json` of the committed results is the committed analysis.
TEST(Recorded, TheCommittedAnalysisIsTheCoresAnalysisOfTheCommittedResults) {
  for (const std::string& preset : presets_recorded()) {
    const std::vector<uint8_t> bytes = read_file_bytes(kRecorded + preset + "/results.real_words.json");
    const json analysis = analyze({parse_results(std::string(bytes.begin(), bytes.end()))});
    EXPECT_EQ(analysis, read_recorded_json(kRecorded + preset + "/analysis.json")) << preset << ": " << kRerecord;
  }
}

}  // namespace
}  // namespace wolab
