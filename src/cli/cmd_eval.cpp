// `wolab eval`: a checkpoint's config and held-out metrics.
#include "cli/commands.h"

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "io/safetensors.h"
#include "lab/checkpoints.h"
#include "lab/config.h"
#include "lab/status_json.h"
#include "run/trainer.h"

namespace wolab::cli {

namespace {

void print_eval_help() {
  std::cout << kUsage << "\nwolab eval --checkpoint FILE: loads a checkpoint written by `wolab run "
               "--save-checkpoint`\n(or the page) and prints its config and held-out metrics.\n";
}

}  // namespace

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
  Trainer t = load_checkpoint(bytes);
  const RunConfig& c = t.config();
  EvalResult e = t.evaluate();
  float greedy = t.greedy_exact();
  // identity_matched's FFN is wider than the setting (docs/config.md, "The W_o variants")
  std::string d_ff = std::to_string(c.model.d_ff);
  if (ffn_width(c.model) != c.model.d_ff) d_ff += " (widened to " + std::to_string(ffn_width(c.model)) + ")";
  std::printf("%s: W_o %s, %s-LN, d_model %d, %d head%s, %d layer%s, d_ff %s; %s, alphabet %d, length %d; "
              "seed %llu, step %d of %d (%s), %lld parameters\n",
              path.c_str(), to_string(c.model.wo), to_string(c.model.ln), c.model.d_model, c.model.heads,
              c.model.heads == 1 ? "" : "s", c.model.layers, c.model.layers == 1 ? "" : "s", d_ff.c_str(), to_string(c.task.kind), c.task.alphabet, c.task.length,
              static_cast<unsigned long long>(c.train.seed), t.steps_done(), c.train.steps, describe(t.status()).c_str(),
              static_cast<long long>(t.parameter_count()));
  std::printf("held-out loss %.4f, token accuracy %.4f, exact match %.4f, greedy exact match %.4f\n", e.loss,
              e.token_acc, e.exact, greedy);
  return 0;
}

}  // namespace wolab::cli
