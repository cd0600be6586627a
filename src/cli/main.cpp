// wolab: trains the W_o experiments from the command line and writes results JSON (docs/results.md,
// the page imports it), reports the held-out metrics of a checkpoint, or pronounces words with
// a g2p checkpoint. A plan too big for one
// machine is cut into slices that train anywhere (run --shard, plan --shards) and are merged
// back into the same results files (merge; docs/sweeps.md).
//
// Exit status: 0 done (also when some runs diverged: they are reported, not failures);
// 2 invalid input (flag, config, checkpoint), with one line on stderr naming the field and what
// is allowed; 1 anything else. Outputs are written only at the end, each to a temporary file
// renamed into place, so no exit leaves a partial file.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/analysis.h"
#include "cli/args.h"
#include "io/checkpoint.h"
#include "io/cmudict.h"
#include "lab/config.h"
#include "lab/experiment.h"
#include "lab/plan.h"
#include "lab/results.h"
#include "lab/wo_files.h"
#include "lab/shard.h"
#include "run/g2p.h"
#include "run/pronounce.h"
#include "run/trainer.h"

namespace {

using json = nlohmann::json;
using namespace wolab;

// ---- help ----

const char* const kUsage =
    "Usage: wolab run [flags] --out results.json     train an experiment, write its results\n"
    "       wolab eval --checkpoint run.safetensors  held-out metrics of a saved run\n"
    "       wolab pronounce --model run.safetensors WORD...  a g2p run's pronunciation of words\n"
    "       wolab report [--json] results.json...    paired comparisons and the article's claims\n"
    "       wolab split-wo IN.json --out OUT.json     W_o snapshots into binary files beside OUT\n"
    "       wolab plan [run flags] [--shards N]      the runs of the plan, or N commands training its slices\n"
    "       wolab merge SHARD_FILE... --out results.json  the results files of the whole plan\n"
    "       wolab half-model MODEL --out FILE         a model file (--save-checkpoints) in float16\n"
    "       wolab --help | run --help | eval --help | pronounce --help | report --help |\n"
    "             split-wo --help | plan --help | merge --help | --version\n";

// Flags of `wolab run` that are not config settings.
struct RunFlag {
  const char* flag;
  const char* metavar;
  const char* help;
};
const RunFlag kRunFlags[] = {
    {"--preset", "NAME", "start from a preset (the page's quick or article; converged or converged_narrow: real words to the end) instead of --config; flags override it"},
    {"--config", "FILE", "config JSON with keys experiment, seeds, model, task, train, lr_stability; flags override it"},
    {"--out", "FILE", "results JSON to write (required); see below for --experiment all"},
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

void print_eval_help() {
  std::cout << kUsage << "\nwolab eval --checkpoint FILE: loads a checkpoint written by `wolab run "
               "--save-checkpoint`\n(or the page) and prints its config and held-out metrics.\n";
}

void print_pronounce_help() {
  std::cout << kUsage << "\nwolab pronounce --model FILE [--data FILE] WORD...: loads a checkpoint of a g2p run\n"
               "(`wolab run --task g2p --save-checkpoint FILE`, or the page's) and prints each word's\n"
               "greedy pronunciation in ARPAbet and IPA, then the lexicon's pronunciations of it, saying\n"
               "whether the word was held out of training or trained on, or that it is not listed.\n"
               "  --model FILE            the checkpoint (required)\n"
               "  --data FILE             the lexicon (default: the one the build made,\n"
               "                          " WOLAB_LEXICON_TXT ")\n"
               "A word is 1 to 12 letters a-z, upper case read as lower case (docs/g2p.md). Every word\n"
               "and file is checked before any word is printed: a bad one exits 2 with one line on\n"
               "stderr naming it, and nothing on stdout.\n";
}

void print_report_help() {
  std::cout << kUsage << "\nwolab report FILE...: reads results files written by `wolab run` (or the page) and\n"
               "prints, per experiment, whether each variant converged and the paired comparisons of\n"
               "its variants seed by seed, then a verdict on each of the article's claims\n"
               "(rules: docs/claims.md). A bad file exits 2 with one line naming it.\n"
               "--json (first): prints instead the analysis itself, one JSON document, as the page gets\n"
               "it from the core's analyze (docs/claims.md); scripts/record.sh records it beside the\n"
               "results the page shows on load.\n";
}

void print_split_help() {
  std::cout << kUsage << "\nwolab split-wo IN.json --out OUT.json: writes the results file IN as OUT with each\n"
               "run's W_o snapshots moved to OUT-stem.<variant>.seed<N>.safetensors beside it, in\n"
               "float16 (lab/wo_files.h, docs/results.md); OUT keeps each snapshot's figures, so\n"
               "`wolab report OUT.json` prints what `wolab report IN.json` prints. OUT may be IN.\n";
}

void print_plan_help() {
  std::cout << kUsage << "\nwolab plan [run flags]: prints the runs that `wolab run` with the same flags trains,\n"
               "each with the experiments that share it and its estimated cost in multiply-adds.\n"
               "  --shards N              instead, print N commands, one a line, each `wolab run` with the\n"
               "                          same flags and --shard K/N; the slices' costs go to stderr.\n"
               "                          Run them anywhere (e.g. | parallel), then wolab merge\n";
}

void print_merge_help() {
  std::cout << kUsage << "\nwolab merge SHARD_FILE... --out results.json: joins the shard files that\n"
               "`wolab run --shard K/N --out results.json` wrote, one per slice, into the results files\n"
               "`wolab run --out results.json` writes for the whole plan (results.<experiment>.json\n"
               "under --experiment all). Files of different plans or wolab versions, a slice missing\n"
               "or given twice, or a file that is not whole exit 2 with one line naming it.\n";
}

// ---- argument parsing (flag_pairs, parse_jobs, parse_shard: args.h) ----

// `path` with `part` before its extension: results.json -> results.remove_wo.json (part
// ".remove_wo").
std::string output_path(const std::string& path, const std::string& part) {
  size_t slash = path.find_last_of('/'), dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash) || dot == slash + 1)
    return path + part;
  return path.substr(0, dot) + part + path.substr(dot);
}

