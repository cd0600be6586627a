// The toy sequence tasks: [BOS] x1..xL [SEP] y1..yL with y = x (copy), reversed x, or sorted x.
// The model reads the sequence without its last token and predicts the next one; only the L
// answer positions carry a target, the others are -1 (ignored by the loss and the metrics).
#pragma once

#include <vector>

#include "config/run_config.h"
#include "nn/rng.h"

namespace wolab {

struct Batch {
  int size = 0, seq_len = 0;
  std::vector<int> input;   // (size, seq_len)
  std::vector<int> target;  // (size, seq_len), -1 where nothing is predicted
};

// Room for `size` examples, not yet filled.
Batch alloc_batch(const TaskConfig& task, int size);
// Fills `batch` (from alloc_batch) with fresh examples drawn from `rng`.
void fill_batch(Batch& batch, const TaskConfig& task, Rng& rng);

// The fixed held-out set of (task, alphabet, length): independent of the run's seed, so every
// run of every variant is judged on the same examples. Its first `size` examples of one stream:
// a smaller set is a prefix of a larger one.
Batch heldout_set(const TaskConfig& task, int size);

// Sets the derived fields (vocab, seq_len) from the task: its tokens and its longest example
// (the toy tasks' layout above, g2p's in run/g2p.h).
void derive(RunConfig& run);

inline int bos_token(const TaskConfig& t) { return t.alphabet; }
inline int sep_token(const TaskConfig& t) { return t.alphabet + 1; }
inline int first_answer_position(const TaskConfig& t) { return t.length + 1; }

}  // namespace wolab
