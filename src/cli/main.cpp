// wolab: trains the W_o experiments from the command line and writes results JSON (docs/results.md,
// the page imports it), reports the held-out metrics of a checkpoint, or pronounces words with
// a g2p checkpoint. A plan too big for one
// machine is cut into slices that train anywhere (run --shard, plan --shards) and are merged
// back into the same results files (merge; docs/sweeps.md).
// Each command is a file of its own, cli/cmd_<name>.cpp (cli/commands.h); this file only
// dispatches to them and turns what they throw into an exit status.
//
// Exit status: 0 done (also when some runs diverged: they are reported, not failures);
// 2 invalid input (flag, config, checkpoint), with one line on stderr naming the field and what
// is allowed; 1 anything else. Outputs are written only at the end, each to a temporary file
// renamed into place, so no exit leaves a partial file.
#include <exception>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/args.h"
#include "lab/config.h"

namespace {

using namespace wolab;
using namespace wolab::cli;

struct Command {
  const char* name;
  std::function<int(const std::vector<std::string>& args)> run;
};

}  // namespace

int main(int argc, char** argv) {
  const std::string wolab = argv[0];
  const Command commands[] = {
      {"run", run_command},
      {"eval", eval_command},
      {"pronounce", pronounce_command},
      {"report", report_command},
      {"split-wo", split_command},
      {"plan", [&](const std::vector<std::string>& args) { return plan_command(wolab, args); }},
      {"merge", merge_command},
      {"half-model", half_model_command},
      {"notebook", notebook_command},
  };
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
    std::string names;
    for (const Command& c : commands) {
      if (command == c.name) return c.run(rest);
      names += std::string(c.name) + ", ";
    }
    throw ConfigError(command + ": unknown command; use " + names + "--help or --version");
  } catch (const ConfigError& e) {
    std::cerr << "wolab: " << one_line(e.what()) << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "wolab: error: " << one_line(e.what()) << "\n";
    return 1;
  }
}
