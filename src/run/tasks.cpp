#include "run/tasks.h"

#include <algorithm>
#include <string>

#include "run/g2p.h"

namespace wolab {

void derive(RunConfig& run) {
  if (run.task.kind == TaskKind::g2p) {
    run.model.vocab = kG2pVocab;
    run.model.seq_len = kG2pSeqLen;
    return;
  }
  run.model.vocab = run.task.alphabet + 2;     // symbols, BOS, SEP
  run.model.seq_len = 2 * run.task.length + 1;  // [BOS] x [SEP] y without its last token
}

void fill_batch(Batch& batch, const TaskConfig& task, Rng& rng) {
  const int L = task.length, T = 2 * L + 1;
  int seq[2 * 64 + 2];  // [BOS] x (L) [SEP] y (L); L ≤ 64 by validation
  for (int b = 0; b < batch.size; b++) {
    seq[0] = bos_token(task);
    for (int i = 0; i < L; i++) seq[1 + i] = rng.below(task.alphabet);
    seq[L + 1] = sep_token(task);
    int* y = seq + L + 2;
    std::copy(seq + 1, seq + 1 + L, y);
    if (task.kind == TaskKind::reverse) std::reverse(y, y + L);
    if (task.kind == TaskKind::sort) std::sort(y, y + L);
    int* in = &batch.input[b * T];
    int* tg = &batch.target[b * T];
    for (int t = 0; t < T; t++) {
      in[t] = seq[t];
      tg[t] = t >= first_answer_position(task) ? seq[t + 1] : -1;
    }
  }
}

Batch alloc_batch(const TaskConfig& task, int size) {
  Batch batch;
  batch.size = size;
  batch.seq_len = 2 * task.length + 1;
  batch.input.resize(static_cast<size_t>(size) * batch.seq_len);
  batch.target.resize(batch.input.size());
  return batch;
}

Batch heldout_set(const TaskConfig& task, int size) {
  const std::string key = std::string("heldout/") + to_string(task.kind) + "/" +
                          std::to_string(task.alphabet) + "/" + std::to_string(task.length);
  Rng rng(stream_seed(0x5EEDull, key));
  Batch batch = alloc_batch(task, size);
  fill_batch(batch, task, rng);
  return batch;
}

}  // namespace wolab
