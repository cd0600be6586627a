// `wolab notebook`: an experiment as a PyTorch notebook (lab/notebook.h, docs/notebooks.md),
// with the plan `wolab run` would train for the same flags.
#include "cli/commands.h"

#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "cli/args.h"
#include "cli/outputs.h"
#include "cli/run_args.h"
#include "config/languages.h"
#include "io/safetensors.h"
#include "lab/config.h"
#include "lab/notebook.h"

namespace wolab::cli {

namespace {

void print_notebook_help() {
  std::cout << kUsage << "\nwolab notebook [run flags] [--lang en|zh] --out NOTEBOOK.ipynb: writes the experiment\n"
               "that `wolab run` with the same flags would train as a Jupyter notebook in plain PyTorch\n"
               "(the same plan: variants, seeds, config), its text in English (en, the default) or\n"
               "Chinese (zh). Its last cell writes <experiment>.pytorch.json beside it, a results file\n"
               "that `wolab report` reads and the page imports. A g2p notebook reads the lexicon --data\n"
               "names (default: the one the build made). A config `wolab run` refuses is refused with\n"
               "the same line (exit 2), and so is --experiment all: a notebook holds one experiment.\n"
               "docs/notebooks.md.\n";
}

}  // namespace

int notebook_command(const std::vector<std::string>& args) {
  if (asks_help(args)) {
    print_notebook_help();
    return 0;
  }
  std::string lang = kLangCodes[0];
  std::vector<std::pair<std::string, std::string>> flags;
  for (const auto& [flag, value] : flag_pairs(args)) {
    if (flag == "--lang") lang = value;
    else if (flag == "--jobs" || flag == "--shard" || flag == "--save-checkpoint" || flag == "--save-checkpoints")
      throw ConfigError(flag + ": a flag of wolab run, which trains; a notebook trains where it is run");
    else flags.emplace_back(flag, value);
  }
  const RunArgs a = parse_run_args(flags);  // `wolab run`'s checks and messages
  if (a.out.empty()) throw ConfigError("--out: missing; give the notebook to write, e.g. --out " + a.cfg.experiment + ".ipynb");
  std::string text;
  try {
    text = make_notebook(a.cfg, lang, a.data);
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    throw ConfigError(what.rfind("lang: ", 0) == 0 || what.rfind("experiment: ", 0) == 0 ? "--" + what : what);
  }
  check_writable("--out", a.out);
  write_file_atomic(a.out, text);
  std::printf("wrote %s: %s; its last cell writes %s beside it\n", a.out.c_str(), a.cfg.experiment.c_str(),
              notebook_results_name(a.cfg.experiment).c_str());
  return 0;
}

}  // namespace wolab::cli