// The results files of a plan whose config is cfg: --out itself for one experiment, one per
// experiment for "all".
std::vector<std::string> results_paths(const ExperimentConfig& cfg, const std::string& out) {
  std::vector<std::string> outputs;
  for (const ExperimentInfo& e : experiments())
    if (cfg.experiment == "all") outputs.push_back(output_path(out, "." + e.name));
  if (outputs.empty()) outputs.push_back(out);
  return outputs;
}

// Slice K of N's shard file: results.json -> results-shard-K-of-N.json, which a glob of the
// results files, results.*.json, does not match.
std::string shard_path(const std::string& out, const ShardSpec& s) {
  return output_path(out, "-shard-" + std::to_string(s.index) + "-of-" + std::to_string(s.count));
}

// Fails now, not after hours of training, when an output could not be written.
void check_writable(const std::string& flag, const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw ConfigError(flag + ": " + path + " is a directory; give a file path");
  std::string probe = path + ".partial";
  std::FILE* f = std::fopen(probe.c_str(), "wb");
  if (!f) throw ConfigError(flag + ": cannot write " + path + " (" + std::strerror(errno) + "); give a writable path");
  std::fclose(f);
  std::remove(probe.c_str());
}

// ---- progress on stderr ----

class Progress {
 public:
  Progress() : tty_(isatty(fileno(stderr))), start_(Clock::now()), last_draw_(start_) {}

  // Runs may train in parallel and report in any order: the bar counts every run's steps.
  void operator()(int run, int runs, const Trainer& t) {
    const RunConfig& cfg = t.config();
    const int steps = cfg.train.steps;
    char lr[32];
    std::snprintf(lr, sizeof lr, "%g", decimal_float(cfg.train.lr));
    std::string who = "[" + std::to_string(run + 1) + "/" + std::to_string(runs) + "] " +
                      to_string(cfg.model.wo) + " seed " + std::to_string(cfg.train.seed) + " lr " + lr;
    const std::string status = describe(t.status());
    if (!tty_) {  // logs get one line per finished run
      if (t.finished()) {
        std::fprintf(stderr, "%s: %s, final loss %s (%.1f s)\n", who.c_str(), status.c_str(),
                     last_loss(t).c_str(), seconds());
      }
      return;
    }
    steps_done_.resize(runs, 0);
    steps_done_[run] = t.finished() ? steps : t.steps_done();
    auto now = Clock::now();
    if (!t.finished() && now - last_draw_ < std::chrono::milliseconds(100)) return;
    last_draw_ = now;
    double total = 0;
    for (int n : steps_done_) total += n;
    double done = total / (double(steps) * runs);
    int filled = static_cast<int>(done * 24);
    std::string bar = std::string(filled, '#') + std::string(24 - filled, '.');
    std::string eta = done > 0.01 ? " eta " + format_seconds(seconds() * (1 - done) / done) : "";
    std::fprintf(stderr, "\r\x1b[K[%s] %3.0f%% %s step %d/%d loss %s%s", bar.c_str(), done * 100, who.c_str(),
                 t.steps_done(), steps, last_loss(t).c_str(), eta.c_str());
    if (t.finished() && t.status().state != RunStatus::State::done)
      std::fprintf(stderr, "\r\x1b[K%s: %s\n", who.c_str(), status.c_str());
    std::fflush(stderr);
  }

