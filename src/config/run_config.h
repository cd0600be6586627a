// The settings of one training run as plain structs: the model, its task and its training.
// config/ is the bottom layer of the core: it includes nothing of the project, and everything
// above includes it (nn/ and io/ nothing else of the project but each other's headers:
// tests/native/test_layers.cpp). The settings table that reads, writes and checks these
// is lab/config.h; the fields derived from the task are run/tasks.h's derive().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wolab {

// frozen_random_scaled is frozen_random's matrix times √3 (E‖W‖²_F = d, like I's);
// frozen_orthogonal is a random orthogonal matrix (every singular value 1). Three controls, each
// one change away from learned or identity (docs/config.md, "The W_o variants"): block_diagonal
// is learned's W_o with the blocks between heads held at exactly 0; scalar_gain has no matrix,
// one learned scalar per layer times the concat, starting at learned's initial gain
// (kLearnedWoGain, nn/model.h); identity_matched is identity with the FFN widened to learned's
// parameter count (ffn_width).
enum class WoMode {
  learned,
  identity,
  frozen_random,
  learned_identity_init,
  frozen_random_scaled,
  frozen_orthogonal,
  block_diagonal,
  scalar_gain,
  identity_matched
};
// W_o exists but is never trained (and has no bias).
inline bool wo_frozen(WoMode m) {
  return m == WoMode::frozen_random || m == WoMode::frozen_random_scaled ||
         m == WoMode::frozen_orthogonal;
}
// No W_o at all: the heads' concat goes into the residual stream as it is.
inline bool wo_absent(WoMode m) { return m == WoMode::identity || m == WoMode::identity_matched; }
enum class LnPlace { post, pre };
// g2p: a word's pronunciation from its spelling (run/g2p.h, docs/g2p.md).
enum class TaskKind { copy, reverse, sort, g2p };
// The learning rate over a run: constant, or a linear warmup then a cosine decay to a floor
// (nn/adam.h, learning_rate()).
enum class LrSchedule { constant, cosine };

struct ModelConfig {
  int d_model = 64;
  int heads = 4;
  int layers = 2;
  int d_ff = 256;  // the setting; the model's FFN is ffn_width() wide
  LnPlace ln = LnPlace::post;
  WoMode wo = WoMode::learned;
  int vocab = 12;    // derived: alphabet + 2 (BOS, SEP); g2p's 68 tokens (run/g2p.h)
  int seq_len = 17;  // derived: model input length 2·length + 1; g2p's longest example, 28
};

struct TaskConfig {
  TaskKind kind = TaskKind::copy;
  int alphabet = 10;  // not used by g2p, whose symbols are letters and phonemes
  int length = 8;     // not used by g2p, whose words vary in length
  // held-out sequences: the first `heldout` of one fixed stream (tasks.h); g2p: of the held-out
  // words, the fixed subset measured at probe steps (run/g2p.h)
  int heldout = 512;
};

struct TrainConfig {
  int steps = 400;
  int batch = 32;
  float lr = 1e-3f;          // the constant rate, or the cosine schedule's peak
  LrSchedule schedule = LrSchedule::constant;
  int warmup = 0;            // cosine: steps of linear warmup to lr
  float lr_min = 0;          // cosine: the floor it decays to at the last step
  float beta1 = 0.9f;
  float beta2 = 0.98f;
  float eps = 1e-9f;
  float clip = 1.0f;       // global gradient-norm clip; 0 disables
  int probe_every = 25;    // activation stats, W_o snapshots and held-out eval every N steps
  int loss_every = 1;      // the record's loss curve: one point per N steps, their mean loss (not the training's)
  uint64_t seed = 0;
};

// The FFN's hidden width of a model of `m`: model.d_ff, but for identity_matched, which adds the
// units nearest to W_o's d² + d parameters (2d + 1 each: a row of fc1, its bias, a column of
// fc2), so that its parameter count is learned's within half a unit per layer.
int ffn_width(const ModelConfig& m);

// One training run: one model, one W_o mode, one seed.
struct RunConfig {
  ModelConfig model;
  TaskConfig task;
  TrainConfig train;
};

const char* to_string(WoMode m);
const char* to_string(LnPlace p);
const char* to_string(TaskKind t);
const char* to_string(LrSchedule s);

// The names of each enum's values, in enum order (the settings table's choices).
extern const std::vector<std::string> kWoNames;
extern const std::vector<std::string> kLnNames;
extern const std::vector<std::string> kTaskNames;
extern const std::vector<std::string> kScheduleNames;

std::optional<WoMode> wo_mode_from_string(const std::string& s);
std::optional<LnPlace> ln_place_from_string(const std::string& s);
std::optional<TaskKind> task_kind_from_string(const std::string& s);
std::optional<LrSchedule> lr_schedule_from_string(const std::string& s);

}  // namespace wolab
