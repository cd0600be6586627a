#include "io/run_checkpoint.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "io/messages.h"

namespace wolab {

std::vector<uint8_t> write_run_checkpoint(RunCheckpoint c) {
  SafeTensors& st = c.tensors;
  st.metadata = {{"format", "wolab-checkpoint"},
                 {"version", "1"},
                 {"created_by", c.created_by},
                 {"config", c.config},
                 {"step", std::to_string(c.step)},
                 {"data_rng", std::to_string(c.data_rng)},
                 {"status", describe(c.status)}};
  if (!c.optimizer) st.metadata["optimizer"] = "none";
  return write_safetensors(st);
}

RunCheckpoint read_run_checkpoint(const std::vector<uint8_t>& bytes) {
  RunCheckpoint c;
  c.tensors = read_safetensors(bytes.data(), bytes.size());
  const std::map<std::string, std::string>& metadata = c.tensors.metadata;
  auto meta = [&](const std::string& key) -> const std::string& {
    auto it = metadata.find(key);
    if (it == metadata.end()) throw ConfigError("checkpoint: metadata has no \"" + key + "\"");
    return it->second;
  };
  if (meta("format") != "wolab-checkpoint" || meta("version") != "1")
    throw ConfigError("checkpoint: not a wolab checkpoint of version 1");
  auto whole_number = [&](const std::string& key) {
    const std::string& text = meta(key);
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
      throw ConfigError("checkpoint: metadata \"" + key + "\" is not a whole number");
    try {
      return std::stoull(text);
    } catch (const std::out_of_range&) {
      throw ConfigError("checkpoint: metadata \"" + key + "\" is too large");
    }
  };
  c.config = meta("config");
  const auto created_by = metadata.find("created_by");
  if (created_by != metadata.end()) c.created_by = created_by->second;
  const auto optimizer = metadata.find("optimizer");
  if (optimizer != metadata.end() && optimizer->second != "none")
    throw ConfigError("checkpoint: metadata \"optimizer\" is " + in_quotes(optimizer->second) + "; only \"none\" is known");
  c.optimizer = optimizer == metadata.end();
  c.step = whole_number("step");
  c.data_rng = whole_number("data_rng");
  const auto status = status_from_description(meta("status"));
  if (!status) throw ConfigError("checkpoint: unknown status " + in_quotes(meta("status")));
  c.status = *status;
  return c;
}

void check_step_and_status(const RunCheckpoint& c, int steps) {
  if (c.step > static_cast<uint64_t>(steps)) throw ConfigError("checkpoint: step is past the config's train.steps");
  // A run diverges at the step whose training loss was not finite (one past those kept) or whose
  // held-out loss after its update was not (the last).
  const int s = static_cast<int>(c.step);
  const RunStatus& status = c.status;
  const bool fits = status.state == RunStatus::State::running   ? s < steps
                    : status.state == RunStatus::State::done    ? s == steps
                    : status.state == RunStatus::State::stopped ? status.step == s && s < steps
                    : (status.step == s + 1 && s < steps) || (status.step == s && s > 0);
  if (!fits)
    throw ConfigError("checkpoint: status \"" + describe(status) + "\" does not fit step " + std::to_string(s) +
                      " of " + std::to_string(steps));
}

void take_tensor(const SafeTensors& st, const std::string& name, const std::vector<int64_t>& shape, float* out,
                 bool non_negative) {
  // F32, or F16 in a half model file (half_model, io/safetensors.h), widened exactly.
  Tensor<float> widened;
  auto it = st.f32.find(name);
  if (it == st.f32.end()) {
    auto half = st.f16.find(name);
    if (half == st.f16.end()) throw ConfigError("checkpoint: tensor " + name + " is missing");
    widened.shape = half->second.shape;
    for (uint16_t h : half->second.data) widened.data.push_back(float_from_half(h));
  }
  const Tensor<float>& t = it == st.f32.end() ? widened : it->second;
  if (t.shape != shape) throw ConfigError("checkpoint: tensor " + name + " has the wrong shape for its config");
  for (float x : t.data) {
    if (!std::isfinite(x)) throw ConfigError("checkpoint: tensor " + name + " is not finite");
    if (non_negative && x < 0) throw ConfigError("checkpoint: tensor " + name + " has a negative value");
  }
  std::copy(t.data.begin(), t.data.end(), out);
}

}  // namespace wolab