  void finish() {
    if (tty_) std::fprintf(stderr, "\r\x1b[K");
    std::fprintf(stderr, "trained in %s\n", format_seconds(seconds()).c_str());
  }

 private:
  using Clock = std::chrono::steady_clock;
  static std::string last_loss(const Trainer& t) {
    if (t.losses().empty()) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", t.losses().back());
    return buf;
  }
  static std::string format_seconds(double s) {
    char buf[32];
    if (s < 60)
      std::snprintf(buf, sizeof buf, "%.1f s", s);
    else
      std::snprintf(buf, sizeof buf, "%dm%02ds", int(s) / 60, int(s) % 60);
    return buf;
  }
  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

  bool tty_;
  Clock::time_point start_, last_draw_;
  std::vector<int> steps_done_;  // (runs) steps of each run so far; all of them once it finished
};

// ---- summary table on stdout ----

// "mean ± std", or the mean alone where there is no spread (one done run: std null).
std::string mean_std(const json& s, const char* fmt) {
  if (s["mean"].is_null()) return "-";
  char a[32], b[32];
  std::snprintf(a, sizeof a, fmt, s["mean"].get<double>());
  if (s["std"].is_null()) return a;
  std::snprintf(b, sizeof b, fmt, s["std"].get<double>());
  return std::string(a) + " ± " + b;
}

// text padded with spaces to `width` characters: printf's %-*s counts bytes, and "±" is two (UTF-8),
// so a cell with one and a cell without would not line up.
std::string padded(std::string text, size_t width) {
  size_t chars = 0;
  for (unsigned char c : text) chars += (c & 0xC0) != 0x80;  // a continuation byte starts no character
  if (chars < width) text.append(width - chars, ' ');
  return text;
}

void print_summary(const json& results) {
  const ExperimentInfo* exp = find_experiment(results["experiment"].get<std::string>());
  std::vector<std::string> problems;
  const RunConfig c = run_config(*exp, read_config(results["config"], problems));  // checked by make_results
  const bool g2p = c.task.kind == TaskKind::g2p;
  const std::string task = g2p ? std::string("g2p (CMUdict)")
                               : std::string(to_string(c.task.kind)) + ", alphabet " + std::to_string(c.task.alphabet) +
                                     ", length " + std::to_string(c.task.length);
  std::printf("\n%s: %s; d_model %d, heads %d, layers %d, d_ff %d, %s-LN; %d steps\n",
              results["experiment"].get<std::string>().c_str(), task.c_str(), c.model.d_model, c.model.heads,
              c.model.layers, c.model.d_ff, to_string(c.model.ln), c.train.steps);
  // A row per (variant, learning rate): the rate is shown where the experiment sweeps it.
  std::vector<std::string> labels;
  int width = 28;
  for (const json& s : results["summary"]) {
    char lr[40] = "";
    if (exp->lr_sweep) std::snprintf(lr, sizeof lr, " lr %g", s["lr"].get<double>());
    labels.push_back(s["variant"].get<std::string>() + lr + " (n=" + std::to_string(s["n"].get<int>()) + ")");
    width = std::max(width, static_cast<int>(labels.back().size()));
  }
  // g2p: PER and WER on every held-out word in place of exact match (docs/results.md).
  if (g2p)
    std::printf("  %-*s %-18s %-18s %-18s %-26s %-20s %10s\n", width, "variant", "token acc", "PER (all words)",
                "WER (all words)", "steps to loss < 0.1 (k/n)", "held-out loss", "parameters");
  else
    std::printf("  %-*s %-18s %-18s %-26s %-20s %10s\n", width, "variant", "token acc", "exact match",
                "steps to loss < 0.1 (k/n)", "held-out loss", "parameters");
  for (size_t i = 0; i < labels.size(); ++i) {
    const json& s = results["summary"][i];
    const int n = s["n"].get<int>(), done = n - s["diverged"].get<int>() - s["stopped"].get<int>();
    std::string reached = mean_std(s["steps_to_loss_0_1"], "%.0f") + " (" +
                          std::to_string(s["steps_to_loss_0_1"]["reached"].get<int>()) + "/" +
                          std::to_string(done) + ")";
    const std::string middle = g2p ? padded(mean_std(s["per"], "%.3f"), 18) + " " + padded(mean_std(s["wer"], "%.3f"), 18)
                                   : padded(mean_std(s["exact"], "%.3f"), 18);
    std::printf("  %-*s %s %s %s %s %10lld\n", width, labels[i].c_str(),
                padded(mean_std(s["token_acc"], "%.3f"), 18).c_str(), middle.c_str(), padded(reached, 26).c_str(),
                padded(mean_std(s["loss"], "%.4f"), 20).c_str(), s["parameters"].get<long long>());
  }
  for (const json& r : results["runs"]) {
    const RunStatus status = *status_from_json(r["status"]);
    if (status.state != RunStatus::State::done)
      std::printf("  %s seed %llu lr %g: %s (left out of the means)\n", r["variant"].get<std::string>().c_str(),
                  r["seed"].get<unsigned long long>(), r["lr"].get<double>(), describe(status).c_str());
  }
}

