// `wolab plan`: the runs of the plan, or with --shards N the command of each slice.
#include "cli/commands.h"

#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "cli/args.h"
#include "cli/run_args.h"
#include "lab/config.h"
#include "lab/plan.h"

namespace wolab::cli {

namespace {

void print_plan_help() {
  std::cout << kUsage << "\nwolab plan [run flags]: prints the runs that `wolab run` with the same flags trains,\n"
               "each with the experiments that share it and its estimated cost in multiply-adds.\n"
               "  --shards N              instead, print N commands, one a line, each `wolab run` with the\n"
               "                          same flags and --shard K/N; the slices' costs go to stderr.\n"
               "                          Run them anywhere (e.g. | parallel), then wolab merge\n";
}

}  // namespace

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

}  // namespace wolab::cli
