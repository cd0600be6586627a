#include "cli/progress.h"

#include <unistd.h>

#include <cstdio>

#include "lab/config.h"
#include "lab/status_json.h"

namespace wolab::cli {

Progress::Progress() : tty_(isatty(fileno(stderr))), start_(Clock::now()), last_draw_(start_) {}

void Progress::operator()(int run, int runs, const Trainer& t) {
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

void Progress::finish() {
  if (tty_) std::fprintf(stderr, "\r\x1b[K");
  std::fprintf(stderr, "trained in %s\n", format_seconds(seconds()).c_str());
}

std::string Progress::last_loss(const Trainer& t) {
  if (t.losses().empty()) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", t.losses().back());
  return buf;
}

std::string Progress::format_seconds(double s) {
  char buf[32];
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%.1f s", s);
  else
    std::snprintf(buf, sizeof buf, "%dm%02ds", int(s) / 60, int(s) % 60);
  return buf;
}

double Progress::seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

}  // namespace wolab::cli