// ---- commands ----

// Every file in `paths` gets its text(i), or none does. One text at a time: a results file with
// W_o snapshots may be hundreds of megabytes.
void write_all(const std::vector<std::string>& paths, const std::function<std::string(size_t)>& text) {
  std::vector<std::string> written;
  try {
    for (size_t i = 0; i < paths.size(); ++i) {
      write_file_atomic(paths[i], text(i));
      written.push_back(paths[i]);
    }
  } catch (...) {
    for (const std::string& path : written) std::remove(path.c_str());
    throw;
  }
}

// What the flags of `wolab run` (and of `wolab plan`, which prints run commands) ask for.
struct RunArgs {
  ExperimentConfig cfg;  // validated
  std::string out, checkpoint;
  std::string checkpoints;  // --save-checkpoints: the folder of every run's model
  std::string data;  // the lexicon file of a g2p plan (--data, else the build's); empty for other tasks
  int jobs = 1;
  std::optional<ShardSpec> shard;
};

RunArgs parse_run_args(const std::vector<std::pair<std::string, std::string>>& flags) {
  RunArgs a;
  a.jobs = std::max(1u, std::thread::hardware_concurrency());
  std::string preset, config_path;
  std::vector<std::pair<std::string, std::string>> overrides;
  for (const auto& [flag, value] : flags) {
    if (flag == "--preset") preset = value;
    else if (flag == "--config") config_path = value;
    else if (flag == "--out") a.out = value;
    else if (flag == "--save-checkpoint") a.checkpoint = value;
    else if (flag == "--save-checkpoints") a.checkpoints = value;
    else if (flag == "--data") a.data = value;
    else if (flag == "--jobs") a.jobs = parse_jobs(value);
    else if (flag == "--shard") a.shard = parse_shard(value);
    else overrides.emplace_back(flag, value);
  }

  ExperimentConfig& cfg = a.cfg;
  if (!preset.empty()) {
    const json all = presets(/*with_native=*/true);
    if (!all.contains(preset)) {
      std::string names;
      for (const std::string& name : preset_names(/*with_native=*/true)) names += (names.empty() ? "" : " or ") + name;
      throw ConfigError("--preset: " + in_quotes(preset) + " is not a preset; use " + names);
    }
    cfg = parse_experiment_config(all[preset].dump());
  }
  if (!preset.empty() && !config_path.empty())
    throw ConfigError("--preset: cannot be combined with --config; give one of them, and flags for the rest");
  if (!config_path.empty()) {
    std::vector<uint8_t> bytes;
    try {
      bytes = read_file_bytes(config_path);
    } catch (const ConfigError& e) {
      throw ConfigError(std::string("--config: ") + e.what() + "; give a readable config JSON file");
    }
    std::vector<std::string> problems;
    cfg = read_config_text(std::string(bytes.begin(), bytes.end()), problems);
    if (!problems.empty()) throw ConfigError(problems.front());
  }
  for (const auto& [flag, value] : overrides) set_from_flag(cfg, flag, value);
  auto problems = validate(cfg);
  if (!problems.empty()) throw ConfigError(problems.front());

  if (a.shard && !a.checkpoint.empty())
    throw ConfigError("--save-checkpoint: cannot be combined with --shard; the plan's last run is in one slice only");
  if (!needs_lexicon(cfg)) {
    if (!a.data.empty())
      throw ConfigError("--data: only the task g2p (and experiment real_words) reads a data file; the task is " +
                        std::string(to_string(cfg.base.task.kind)));
  } else if (a.data.empty()) {
    a.data = WOLAB_LEXICON_TXT;
  }
  return a;
}

