#include "config/run_config.h"

#include <vector>

namespace wolab {

// Names in enum order: to_string indexes them, *_from_string searches them.
const std::vector<std::string> kWoNames = {"learned",
                                           "identity",
                                           "frozen_random",
                                           "learned_identity_init",
                                           "frozen_random_scaled",
                                           "frozen_orthogonal",
                                           "block_diagonal",
                                           "scalar_gain",
                                           "identity_matched"};
const std::vector<std::string> kLnNames = {"post", "pre"};
const std::vector<std::string> kTaskNames = {"copy", "reverse", "sort", "g2p"};
const std::vector<std::string> kScheduleNames = {"constant", "cosine"};

namespace {

template <class E>
std::optional<E> enum_from(const std::vector<std::string>& names, const std::string& s) {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == s) return static_cast<E>(i);
  return std::nullopt;
}

template <class E>
const char* enum_name(const std::vector<std::string>& names, E e) {
  size_t i = static_cast<size_t>(e);
  return i < names.size() ? names[i].c_str() : "?";
}

}  // namespace

int ffn_width(const ModelConfig& m) {
  if (m.wo != WoMode::identity_matched) return m.d_ff;
  // the nearest integer to d(d+1)/(2d+1), in integers: ⌊(2·d(d+1) + (2d+1)) / (2·(2d+1))⌋
  const int64_t d = m.d_model, unit = 2 * d + 1;
  return m.d_ff + static_cast<int>((2 * d * (d + 1) + unit) / (2 * unit));
}

std::optional<WoMode> wo_mode_from_string(const std::string& s) { return enum_from<WoMode>(kWoNames, s); }
std::optional<LnPlace> ln_place_from_string(const std::string& s) { return enum_from<LnPlace>(kLnNames, s); }
std::optional<TaskKind> task_kind_from_string(const std::string& s) { return enum_from<TaskKind>(kTaskNames, s); }
std::optional<LrSchedule> lr_schedule_from_string(const std::string& s) {
  return enum_from<LrSchedule>(kScheduleNames, s);
}
const char* to_string(WoMode m) { return enum_name(kWoNames, m); }
const char* to_string(LnPlace p) { return enum_name(kLnNames, p); }
const char* to_string(TaskKind t) { return enum_name(kTaskNames, t); }
const char* to_string(LrSchedule s) { return enum_name(kScheduleNames, s); }

}  // namespace wolab
