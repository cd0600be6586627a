// The wolab commands, one file each (cli/cmd_<name>.cpp), and the usage text every command's
// help starts with; main.cpp dispatches to them through its table of commands. Each takes the
// arguments after its name, prints --help itself, and returns the exit status (main.cpp's header).
#pragma once

#include <string>
#include <vector>

namespace wolab::cli {

inline constexpr char kUsage[] =
    "Usage: wolab run [flags] --out results.json     train an experiment, write its results\n"
    "       wolab eval --checkpoint run.safetensors  held-out metrics of a saved run\n"
    "       wolab pronounce --model run.safetensors WORD...  a g2p run's pronunciation of words\n"
    "       wolab report [--json] results.json...    paired comparisons and the article's claims\n"
    "       wolab split-wo IN.json --out OUT.json     W_o snapshots into binary files beside OUT\n"
    "       wolab plan [run flags] [--shards N]      the runs of the plan, or N commands training its slices\n"
    "       wolab merge SHARD_FILE... --out results.json  the results files of the whole plan\n"
    "       wolab --help | run --help | eval --help | pronounce --help | report --help |\n"
    "             split-wo --help | plan --help | merge --help | --version\n";

int run_command(const std::vector<std::string>& args);        // cmd_run.cpp
int eval_command(const std::vector<std::string>& args);       // cmd_eval.cpp
int pronounce_command(const std::vector<std::string>& args);  // cmd_pronounce.cpp
int report_command(const std::vector<std::string>& args);     // cmd_report.cpp
int split_command(const std::vector<std::string>& args);      // cmd_split_wo.cpp
// `wolab` is how the program was started (argv[0]): the commands it prints start with it.
int plan_command(const std::string& wolab, const std::vector<std::string>& args);  // cmd_plan.cpp
int merge_command(const std::vector<std::string>& args);      // cmd_merge.cpp

}  // namespace wolab::cli