// The lexicon at `path` and its split, read once and shared by all the runs of a g2p plan; null
// for an empty path (other tasks). A missing, truncated or corrupt file is one line naming --data.
std::shared_ptr<const G2pData> load_g2p(const std::string& path) {
  if (path.empty()) return nullptr;
  try {
    return std::make_shared<const G2pData>(split_lexicon(std::make_shared<const Lexicon>(read_cmudict_file(path))));
  } catch (const ConfigError& e) {
    throw ConfigError(std::string("--data: ") + e.what() + "; give the lexicon the build makes (docs/g2p.md)");
  }
}

// --save-checkpoints DIR: the file of each run of the plan, in plan order, DIR/<variant>.seed<N>.safetensors;
// none without DIR. A plan with two runs of one variant and seed (a learning-rate sweep, or
// experiments on different tasks) is refused, since their names would clash.
std::vector<std::string> checkpoint_paths(const ExperimentConfig& cfg, const std::string& dir) {
  std::vector<std::string> paths;
  if (dir.empty()) return paths;
  for (const PlannedRun& r : plan_runs(cfg, {cfg.experiment})) {
    const std::string path = dir + "/" + to_string(r.config.model.wo) + ".seed" + std::to_string(r.config.train.seed) +
                             ".safetensors";
    if (std::find(paths.begin(), paths.end(), path) != paths.end())
      throw ConfigError("--save-checkpoints: the plan trains " + std::string(to_string(r.config.model.wo)) + " with seed " +
                        std::to_string(r.config.train.seed) +
                        " more than once; give one experiment without a learning-rate sweep");
    paths.push_back(path);
  }
  return paths;
}

void require_out(const RunArgs& a) {
  if (a.out.empty()) throw ConfigError("--out: missing; give the results file to write, e.g. --out results.json");
}

// The slices of the plan, or "--shard: ..." naming the flag when it has fewer runs than slices.
std::vector<std::vector<size_t>> slices_of(const std::vector<PlannedRun>& plan, int count, const char* flag) {
  try {
    return shard_plan(plan, count);
  } catch (const ConfigError& e) {
    throw ConfigError(std::string(flag) + ": " + e.what());
  }
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
        if (!models.empty() && t.finished()) models[static_cast<size_t>(run)] = t.save_checkpoint(/*optimizer=*/false);
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

// --help or -h anywhere among a command's arguments.
bool asks_help(const std::vector<std::string>& args) {
  return std::any_of(args.begin(), args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; });
}

int run_command(const std::vector<std::string>& args) {
  if (asks_help(args)) {
    print_run_help();
    return 0;
  }
  const RunArgs a = parse_run_args(flag_pairs(args));
  require_out(a);
  if (a.shard) return run_shard(a);
  const ExperimentConfig& cfg = a.cfg;
  const std::vector<std::string> outputs = results_paths(cfg, a.out);
  for (const std::string& path : outputs) check_writable("--out", path);
  if (!a.checkpoint.empty()) check_writable("--save-checkpoint", a.checkpoint);
  const std::vector<std::string> model_paths = checkpoint_paths(cfg, a.checkpoints);
  for (const std::string& path : model_paths) check_writable("--save-checkpoints", path);
  const std::shared_ptr<const G2pData> g2p = load_g2p(a.data);

  Progress progress;
  std::vector<uint8_t> last_checkpoint;
  std::vector<std::vector<uint8_t>> models(model_paths.size());
  std::vector<json> results = run_experiment(
      cfg,
      [&](int run, int runs, const Trainer& t) {
        progress(run, runs, t);
        if (!a.checkpoint.empty() && run == runs - 1 && t.finished()) last_checkpoint = t.save_checkpoint();
        if (!models.empty() && t.finished()) models[run] = t.save_checkpoint(/*optimizer=*/false);
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
    return i < results.size() ? results[i].dump() + "\n" : std::string(bytes.begin(), bytes.end());
  });
  for (const std::string& path : paths) std::printf("wrote %s\n", path.c_str());
  return 0;
}

