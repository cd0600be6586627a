// W_o snapshots kept apart from their results file (lab/wo_files.h): the split file reads back
// as the record's matrices to float16's precision, keeps every figure the analysis reads, and a
// corrupt or truncated wo file is refused with one clear line.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "analysis/analysis.h"
#include "helpers.h"
#include "io/messages.h"
#include "lab/results.h"
#include "lab/wo_files.h"

namespace wolab {
namespace {

using json = nlohmann::json;

// wo_heatmap's results of small_config(): 2 seeds of a learned W_o (8,8), 5 snapshots each.
json heatmap_results() {
  const ExperimentConfig cfg = small_config();
  std::vector<json> runs;
  for (uint64_t seed = 0; seed < 2; ++seed) {
    RunConfig c = cfg.base;
    c.train.seed = seed;
    Trainer t(c);
    t.keep_wo_snapshots(true);
    while (!t.finished()) t.step(7);
    runs.push_back(run_record(t));
  }
  return make_results(cfg, "wo_heatmap", runs);
}

std::string message_of(const std::vector<uint8_t>& bytes) {
  try {
    read_wo_file(bytes.data(), bytes.size());
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(WoFiles, SplitKeepsFiguresAndReadsBackToHalfPrecision) {
  const json full = heatmap_results();
  const WoSplit split = split_wo_snapshots(full, "results.wo_heatmap");
  ASSERT_EQ(split.files.size(), 2u);
  EXPECT_EQ(split.files[0].name, "results.wo_heatmap.learned.seed0.safetensors");
  EXPECT_EQ(split.files[1].name, "results.wo_heatmap.learned.seed1.safetensors");
  for (size_t i = 0; i < 2; ++i) {
    const json& run = split.results["runs"][i];
    EXPECT_EQ(run["wo_file"], split.files[i].name);
    const json& whole = full["runs"][i]["wo"];
    ASSERT_EQ(run["wo"].size(), whole.size());
    const WoSnapshots s = read_wo_file(split.files[i].bytes.data(), split.files[i].bytes.size());
    EXPECT_EQ(s.variant, "learned");
    EXPECT_EQ(s.seed, i);
    ASSERT_EQ(s.matrices.size(), whole.size());
    for (size_t k = 0; k < whole.size(); ++k) {
      EXPECT_FALSE(run["wo"][k].contains("data"));
      for (const char* figure : {"head_norms", "head_change_norms", "dominant_rows", "diagonal_energy", "change_from_init"})
        EXPECT_EQ(run["wo"][k][figure], whole[k][figure]) << figure;
      const WoMatrix& m = s.matrices[k];  // both by step, then layer
      EXPECT_EQ(m.step, whole[k]["step"]);
      EXPECT_EQ(m.layer, whole[k]["layer"]);
      ASSERT_EQ(m.rows * m.cols, 64);
      for (int j = 0; j < 64; ++j) {
        const float x = whole[k]["data"][j].get<float>();
        // float16 keeps 11 significant bits: within half an ulp, 2^-11 of the value (normals).
        EXPECT_LE(std::fabs(m.data[j] - x), std::ldexp(std::fabs(x), -11) + 1e-7f) << x;
      }
    }
  }
  // The analysis reads the same figures from either file.
  EXPECT_EQ(analyze({parse_results(json_text(split.results))}), analyze({parse_results(json_text(full))}));
}

TEST(WoFiles, HalfRoundingIsNearestEven) {
  // Values whose nearest float16 is known: exact ones, a tie to even, subnormals, the largest.
  const std::pair<float, float> cases[] = {
      {1.0f, 1.0f}, {-0.5f, -0.5f}, {1.0f + std::ldexp(1.0f, -11), 1.0f},  // tie: to even (1.0)
      {1.0f + 3 * std::ldexp(1.0f, -11), 1.0f + std::ldexp(1.0f, -9)},    // tie: to even (up)
      {std::ldexp(1.0f, -24), std::ldexp(1.0f, -24)}, {std::ldexp(1.0f, -26), 0.0f},
      {65504.0f, 65504.0f}, {0.0f, 0.0f}};
  json results = heatmap_results();
  json& data = results["runs"][0]["wo"][0]["data"];
  for (size_t i = 0; i < std::size(cases); ++i) data[i] = cases[i].first;
  const WoSplit split = split_wo_snapshots(results, "r");
  const WoSnapshots s = read_wo_file(split.files[0].bytes.data(), split.files[0].bytes.size());
  for (size_t i = 0; i < std::size(cases); ++i) EXPECT_EQ(s.matrices[0].data[i], cases[i].second) << cases[i].first;

  data[0] = 70000.0f;  // beyond float16
  try {
    split_wo_snapshots(results, "r");
    ADD_FAILURE() << "a value beyond float16 was written";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "wo file: \"r.learned.seed0.safetensors\": a value of step 0, layer 0 does not fit a float16");
  }
}

TEST(WoFiles, CorruptOrTruncatedFilesAreRefusedClearly) {
  const WoSplit split = split_wo_snapshots(heatmap_results(), "r");
  const std::vector<uint8_t>& good = split.files[0].bytes;
  EXPECT_EQ(message_of(good), "");
  EXPECT_EQ(message_of({}), "wo file: file is 0 bytes, too short for a safetensors header");
  std::vector<uint8_t> cut(good.begin(), good.end() - 10);
  EXPECT_EQ(message_of(cut).rfind("wo file: tensor ", 0), 0u) << message_of(cut);
  EXPECT_NE(message_of(cut).find("beyond the data section"), std::string::npos) << message_of(cut);
  std::vector<uint8_t> header_cut(good.begin(), good.begin() + 40);
  EXPECT_EQ(message_of(header_cut).rfind("wo file: header length ", 0), 0u) << message_of(header_cut);

  // A checkpoint (F32 tensors, another format) is not a wo file.
  SafeTensors other;
  other.metadata = {{"format", "wolab-checkpoint"}, {"version", "1"}};
  other.f32["w"] = {{2}, {1.0f, 2.0f}};
  EXPECT_EQ(message_of(write_safetensors(other)), "wo file: format is \"wolab-checkpoint\", expected \"wolab-wo-snapshots\"");
  SafeTensors renamed;
  renamed.metadata = {{"format", "wolab-wo-snapshots"}, {"version", "1"}, {"variant", "learned"}, {"seed", "0"}};
  renamed.f16["layers.0.weight"] = {{1, 1}, {0x3c00}};
  EXPECT_EQ(message_of(write_safetensors(renamed)),
            "wo file: tensor \"layers.0.weight\" is not named step.<step>.layers.<layer>.attn.W_o.weight");
  renamed.f16.clear();
  renamed.f16["step.0.layers.0.attn.W_o.weight"] = {{1, 1}, {0x7c00}};  // infinity
  EXPECT_EQ(message_of(write_safetensors(renamed)),
            "wo file: tensor \"step.0.layers.0.attn.W_o.weight\" holds a value that is not finite");
  renamed.metadata["version"] = "2";
  EXPECT_EQ(message_of(write_safetensors(renamed)), "wo file: version \"2\" is not supported; expected 1");
}

TEST(WoFiles, ResultsNamingAWoFileAreCheckedOnImport) {
  const WoSplit split = split_wo_snapshots(heatmap_results(), "r");
  EXPECT_EQ(parse_results(json_text(split.results)), split.results);
  auto refusal = [](const json& file) {
    try {
      parse_results(file.dump());
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  json bad = split.results;
  bad["runs"][0]["wo_file"] = "../secret.safetensors";
  EXPECT_NE(refusal(bad).find("runs[0].wo_file: expected the name of a .safetensors file"), std::string::npos) << refusal(bad);
  bad = split.results;
  bad["runs"][0]["wo"][1].erase("dominant_rows");
  EXPECT_NE(refusal(bad).find("runs[0].wo[1].dominant_rows: missing"), std::string::npos) << refusal(bad);
  bad = split.results;
  bad["runs"][0]["wo"][1]["data"] = json::array();
  EXPECT_NE(refusal(bad).find("runs[0].wo[1].data: present, but the run's matrices are in its wo_file"), std::string::npos)
      << refusal(bad);
  EXPECT_TRUE(is_wo_file_name("results.wo_heatmap.learned.seed1.safetensors"));
  for (const char* name : {"", ".safetensors", "a/b.safetensors", "a.json", ".hidden.safetensors", "a b.safetensors"})
    EXPECT_FALSE(is_wo_file_name(name)) << name;
}

}  // namespace
}  // namespace wolab
