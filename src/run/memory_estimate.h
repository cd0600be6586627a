// The memory estimate: what one run holds at its peak, and the problem a config over the limit
// gets. The settings table (lab/config.cpp) checks it without depending on the model.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "config/run_config.h"

namespace wolab {

// Most memory one run may need (see estimate_bytes): keeps a config from exhausting the page's
// wasm heap or the machine. Checked by validate() (lab/config.h).
inline constexpr uint64_t kMaxRunBytes = uint64_t(512) << 20;

// Bytes one run holds at its peak, from training to its record's JSON text or a checkpoint,
// counted from the sizes the model, Adam and the trainer allocate (model_sizes, nn/model.h), with
// the W_o snapshots when it keeps them (Trainer::keep_wo_snapshots). test_memory.cpp checks it
// against the bytes really allocated. uint64_t, not size_t: size_t is 32 bits in wasm and the
// estimate of a bad config exceeds it.
uint64_t estimate_bytes(const RunConfig& cfg, bool wo_snapshots = false);

// One line naming the setting to change when a run of a config checked field by field needs more
// than kMaxRunBytes; nullopt when it fits.
std::optional<std::string> memory_problem(const RunConfig& run, bool wo_snapshots);

}  // namespace wolab