// `wolab plan`: the runs of the plan, or with --shards N the command of each slice.
int plan_command(const std::string& wolab, const std::vector<std::string>& args) {
  if (asks_help(args)) {
    print_plan_help();
    return 0;
  }
  int shards = 0;
  std::vector<std::pair<std::string, std::string>> flags;
  for (const auto& [flag, value] : flag_pairs(args)) {
    if (flag == "--shards") shards = parse_shards(value);
    else if (flag == "--shard") throw ConfigError("--shard: a flag of wolab run; wolab plan takes --shards N and prints each slice's command");
    else flags.emplace_back(flag, value);
  }
  const RunArgs a = parse_run_args(flags);
  const std::vector<PlannedRun> plan = plan_runs(a.cfg, {a.cfg.experiment});

  if (shards == 0) {
    double total = 0;
    std::printf("%-5s %-22s %6s %8s %5s %12s  %s\n", "run", "variant", "seed", "lr", "clip", "multiply-adds",
                "experiments");
    for (size_t i = 0; i < plan.size(); ++i) {
      const PlannedRun& r = plan[i];
      std::string exps;
      for (const std::string& e : r.experiments) exps += (exps.empty() ? "" : ", ") + e;
      total += planned_cost(r);
      std::printf("%-5zu %-22s %6llu %8g %5g %12.3g  %s\n", i + 1, to_string(r.config.model.wo),
                  static_cast<unsigned long long>(r.config.train.seed), decimal_float(r.config.train.lr),
                  decimal_float(r.config.train.clip), planned_cost(r), exps.c_str());
    }
    std::printf("%zu runs, %.3g multiply-adds in all\n", plan.size(), total);
    return 0;
  }

  require_out(a);
  if (!a.checkpoint.empty())
    throw ConfigError("--save-checkpoint: cannot be combined with --shards; the plan's last run is in one slice only");
  const auto slices = slices_of(plan, shards, "--shards");
  // The user's own flags, in their order, so each command is the plan they asked for.
  std::string common = shell_quote(wolab) + " run";
  bool data_given = false;
  for (const auto& [flag, value] : flags) {
    common += " " + shell_quote(flag) + " " + shell_quote(value);
    data_given = data_given || flag == "--data";
  }
  // Every slice reads the same lexicon, named in its command: the default one too, so a slice
  // run by another wolab build still trains on this plan's data.
  if (!a.data.empty() && !data_given) common += " --data " + shell_quote(a.data);
  for (size_t k = 0; k < slices.size(); ++k) {
    double cost = 0;
    for (size_t i : slices[k]) cost += planned_cost(plan[i]);
    std::printf("%s --shard %zu/%d\n", common.c_str(), k + 1, shards);
    std::fprintf(stderr, "slice %zu/%d: %zu runs, %.3g multiply-adds\n", k + 1, shards, slices[k].size(), cost);
  }
  return 0;
}

// A command's operands (files, words) and its flags, each flag with its value for flag_pairs.
std::pair<std::vector<std::string>, std::vector<std::string>> operands_and_flags(const std::vector<std::string>& args) {
  std::vector<std::string> operands, flags;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].compare(0, 2, "--") != 0) {
      operands.push_back(args[i]);
      continue;
    }
    flags.push_back(args[i]);
    if (args[i].find('=') == std::string::npos && i + 1 < args.size()) flags.push_back(args[++i]);
  }
  return {operands, flags};
}

// `wolab merge SHARD_FILE... --out FILE`
int merge_command(const std::vector<std::string>& args) {
  if (asks_help(args)) {
    print_merge_help();
    return 0;
  }
  const auto [files, flags] = operands_and_flags(args);
  std::string out;
  for (const auto& [flag, value] : flag_pairs(flags)) {
    if (flag != "--out") throw ConfigError(flag + ": unknown flag; see wolab merge --help");
    out = value;
  }
  if (out.empty()) throw ConfigError("--out: missing; give the results file to write, e.g. --out results.json");
  std::vector<ShardText> texts;
  for (const std::string& path : files) {
    std::vector<uint8_t> bytes;
    try {
      bytes = read_file_bytes(path);
    } catch (const ConfigError& e) {
      throw ConfigError("merge: " + escape_controls(path) + ": " + e.what());
    }
    texts.push_back({path, std::string(bytes.begin(), bytes.end())});
  }
  const Merged merged = merge_shards(texts);
  const std::vector<std::string> outputs = results_paths(merged.config, out);
  for (const std::string& path : outputs) check_writable("--out", path);
  write_all(outputs, [&](size_t i) { return merged.results[i].dump() + "\n"; });
  for (const std::string& path : outputs) std::printf("wrote %s\n", path.c_str());
  return 0;
}

