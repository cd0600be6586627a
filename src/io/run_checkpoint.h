// A wolab checkpoint: one training run in a safetensors file (io/safetensors.h), with the
// metadata that says where the run stands and every check a file must pass before a trainer
// continues from it. The trainer fills and reads the tensors (run/trainer.h); the config travels
// as JSON text, which lab/ writes and parses (lab/checkpoints.h), so nothing here knows either.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/run_status.h"
#include "io/safetensors.h"

namespace wolab {

struct RunCheckpoint {
  std::string created_by;  // "wolab <version>"
  std::string config;      // the run's config, as JSON text
  uint64_t step = 0;       // steps trained
  uint64_t data_rng = 0;   // the state of the run's data stream after them
  RunStatus status;
  // Adam's moments included; false: a model file (metadata "optimizer": "none"), whose moments
  // start at zero when it trains on.
  bool optimizer = true;
  // The parameters under PyTorch's names, "adam.m.<name>" and "adam.v.<name>" of the trainable
  // ones (with the optimizer), "init.layers.<l>.attn.W_o.weight" (d, d) per layer, and
  // "history.loss" (step); tensors.metadata is written from the fields above.
  SafeTensors tensors;
};

// Takes `c` by value: a checkpoint's tensors are as large as the model and its moments, and
// the caller has no use for them once written (pass it with std::move).
std::vector<uint8_t> write_run_checkpoint(RunCheckpoint c);

// Throws ConfigError("checkpoint: ...") for a file that is not safetensors, not a wolab
// checkpoint of version 1, or whose metadata lacks a key or holds a value it cannot have
// (step and data_rng whole numbers, optimizer absent or "none", a status describe() writes).
RunCheckpoint read_run_checkpoint(const std::vector<uint8_t>& bytes);

// Throws ConfigError unless the step is within a run of `steps` steps and the status is one
// that step can have: otherwise the run would train past its last step (running there) or report
// steps it never trained.
void check_step_and_status(const RunCheckpoint& c, int steps);

// Copies tensor `name` of `st` into out, once it is there, of `shape` and finite (and, with
// non_negative, without a negative value); throws ConfigError("checkpoint: tensor <name> ...").
void take_tensor(const SafeTensors& st, const std::string& name, const std::vector<int64_t>& shape, float* out,
                 bool non_negative = false);

}  // namespace wolab
