#include "run/memory_estimate.h"

#include <algorithm>

#include "nn/model.h"
#include "run/tasks.h"
#include "run/trainer.h"

namespace wolab {

namespace {

// The memory estimate: what one run holds at its peak, counted from the sizes that the
// model (model_sizes, its buffer table), Adam and the trainer allocate, and bounding what the
// end of a run builds from them (its record as JSON and that JSON's text, or a checkpoint).
// Measured against the malloc hook by test_memory.cpp.

// What the heap gives up for one block of `bytes`: glibc's 8-byte header, 16-byte granules and
// 32-byte minimum (Emscripten's dlmalloc takes less).
uint64_t heap_block(uint64_t bytes) { return std::max<uint64_t>(32, (bytes + 8 + 15) / 16 * 16); }

// A vector grown by push_back to n elements of `size` bytes: its capacity is at most 2n.
uint64_t grown(uint64_t n, uint64_t size) { return n ? heap_block(2 * n * size) : 0; }

// The record's JSON (lab/results.cpp) and its text (json_text, exactly sized): a number is a 16-byte
// JSON value and at most 15 characters and a separator, its value slot doubled in the series
// that grow step by step (curve, eval), exact in the arrays numbers() reserves (W_o, OV values,
// head norms); an object's key is a tree node (key string and value) and its text.
constexpr uint64_t kNumberText = 16;
constexpr uint64_t kSeriesNumber = 2 * 16 + kNumberText;
constexpr uint64_t kArrayNumber = 16 + kNumberText;
constexpr uint64_t kObjectKey = 96 + 2 * kNumberText;
constexpr uint64_t kObject = 64;  // an object's own tree, or an array's vector, and its slot

struct RunCounts {
  uint64_t probes;     // probe steps: every probe_every-th and the last
  uint64_t snapshots;  // W_o snapshots: step 0 and every probe step
};

RunCounts run_counts(const RunConfig& c) {
  const uint64_t steps = static_cast<uint64_t>(c.train.steps);
  const uint64_t every = static_cast<uint64_t>(c.train.probe_every);
  const uint64_t probes = steps / every + (steps % every != 0);
  return {probes, 1 + probes};
}

}  // namespace

// Adds up, for a config already checked field by field:
// - the model's buffer table (nn/model.h): parameters and gradients, every activation, cache and
//   scratch buffer (decoding's too), the products' workspace and the batch's tokens;
// - Adam's two moments (nn/adam.h), as many as the parameters;
// - the trainer's batch, held-out set (task.heldout sequences) and initial W_o, and its history;
// - the W_o snapshots and OV singular values when they are kept;
// - the largest of: the record's JSON with its text or, before the text, the singular values
//   of each W_o (a (C,C) Gram matrix in double, reduced in place: nn/eigenvalues.h); or a
//   checkpoint, its tensors and then its bytes (write_safetensors), or the other way round when
//   one is loaded.
uint64_t estimate_bytes(const RunConfig& config, bool wo_snapshots) {
  RunConfig c = config;
  derive(c);
  const uint64_t L = c.model.layers, C = c.model.d_model, H = c.model.heads;
  const uint64_t B = c.train.batch, T = c.model.seq_len, steps = c.train.steps;
  const RunCounts n = run_counts(c);
  const ModelSizes m = model_sizes<float>(c.model, c.train.batch);
  const uint64_t model = 4 * (2 * m.params + m.activations + m.workspace + m.tokens);
  const uint64_t adam = 4 * 2 * m.params;
  const uint64_t trainer = 4 * (2 * B * T + 2 * uint64_t(c.task.heldout) * T + L * C * C);
  // g2p: scoring a chunk of held-out words (g2p_scores): its batch, the decoder's tokens and
  // guesses, and the scores of every probe step. The lexicon is the caller's, shared by runs.
  const uint64_t g2p = c.task.kind != TaskKind::g2p
                           ? 0
                           : heap_block(4 * B * T) * 2 + 3 * heap_block(4 * B) +
                                 heap_block(24 * B) + B * heap_block(2 * T) +
                                 grown(n.probes, sizeof(G2pScores));
  const uint64_t history = g2p + 4 * steps + grown(n.probes, sizeof(EvalResult)) +
                           grown(n.probes, sizeof(ProbeRecord)) +
                           n.probes * (heap_block(L * sizeof(LayerStats)) + L * heap_block(4 * H));
  // curve and eval series; per layer and probe step a stats object of three sites; wo_sv
  uint64_t record = (2 * steps + 4 * n.probes) * kSeriesNumber +
                    n.probes * L * (12 * kObjectKey + 5 * kObject + H * kArrayNumber) +
                    L * (C * kArrayNumber + kObject) + 64 * kObjectKey;
  uint64_t snapshots = 0;
  if (wo_snapshots) {
    const uint64_t wo = n.snapshots * L, ov = wo * H;
    snapshots = grown(wo, sizeof(WoSnapshot)) + wo * heap_block(4 * C * C) +
                grown(ov, sizeof(OvSnapshot)) + ov * heap_block(4 * (C / H));
    // each wo entry: its data, head_norms and head_change_norms
    record += wo * ((C * C + 2 * H) * kArrayNumber + 7 * kObjectKey + 4 * kObject) +
              ov * ((C / H) * kArrayNumber + 4 * kObjectKey + 2 * kObject);
  }
  // singular_values of each W_o for the record: a (C,C) Gram matrix in double, reduced in place
  const uint64_t svd = 8 * C * C + 8 * 8 * C;
  // (and a W_o copy while one is made; its header, as text and as parsed JSON: a kilobyte or two
  // per tensor, three for each of the model's 16 L + 6)
  const uint64_t checkpoint =
      2 * 4 * (3 * m.params + L * C * C + steps) + 4 * C * C + 2048 * (49 * L + 20);
  return model + adam + trainer + history + snapshots + std::max(record + svd, checkpoint);
}

std::optional<std::string> memory_problem(const RunConfig& run, bool wo_snapshots) {
  const uint64_t bytes = estimate_bytes(run, wo_snapshots);
  if (bytes <= kMaxRunBytes) return std::nullopt;
  std::string mib = std::to_string((bytes + (uint64_t(1) << 20) - 1) >> 20);
  RunConfig one_step = run;  // what the run needs without its history
  one_step.train.steps = one_step.train.probe_every = 1;
  const uint64_t snapshots = bytes - estimate_bytes(run, false);
  const uint64_t history = estimate_bytes(run, false) - estimate_bytes(one_step, false);
  if (snapshots > bytes / 2)
    return "train.probe_every: this run needs about " + mib +
           " MiB, mostly W_o snapshots, over the 512 MiB limit; use a larger "
           "probe_every, fewer steps, or smaller d_model or layers";
  if (history > bytes / 2)
    return "train.steps: this run needs about " + mib +
           " MiB, mostly the record of its steps and probe steps, over the 512 MiB "
           "limit; use fewer steps or a larger probe_every";
  return "model.d_model: this run needs about " + mib +
         " MiB, over the 512 MiB limit; use smaller d_model, d_ff, layers, batch "
         "or length";
}

}  // namespace wolab