int eval_command(const std::vector<std::string>& args) {
  if (asks_help(args)) {
    print_eval_help();
    return 0;
  }
  std::string path;
  for (const auto& [flag, value] : flag_pairs(args)) {
    if (flag != "--checkpoint") throw ConfigError(flag + ": unknown flag; see wolab eval --help");
    path = value;
  }
  if (path.empty()) throw ConfigError("--checkpoint: missing; give a checkpoint file, e.g. --checkpoint run.safetensors");
  std::vector<uint8_t> bytes;
  try {
    bytes = read_file_bytes(path);
  } catch (const ConfigError& e) {
    throw ConfigError(std::string("--checkpoint: ") + e.what() + "; give a checkpoint file");
  }
  Trainer t = Trainer::from_checkpoint(bytes);
  const RunConfig& c = t.config();
  EvalResult e = t.evaluate();
  float greedy = t.greedy_exact();
  std::printf("%s: W_o %s, %s-LN, d_model %d, heads %d, layers %d, d_ff %d; %s, alphabet %d, length %d; "
              "seed %llu, step %d of %d (%s), %lld parameters\n",
              path.c_str(), to_string(c.model.wo), to_string(c.model.ln), c.model.d_model, c.model.heads,
              c.model.layers, c.model.d_ff, to_string(c.task.kind), c.task.alphabet, c.task.length,
              static_cast<unsigned long long>(c.train.seed), t.steps_done(), c.train.steps, describe(t.status()).c_str(),
              static_cast<long long>(t.parameter_count()));
  std::printf("held-out loss %.4f, token accuracy %.4f, exact match %.4f, greedy exact match %.4f\n", e.loss,
              e.token_acc, e.exact, greedy);
  return 0;
}

// A pronunciation as "K AE T /kæt/".
std::string arpabet_and_ipa(const std::vector<uint8_t>& pron) { return to_arpabet(pron) + " /" + to_ipa(pron) + "/"; }

// `wolab pronounce --model FILE [--data FILE] WORD...`: every word is pronounced before any is
// printed, so a bad word or file leaves one line on stderr and nothing on stdout.
int pronounce_command(const std::vector<std::string>& args) {
  if (asks_help(args)) {
    print_pronounce_help();
    return 0;
  }
  const auto [words, flags] = operands_and_flags(args);
  std::string model_path, data_path = WOLAB_LEXICON_TXT;
  for (const auto& [flag, value] : flag_pairs(flags)) {
    if (flag == "--model") model_path = value;
    else if (flag == "--data") data_path = value;
    else throw ConfigError(flag + ": unknown flag; see wolab pronounce --help");
  }
  if (model_path.empty()) throw ConfigError("--model: missing; give a g2p checkpoint, e.g. --model run.safetensors");
  if (words.empty()) throw ConfigError("pronounce: no word; give one or more, e.g. wolab pronounce --model run.safetensors cat");
  for (const std::string& w : words) g2p_word(w);  // a bad word before the files are read
  std::vector<uint8_t> bytes;
  try {
    bytes = read_file_bytes(model_path);
  } catch (const ConfigError& e) {
    throw ConfigError(std::string("--model: ") + e.what() + "; give a checkpoint of a g2p run");
  }
  const std::shared_ptr<const G2pData> g2p = load_g2p(data_path);
  std::optional<Trainer> model;
  try {
    model.emplace(Trainer::from_checkpoint(bytes, g2p));
  } catch (const ConfigError& e) {
    throw ConfigError(std::string("--model: ") + escape_controls(model_path) + ": " + e.what());
  }
  std::vector<Pronunciation> said;
  for (const std::string& w : words) said.push_back(pronounce(*model, w));
  for (const Pronunciation& p : said) {
    std::printf("%s: %s%s\n", p.word.c_str(), p.phonemes.empty() ? "(no phonemes)" : arpabet_and_ipa(p.phonemes).c_str(),
                p.eos ? "" : " (no [EOS]: cut at the model's last position)");
    const LexiconEntry e = look_up(*g2p->lexicon, p.word);
    std::string listed;
    for (const std::vector<uint8_t>& pron : e.prons) listed += (listed.empty() ? "" : "; ") + arpabet_and_ipa(pron);
    if (!e.listed)
      std::printf("  dictionary: not listed\n");
    else
      std::printf("  dictionary (%s): %s\n", e.heldout ? "held out" : "trained on", listed.c_str());
  }
  return 0;
}

// `wolab half-model MODEL --out FILE`: the model file with its weights in float16 (half_model).
int half_model_command(const std::vector<std::string>& args) {
  if (args.size() != 3 || args[1] != "--out")
    throw ConfigError("half-model: give a model file and --out FILE, e.g. wolab half-model learned.seed0.safetensors "
                      "--out learned.seed0.f16.safetensors");
  const std::vector<uint8_t> bytes = read_file_bytes(args[0]);
  std::vector<uint8_t> half;
  try {
    half = half_model(bytes);
  } catch (const ConfigError& e) {
    throw ConfigError(args[0] + ": " + e.what());
  }
  check_writable("--out", args[2]);
  write_file_atomic(args[2], half);
  std::printf("wrote %s: %zu bytes (from %zu)\n", args[2].c_str(), half.size(), bytes.size());
  return 0;
}

