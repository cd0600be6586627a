#include "cli/summary.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "lab/config.h"
#include "lab/experiment.h"
#include "lab/status_json.h"

namespace wolab::cli {

namespace {

using json = nlohmann::json;

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

}  // namespace

void print_summary(const json& results) {
  const ExperimentInfo* exp = find_experiment(results["experiment"].get<std::string>());
  std::vector<std::string> problems;
  const RunConfig c = run_config(*exp, read_config(results["config"], problems));  // checked by make_results
  const bool g2p = c.task.kind == TaskKind::g2p;
  const std::string task = g2p ? std::string("g2p (CMUdict)")
                               : std::string(to_string(c.task.kind)) + ", alphabet " + std::to_string(c.task.alphabet) +
                                     ", length " + std::to_string(c.task.length);
  // Worded as the report words it (analysis/report_text.cpp): "4 heads, 2 layers".
  std::printf("\n%s: %s; d_model %d, %d head%s, %d layer%s, d_ff %d, %s-LN; %d steps\n",
              results["experiment"].get<std::string>().c_str(), task.c_str(), c.model.d_model, c.model.heads,
              c.model.heads == 1 ? "" : "s", c.model.layers, c.model.layers == 1 ? "" : "s", c.model.d_ff,
              to_string(c.model.ln), c.train.steps);
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

}  // namespace wolab::cli
