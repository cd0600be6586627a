// The wolab commands, one file each (cli/cmd_<name>.cpp), and the usage text every command's
// help starts with; main.cpp dispatches to them through its table of commands. Each takes the
// arguments after its name, prints --help itself, and returns the exit status (main.cpp's header).
#pragma once

#include <string>
#include <vector>

namespace wolab::cli {

inline constexpr char kUsage[] =
    "Usage: wolab run [flags] [--out results.json]   train an experiment, print its summary and report\n"
    "                                                (and write its results with --out)\n"
    "       wolab eval --checkpoint run.safetensors  held-out metrics of a saved run\n"
    "       wolab pronounce --model run.safetensors WORD...  a g2p run's pronunciation of words\n"
    "       wolab report [--json] [--lang zh] results.json...  the article's claims answered, and the evidence\n"
    "       wolab split-wo IN.json --out OUT.json     W_o snapshots into binary files beside OUT\n"
    "       wolab plan [run flags] [--shards N [--out results.json]]  the runs of the plan, or of\n"
    "                                                each of N slices, or (with --out) N commands training them\n"
    "       wolab merge SHARD_FILE... --out results.json  the results files of the whole plan\n"
    "       wolab half-model MODEL --out FILE         a model file (run --save-checkpoints) in float16\n"
    "       wolab notebook [run flags] [--lang en|zh] --out X.ipynb  the experiment as a PyTorch notebook\n"
    "       wolab --help | run --help | eval --help | pronounce --help | report --help |\n"
    "             split-wo --help | plan --help | merge --help | half-model --help | notebook --help |\n"
    "             --version\n";

int run_command(const std::vector<std::string>& args);        // cmd_run.cpp
int eval_command(const std::vector<std::string>& args);       // cmd_eval.cpp
int pronounce_command(const std::vector<std::string>& args);  // cmd_pronounce.cpp
int report_command(const std::vector<std::string>& args);     // cmd_report.cpp
int split_command(const std::vector<std::string>& args);      // cmd_split_wo.cpp
// `wolab` is how the program was started (argv[0]): the commands it prints start with it.
int plan_command(const std::string& wolab, const std::vector<std::string>& args);  // cmd_plan.cpp
int merge_command(const std::vector<std::string>& args);      // cmd_merge.cpp
int half_model_command(const std::vector<std::string>& args); // cmd_half_model.cpp
int notebook_command(const std::vector<std::string>& args);   // cmd_notebook.cpp

}  // namespace wolab::cli
