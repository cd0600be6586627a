#include "lab/wo_files.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>

#include "io/messages.h"
#include "io/safetensors.h"

namespace wolab {

using json = nlohmann::json;

namespace {

constexpr char kWoFileFormat[] = "wolab-wo-snapshots";
constexpr char kWoFileVersion[] = "1";
constexpr char kSuffix[] = ".safetensors";

[[noreturn]] void wo_file_fail(const std::string& what) { throw ConfigError("wo file: " + what); }

std::string tensor_name(int step, int layer) {
  return "step." + std::to_string(step) + ".layers." + std::to_string(layer) + ".attn.W_o.weight";
}

}  // namespace

bool is_wo_file_name(const std::string& name) {
  const size_t n = std::strlen(kSuffix);
  if (name.size() <= n || name.size() > 200 || name[0] == '.' || name.compare(name.size() - n, n, kSuffix) != 0)
    return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-')) return false;
  return true;
}

std::string wo_file_name(const std::string& stem, const std::string& variant, uint64_t seed) {
  return stem + "." + variant + ".seed" + std::to_string(seed) + kSuffix;
}

void name_wo_files(std::vector<json>& runs, const std::string& stem) {
  for (json& run : runs) {
    if (!run.is_object() || !run.contains("wo") || !run["wo"].is_array() || run["wo"].empty()) continue;
    const json &variant = run["variant"], &seed = run["seed"];
    if (variant.is_string() && seed.is_number_unsigned())
      run["wo_file"] = wo_file_name(stem, variant.get<std::string>(), seed.get<uint64_t>());
  }
}

WoSplit split_wo_snapshots(json results, const std::string& stem) {
  WoSplit out;
  std::set<std::string> names;
  for (json& run : results["runs"]) {
    if (run["wo"].empty()) continue;
    const std::string variant = run["variant"].get<std::string>();
    const uint64_t seed = run["seed"].get<uint64_t>();
    const std::string name = wo_file_name(stem, variant, seed);
    if (!is_wo_file_name(name)) wo_file_fail(in_quotes(name) + " is not a plain file name");
    if (!names.insert(name).second) wo_file_fail("two runs would both write " + in_quotes(name));
    SafeTensors st;
    st.metadata = {{"format", kWoFileFormat}, {"version", kWoFileVersion}, {"variant", variant},
                   {"seed", std::to_string(seed)}};
    for (json& entry : run["wo"]) {
      const int step = entry["step"].get<int>(), layer = entry["layer"].get<int>();
      const int64_t rows = entry["rows"].get<int64_t>(), cols = entry["cols"].get<int64_t>();
      Tensor<uint16_t> t;
      t.shape = {rows, cols};
      t.data.reserve(static_cast<size_t>(rows * cols));
      for (const json& x : entry["data"]) {
        const float v = x.get<float>();
        if (!(std::fabs(v) < 65520.0f))
          wo_file_fail(in_quotes(name) + ": a value of step " + std::to_string(step) + ", layer " + std::to_string(layer) +
               " does not fit a float16");
        t.data.push_back(half_from_float(v));
      }
      st.f16[tensor_name(step, layer)] = std::move(t);
      entry.erase("data");
    }
    run["wo_file"] = name;
    out.files.push_back({name, write_safetensors(st)});
  }
  out.results = std::move(results);
  return out;
}

WoSnapshots read_wo_file(const uint8_t* bytes, size_t size) {
  SafeTensors st;
  try {
    st = read_safetensors(bytes, size);
  } catch (const ConfigError& e) {
    std::string what = e.what();
    const std::string prefix = "checkpoint: ";
    wo_file_fail(what.compare(0, prefix.size(), prefix) == 0 ? what.substr(prefix.size()) : what);
  }
  auto meta = [&](const char* key) {
    const auto it = st.metadata.find(key);
    if (it == st.metadata.end()) wo_file_fail(std::string("metadata has no ") + in_quotes(key));
    return it->second;
  };
  if (meta("format") != kWoFileFormat)
    wo_file_fail("format is " + in_quotes(meta("format")) + ", expected " + in_quotes(kWoFileFormat));
  if (meta("version") != kWoFileVersion)
    wo_file_fail("version " + in_quotes(meta("version")) + " is not supported; expected " + kWoFileVersion);
  WoSnapshots out;
  out.variant = meta("variant");
  const std::string seed = meta("seed");
  if (seed.empty() || seed.size() > 19 || seed.find_first_not_of("0123456789") != std::string::npos)
    wo_file_fail("seed " + in_quotes(seed) + " is not a number");
  out.seed = std::stoull(seed);
  if (!st.f32.empty() || !st.i32.empty()) wo_file_fail("every tensor must be F16");
  for (const auto& [name, t] : st.f16) {
    int step = -1, layer = -1;
    if (std::sscanf(name.c_str(), "step.%d.layers.%d.", &step, &layer) != 2 || step < 0 || layer < 0 ||
        tensor_name(step, layer) != name)
      wo_file_fail("tensor " + in_quotes(name) + " is not named step.<step>.layers.<layer>.attn.W_o.weight");
    if (t.shape.size() != 2 || t.shape[0] < 1 || t.shape[1] < 1 || t.shape[0] > 65536 || t.shape[1] > 65536)
      wo_file_fail("tensor " + in_quotes(name) + " is not a matrix");
    WoMatrix m{step, layer, static_cast<int>(t.shape[0]), static_cast<int>(t.shape[1]), {}};
    m.data.reserve(t.data.size());
    for (uint16_t h : t.data) {
      const float v = float_from_half(h);
      if (!std::isfinite(v)) wo_file_fail("tensor " + in_quotes(name) + " holds a value that is not finite");
      m.data.push_back(v);
    }
    out.matrices.push_back(std::move(m));
  }
  std::sort(out.matrices.begin(), out.matrices.end(), [](const WoMatrix& a, const WoMatrix& b) {
    return a.step != b.step ? a.step < b.step : a.layer < b.layer;
  });
  return out;
}

}  // namespace wolab