int report_command(const std::vector<std::string>& args) {
  if (asks_help(args)) {
    print_report_help();
    return 0;
  }
  const bool as_json = !args.empty() && args.front() == "--json";
  const std::vector<std::string> files(args.begin() + (as_json ? 1 : 0), args.end());
  if (files.empty()) throw ConfigError("report: no results file; give one or more, e.g. wolab report results.json");
  std::vector<json> results;
  for (const std::string& path : files) {
    if (path.rfind("--", 0) == 0) throw ConfigError(path + ": unknown flag; see wolab report --help");
    try {
      const std::vector<uint8_t> bytes = read_file_bytes(path);
      results.push_back(parse_results(std::string(bytes.begin(), bytes.end())));
    } catch (const ConfigError& e) {
      throw ConfigError(path + ": " + e.what());
    }
  }
  const json analysis = analyze(results);
  if (as_json)
    std::printf("%s\n", analysis.dump().c_str());
  else
    std::printf("%s", format_analysis(analysis).c_str());
  return 0;
}

int split_command(const std::vector<std::string>& args) {
  if (asks_help(args)) {
    print_split_help();
    return 0;
  }
  if (args.empty()) throw ConfigError("split-wo: no results file; e.g. wolab split-wo results.wo_heatmap.json --out r.json");
  const std::string in = args.front();
  std::string out;
  for (const auto& [flag, value] : flag_pairs({args.begin() + 1, args.end()})) {
    if (flag != "--out") throw ConfigError(flag + ": unknown flag; see wolab split-wo --help");
    out = value;
  }
  if (out.empty()) throw ConfigError("--out: missing; give the results file to write, e.g. --out r.json");
  json results;
  try {
    const std::vector<uint8_t> bytes = read_file_bytes(in);
    results = parse_results(std::string(bytes.begin(), bytes.end()));
  } catch (const ConfigError& e) {
    throw ConfigError(in + ": " + e.what());
  }
  const size_t slash = out.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "" : out.substr(0, slash + 1);
  std::string stem = out.substr(folder.size());
  if (stem.size() > 5 && stem.compare(stem.size() - 5, 5, ".json") == 0) stem.resize(stem.size() - 5);
  check_writable("--out", out);
  const WoSplit split = split_wo_snapshots(std::move(results), stem);
  std::vector<std::string> written;
  try {
    for (const WoFile& f : split.files) {
      write_file_atomic(folder + f.name, f.bytes);
      written.push_back(folder + f.name);
    }
    write_file_atomic(out, json_text(split.results) + "\n");
    written.push_back(out);
  } catch (...) {
    for (const std::string& path : written) std::remove(path.c_str());  // all or nothing
    throw;
  }
  for (const std::string& path : written) std::printf("wrote %s\n", path.c_str());
  return 0;
}

// One line, whatever the message holds.
std::string one_line(std::string s) {
  for (char& ch : s)
    if (ch == '\n' || ch == '\r') ch = ' ';
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.empty()) {
      std::cerr << kUsage;
      return 2;
    }
    const std::string command = args.front();
    std::vector<std::string> rest(args.begin() + 1, args.end());
    if (command == "--help" || command == "-h" || command == "help") {
      std::cout << kUsage << "\nwolab run --help lists every flag with its default and range.\n";
      return 0;
    }
    if (command == "--version") {
      std::cout << "wolab " << kVersion << "\n";
      return 0;
    }
    if (command == "run") return run_command(rest);
    if (command == "eval") return eval_command(rest);
    if (command == "pronounce") return pronounce_command(rest);
    if (command == "report") return report_command(rest);
    if (command == "split-wo") return split_command(rest);
    if (command == "plan") return plan_command(argv[0], rest);
    if (command == "merge") return merge_command(rest);
    if (command == "half-model") return half_model_command(rest);
    throw ConfigError(command + ": unknown command; use run, eval, pronounce, report, split-wo, plan, merge, half-model, --help or --version");
  } catch (const ConfigError& e) {
    std::cerr << "wolab: " << one_line(e.what()) << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "wolab: error: " << one_line(e.what()) << "\n";
    return 1;
  }
}
