// A trainer to and from its checkpoint file: the tensors and state the trainer keeps
// (Trainer::checkpoint, io/run_checkpoint.h) with the run's config as the settings table writes
// it (lab/config.h), which is checked before a trainer is made of it. The CLI, the page and the
// tests save and load runs through these two.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "run/trainer.h"

namespace wolab {

// safetensors bytes with PyTorch names, Adam moments and the step, so that a trainer made
// from them continues exactly as `t` would. Without `optimizer`, a model file: no Adam
// moments (a third of the size) and metadata "optimizer": "none"; a trainer made from it
// predicts and evaluates the same, and trains on with Adam's moments started at zero.
std::vector<uint8_t> save_checkpoint(const Trainer& t, bool optimizer = true);

// Throws ConfigError naming what is wrong with the file or its config; `g2p` as for the
// Trainer's constructor.
Trainer load_checkpoint(const std::vector<uint8_t>& bytes, std::shared_ptr<const G2pData> g2p = nullptr);

}  // namespace wolab
