// The notebook of an experiment (lab/notebook.h): an nbformat 4 document whose settings cell is
// the plan the core makes, whose code is wolab_torch.py's sections, in English or Chinese, and
// which refuses what `wolab run` refuses. tests/shell/notebooks.sh executes the notebooks.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "analysis/analysis.h"
#include "helpers.h"
#include "lab/config.h"
#include "lab/notebook.h"
#include "lab/plan.h"
#include "lab/results.h"

namespace wolab {
namespace {

using json = nlohmann::json;

std::string source_of(const json& cell) {
  std::string text;
  for (const json& line : cell["source"]) text += line.get<std::string>();
  return text;
}

// Every cell's source, of cells of `type`, one after another.
std::string text_of(const json& nb, const std::string& type) {
  std::string text;
  for (const json& cell : nb["cells"])
    if (cell["cell_type"] == type) text += source_of(cell) + "\n";
  return text;
}

std::string message_of(const ExperimentConfig& cfg, const std::string& lang) {
  try {
    make_notebook(cfg, lang, "lexicon.txt");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(Notebook, EveryExperimentIsANotebookOfItsPlan) {
  for (const ExperimentInfo& e : experiments()) {
    ExperimentConfig cfg = small_config();
    cfg.experiment = e.name;
    const json nb = json::parse(make_notebook(cfg, "en", "data/cmudict-g2p.txt"));
    EXPECT_EQ(nb["nbformat"], 4);
    EXPECT_EQ(nb["metadata"]["kernelspec"]["name"], "python3");
    const std::string code = text_of(nb, "code");
    // The plan's runs, one JSON line each, as plan_json gives them.
    for (const json& r : plan_json(plan_runs(cfg, {e.name}))) {
      const json line = {{"variant", r["variant"]}, {"seed", r["seed"]}, {"lr", r["lr"]}, {"clip", r["clip"]}, {"keep", r["keep"]}};
      EXPECT_NE(code.find(line.dump() + "\n"), std::string::npos) << e.name << ": " << line.dump();
    }
    ExperimentConfig named = cfg;
    EXPECT_NE(code.find(config_json(named).dump()), std::string::npos) << e.name;
    EXPECT_NE(code.find("RESULTS_FILE = \"" + notebook_results_name(e.name) + "\""), std::string::npos);
    // The model and the training loop, inlined from wolab_torch.py; the words only for g2p.
    EXPECT_NE(code.find("class Attention(nn.Module):"), std::string::npos);
    EXPECT_NE(code.find("def train_run("), std::string::npos);
    EXPECT_EQ(code.find("# %% ["), std::string::npos) << "section markers stay out of the cells";
    const bool g2p = !e.needs_data.empty();
    EXPECT_EQ(code.find("LEXICON = \"data/cmudict-g2p.txt\"") != std::string::npos, g2p) << e.name;
    EXPECT_EQ(code.find("def read_lexicon(") != std::string::npos, g2p) << e.name;
    EXPECT_EQ(code.find("imshow") != std::string::npos, e.wo_snapshots) << e.name;
    EXPECT_EQ(code.find("std of {site}") != std::string::npos, e.stats) << e.name;
    EXPECT_EQ(text_of(nb, "markdown").find("{{"), std::string::npos);
  }
}

TEST(Notebook, ChineseChangesTheTextNotTheCode) {
  ExperimentConfig cfg = small_config();
  cfg.experiment = "freeze_wo";
  const json en = json::parse(make_notebook(cfg, "en", "x")), zh = json::parse(make_notebook(cfg, "zh", "x"));
  EXPECT_EQ(text_of(en, "code"), text_of(zh, "code"));
  EXPECT_NE(text_of(zh, "markdown").find("检验什么"), std::string::npos);
  EXPECT_EQ(text_of(en, "markdown").find("检验什么"), std::string::npos);
  EXPECT_NE(text_of(en, "markdown").find("What is tested"), std::string::npos);
  EXPECT_EQ(en["cells"].size(), zh["cells"].size());
}

TEST(Notebook, RefusesWhatRunRefusesInOneLine) {
  ExperimentConfig cfg = small_config();
  cfg.experiment = "remove_wo";
  cfg.base.model.heads = 3;  // 8 is not divisible by 3
  EXPECT_EQ(message_of(cfg, "en"), validate(cfg).front());
  cfg = small_config();
  cfg.experiment = "all";
  EXPECT_EQ(message_of(cfg, "en").rfind("experiment: a notebook holds one experiment", 0), 0u);
  cfg.experiment = "remove_wo";
  EXPECT_EQ(message_of(cfg, "fr"), "lang: \"fr\" is not a language of the notebooks; use en or zh");
  EXPECT_EQ(message_of(cfg, "en"), "");
}

// The file a notebook writes names its producer: kept on import and in the analysis, which the
// report words; the lab's own files have none, and an unknown producer is refused.
TEST(Notebook, ResultsKeepTheirProducer) {
  ExperimentConfig cfg = small_config();
  cfg.experiment = "remove_wo";
  json file = run_experiment(cfg).front();
  EXPECT_FALSE(file.contains("producer"));
  EXPECT_FALSE(parse_results(file.dump()).contains("producer"));
  EXPECT_EQ(analyze({parse_results(file.dump())})["experiments"][0]["producer"], "wolab");
  file["producer"] = "pytorch-notebook";
  file["summary"] = json::array();  // a notebook writes none: the lab recomputes it
  const json parsed = parse_results(file.dump());
  EXPECT_EQ(parsed["producer"], "pytorch-notebook");
  EXPECT_EQ(parsed["summary"].size(), 2u);
  const json analysis = analyze({parsed});
  EXPECT_EQ(analysis["experiments"][0]["producer"], "pytorch-notebook");
  EXPECT_NE(format_analysis(analysis).find("Trained in PyTorch"), std::string::npos);
  EXPECT_EQ(format_analysis(analyze({parse_results(run_experiment(cfg).front().dump())})).find("PyTorch"), std::string::npos);
  file["producer"] = "tensorflow";
  try {
    parse_results(file.dump());
    FAIL() << "an unknown producer was accepted";
  } catch (const ResultsError& e) {
    EXPECT_STREQ(e.what(), "results: producer: expected \"wolab\" or \"pytorch-notebook\"");
  }
}

}  // namespace
}  // namespace wolab
