// `wolab run`: trains a plan (or one slice of it) and writes its results, checkpoints and summary.
#include "cli/commands.h"

#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/analysis.h"
#include "cli/args.h"
#include "cli/outputs.h"
#include "cli/progress.h"
#include "cli/run_args.h"
#include "cli/summary.h"
#include "lab/checkpoints.h"
#include "lab/config.h"
#include "lab/plan.h"
#include "lab/results.h"
#include "lab/shard.h"
#include "run/trainer.h"

namespace wolab::cli {

namespace {

using json = nlohmann::json;

// Flags of `wolab run` that are not config settings.
struct RunFlag {
  const char* flag;
  const char* metavar;
  const char* help;
};
const RunFlag kRunFlags[] = {
    {"--preset", "NAME", "start from a preset (the page's quick or article; converged, converged_small or converged_narrow: real words to the end) instead of --config; flags override it"},
    {"--config", "FILE", "config JSON with keys experiment, seeds, model, task, train, lr_stability; flags override it"},
    {"--out", "FILE", "results JSON to write; see below for --experiment all. Without it, wolab run\n"
                      "                          prints the summary and the report and writes no results file"},
    {"--save-checkpoint", "FILE", "safetensors of the last run of the plan (the last variant with the last seed)"},
    {"--save-checkpoints", "DIR", "every run's model, DIR/<variant>.seed<N>.safetensors: a checkpoint without Adam's\n"
                                  "                          moments (a plan with two runs of one variant and seed is refused)"},
    {"--data", "FILE", "the CMUdict lexicon a g2p run reads (default: the one the build made,\n"
                       "                          " WOLAB_LEXICON_TXT "); docs/g2p.md"},
    {"--jobs", "N", "runs trained at the same time, one thread each (default: the number of cores); the\n"
                    "                          results are the same for every N"},
    {"--shard", "K/N", "train only slice K of N of the plan (balanced by estimated cost) and write the\n"
                       "                          shard file results-shard-K-of-N.json for `wolab merge`"},
};

void print_run_help() {
  std::cout << kUsage << "\nwolab run: trains every variant of an experiment with each seed and writes the\n"
               "results JSON the page imports; prints a summary table per variant.\n\n";
  for (const RunFlag& f : kRunFlags)
    std::printf("  %-24s%s\n", (std::string(f.flag) + " " + f.metavar).c_str(), f.help);
  for (const SettingInfo& s : settings()) {
    if (s.flag.empty()) continue;  // model.wo: each experiment sets it per variant
    std::printf("  %-24s%s\n  %-24sdefault %s; %s\n", (s.flag + " " + s.metavar).c_str(), s.help.c_str(), "",
                s.default_value.c_str(), s.allowed.c_str());
  }
  std::cout << "\nWith --experiment all, --out results.json writes one file per experiment,\n"
               "results.<experiment>.json; a run that several experiments compare (same variant,\n"
               "seed, learning rate and clip) is trained once and shared.\n"
               "\nWith --shard K/N, --out results.json writes results-shard-K-of-N.json instead: slice K\n"
               "of the N that `wolab plan --shards N` prints the commands of; `wolab merge` joins them\n"
               "into the files above (docs/sweeps.md).\n"
               "\nExit status 0 when done (runs that diverged are reported as such), 2 for invalid\n"
               "input (one line on stderr), 1 for other errors. No partial output is left.\n";
}

// Slice K of N: trains its runs and writes its shard file (no summary: a slice's means would
// be of some seeds only).
int run_shard(const RunArgs& a) {
  const std::vector<PlannedRun> plan = plan_runs(a.cfg, {a.cfg.experiment});
  const std::vector<size_t> runs = slices_of(plan, a.shard->count, "--shard")[static_cast<size_t>(a.shard->index - 1)];
  const std::string path = shard_path(a.out, *a.shard);
  check_writable("--out", path);
  // --save-checkpoints: the models of this slice's runs, named as a whole run names them.
  const std::vector<std::string> plan_models = checkpoint_paths(a.cfg, a.checkpoints);
  std::vector<std::string> paths = {path};
  for (size_t i : runs)
    if (!plan_models.empty()) paths.push_back(plan_models[i]);
  for (size_t i = 1; i < paths.size(); ++i) check_writable("--save-checkpoints", paths[i]);
  const std::shared_ptr<const G2pData> g2p = load_g2p(a.data);
  Progress progress;
  std::vector<std::vector<uint8_t>> models(paths.size() - 1);
  std::vector<json> records = train_runs(
      plan, runs,
      [&](int run, int count, const Trainer& t) {
        progress(run, count, t);
        if (!models.empty() && t.finished()) models[static_cast<size_t>(run)] = save_checkpoint(t, /*optimizer=*/false);
      },
      a.jobs, g2p);
  progress.finish();
  const json file = shard_file(a.cfg, a.shard->index, a.shard->count, std::move(records));
  write_all(paths, [&](size_t i) {
    if (i == 0) return json_text(file) + "\n";
    return std::string(models[i - 1].begin(), models[i - 1].end());
  });
  std::printf("wrote %s: slice %d/%d, %zu of the plan's %zu runs\n", path.c_str(), a.shard->index, a.shard->count,
              runs.size(), plan.size());
  return 0;
}

}  // namespace

int run_command(const std::vector<std::string>& args) {
  if (asks_help(args)) {
    print_run_help();
    return 0;
  }
  const RunArgs a = parse_run_args(flag_pairs(args));
  if (a.shard) {
    require_out(a, "a slice writes its shard file by that name, e.g. --out results.json writes results-shard-K-of-N.json");
    return run_shard(a);
  }
  const ExperimentConfig& cfg = a.cfg;
  // No --out: a quick look, the summary and the report only.
  const std::vector<std::string> outputs = a.out.empty() ? std::vector<std::string>{} : results_paths(cfg, a.out);
  for (const std::string& path : outputs) check_writable("--out", path);
  if (!a.checkpoint.empty()) check_writable("--save-checkpoint", a.checkpoint);
  const std::vector<std::string> model_paths = checkpoint_paths(cfg, a.checkpoints);
  for (const std::string& path : model_paths) check_writable("--save-checkpoints", path);
  const std::shared_ptr<const G2pData> g2p = load_g2p(a.data);
  std::cerr << "wolab run: settings from " << one_line(a.settings_from) << "\n";

  Progress progress;
  std::vector<uint8_t> last_checkpoint;
  std::vector<std::vector<uint8_t>> models(model_paths.size());
  std::vector<json> results = run_experiment(
      cfg,
      [&](int run, int runs, const Trainer& t) {
        progress(run, runs, t);
        if (!a.checkpoint.empty() && run == runs - 1 && t.finished()) last_checkpoint = save_checkpoint(t);
        if (!models.empty() && t.finished()) models[run] = save_checkpoint(t, /*optimizer=*/false);
      },
      a.jobs, g2p);
  progress.finish();

  for (const json& r : results) print_summary(r);
  std::printf("\n%s\n", format_analysis(analyze(results)).c_str());
  std::vector<std::string> paths = outputs;
  if (!a.checkpoint.empty()) paths.push_back(a.checkpoint);
  paths.insert(paths.end(), model_paths.begin(), model_paths.end());
  const size_t first_model = paths.size() - model_paths.size();
  write_all(paths, [&](size_t i) {
    const std::vector<uint8_t>& bytes = i >= first_model ? models[i - first_model] : last_checkpoint;
    return i < outputs.size() ? results[i].dump() + "\n" : std::string(bytes.begin(), bytes.end());
  });
  for (const std::string& path : paths) std::printf("wrote %s\n", path.c_str());
  return 0;
}

}  // namespace wolab::cli
