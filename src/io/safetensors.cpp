#include "io/safetensors.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

#include <nlohmann/json.hpp>

#include "io/json_input.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "safetensors data is little-endian and is copied as is");

namespace wolab {

using json = nlohmann::json;

namespace {

// The safetensors library refuses larger headers too.
constexpr uint64_t kMaxHeaderBytes = 100 << 20;

[[noreturn]] void fail(const std::string& what) { throw ConfigError("checkpoint: " + what); }

// product(shape), or fail when it is negative or overflows what memory could hold.
uint64_t element_count(const std::string& name, const std::vector<int64_t>& shape) {
  uint64_t n = 1;
  for (int64_t dim : shape) {
    if (dim < 0) fail("tensor " + in_quotes(name) + " has a negative dimension");
    if (dim != 0 && n > (uint64_t(1) << 40) / static_cast<uint64_t>(dim))
      fail("tensor " + in_quotes(name) + " has an impossibly large shape");
    n *= static_cast<uint64_t>(dim);
  }
  return n;
}

// Adds the header entry of a tensor whose data will start at `size`, and advances `size` past it.
template <class T>
void add_entry(json& header, size_t& size, const std::string& name, const Tensor<T>& t,
               const char* dtype) {
  if (name == "__metadata__" || header.contains(name))
    fail("tensor name " + in_quotes(name) + " is used twice");
  if (element_count(name, t.shape) != t.data.size())
    fail("tensor " + in_quotes(name) + " has " + std::to_string(t.data.size()) +
         " values, not the product of its shape");
  const size_t begin = size;
  size += t.data.size() * sizeof(T);
  header[name] = {{"dtype", dtype}, {"shape", t.shape}, {"data_offsets", {begin, size}}};
}

// Copies the tensors' data in header order to `out`; returns the end of what it wrote.
template <class T>
uint8_t* copy_data(uint8_t* out, const std::map<std::string, Tensor<T>>& tensors) {
  for (const auto& entry : tensors) {
    const std::vector<T>& data = entry.second.data;
    if (!data.empty()) std::memcpy(out, data.data(), data.size() * sizeof(T));
    out += data.size() * sizeof(T);
  }
  return out;
}

// A header entry checked field by field; `begin`/`end` are offsets into the data section.
struct Entry {
  std::string name, dtype;
  std::vector<int64_t> shape;
  uint64_t begin = 0, end = 0;
};

Entry read_entry(const std::string& name, const json& v) {
  Entry e;
  e.name = name;
  std::string t = "tensor " + in_quotes(name);
  if (!v.is_object()) fail(t + " is not an object");
  if (!v.contains("dtype") || !v["dtype"].is_string()) fail(t + " has no dtype string");
  e.dtype = v["dtype"].get<std::string>();
  if (e.dtype != "F32" && e.dtype != "I32" && e.dtype != "F16")
    fail(t + " has dtype " + in_quotes(e.dtype) + "; only F32, I32 and F16 are supported");
  if (!v.contains("shape") || !v["shape"].is_array()) fail(t + " has no shape array");
  for (const json& dim : v["shape"]) {
    if (!dim.is_number_integer() || dim.get<int64_t>() < 0)
      fail(t + " has a shape entry that is not a non-negative integer");
    e.shape.push_back(dim.get<int64_t>());
  }
  const json* off = v.contains("data_offsets") ? &v["data_offsets"] : nullptr;
  if (!off || !off->is_array() || off->size() != 2 || !(*off)[0].is_number_unsigned() ||
      !(*off)[1].is_number_unsigned())
    fail(t + " has no data_offsets [begin, end] of non-negative integers");
  e.begin = (*off)[0].get<uint64_t>();
  e.end = (*off)[1].get<uint64_t>();
  if (e.end < e.begin) fail(t + " has data_offsets ending before they begin");
  if (element_count(name, e.shape) * (e.dtype == "F16" ? 2 : 4) != e.end - e.begin)
    fail(t + " has " + std::to_string(e.end - e.begin) + " bytes of data, which does not match its shape");
  return e;
}

template <class T>
Tensor<T> copy_tensor(const Entry& e, const uint8_t* data) {
  Tensor<T> t;
  t.shape = e.shape;
  t.data.resize((e.end - e.begin) / sizeof(T));
  if (!t.data.empty()) std::memcpy(t.data.data(), data + e.begin, e.end - e.begin);
  return t;
}

}  // namespace

std::vector<uint8_t> write_safetensors(const SafeTensors& st) {
  // The header first, then the data copied once, straight into the file's bytes.
  json header = json::object();
  size_t size = 0;
  for (const auto& [name, t] : st.f32) add_entry(header, size, name, t, "F32");
  for (const auto& [name, t] : st.i32) add_entry(header, size, name, t, "I32");
  for (const auto& [name, t] : st.f16) add_entry(header, size, name, t, "F16");
  if (!st.metadata.empty()) header["__metadata__"] = st.metadata;
  std::string text = header.dump(-1, ' ', false, json::error_handler_t::replace);
  text.append((8 - text.size() % 8) % 8, ' ');
  const uint64_t n = text.size();
  std::vector<uint8_t> out(8 + text.size() + size);
  std::memcpy(out.data(), &n, 8);
  std::memcpy(out.data() + 8, text.data(), text.size());
  copy_data(copy_data(copy_data(out.data() + 8 + text.size(), st.f32), st.i32), st.f16);
  return out;
}

SafeTensors read_safetensors(const uint8_t* bytes, size_t size) {
  if (size < 8) fail("file is " + std::to_string(size) + " bytes, too short for a safetensors header");
  uint64_t n;
  std::memcpy(&n, bytes, 8);
  if (n > size - 8)
    fail("header length " + std::to_string(n) + " goes beyond the end of the " + std::to_string(size) +
         "-byte file");
  if (n > kMaxHeaderBytes) fail("header length " + std::to_string(n) + " is over 100 MiB");
  std::string problem;
  const auto text = reinterpret_cast<const char*>(bytes + 8);
  const std::optional<json> parsed = parse_json(text, text + n, problem);
  if (!parsed || !parsed->is_object()) fail("header is not a JSON object");
  const json& header = *parsed;

  SafeTensors st;
  std::vector<Entry> entries;
  for (const auto& item : header.items()) {
    if (item.key() == "__metadata__") {
      if (!item.value().is_object()) fail("__metadata__ is not an object");
      for (const auto& m : item.value().items()) {
        if (!m.value().is_string()) fail("__metadata__ value " + in_quotes(m.key()) + " is not a string");
        st.metadata[m.key()] = m.value().get<std::string>();
      }
    } else {
      entries.push_back(read_entry(item.key(), item.value()));
    }
  }

  // The tensors must tile the data section exactly, as the safetensors format requires.
  uint64_t data_size = size - 8 - n;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  uint64_t covered = 0;
  for (const Entry& e : entries) {
    if (e.end > data_size)
      fail("tensor " + in_quotes(e.name) + " ends at byte " + std::to_string(e.end) +
           ", beyond the data section of " + std::to_string(data_size) + " bytes");
    if (e.begin < covered) fail("tensor " + in_quotes(e.name) + " overlaps another tensor");
    if (e.begin > covered) fail("tensor " + in_quotes(e.name) + " leaves a gap in the data before it");
    covered = e.end;
  }
  if (covered != data_size)
    fail(std::to_string(data_size - covered) + " bytes after the last tensor belong to no tensor");

  const uint8_t* data = bytes + 8 + n;
  for (const Entry& e : entries) {
    if (e.dtype == "F32")
      st.f32[e.name] = copy_tensor<float>(e, data);
    else if (e.dtype == "I32")
      st.i32[e.name] = copy_tensor<int32_t>(e, data);
    else
      st.f16[e.name] = copy_tensor<uint16_t>(e, data);
  }
  return st;
}

std::vector<uint8_t> read_file_bytes(const std::string& path) {
  // stdio rather than ifstream: fread reports a directory (EISDIR) where a stream just ends.
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw ConfigError("cannot read " + path + ": " + std::strerror(errno));
  std::vector<uint8_t> bytes;
  uint8_t chunk[1 << 16];
  size_t got;
  while ((got = std::fread(chunk, 1, sizeof chunk, f)) > 0) bytes.insert(bytes.end(), chunk, chunk + got);
  int err = std::ferror(f) ? errno : 0;
  std::fclose(f);
  if (err) throw ConfigError("cannot read " + path + ": " + std::strerror(err));
  return bytes;
}

void write_file_atomic(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::string partial = path + ".partial";
  std::FILE* f = std::fopen(partial.c_str(), "wb");
  if (!f) throw ConfigError("cannot write " + path + ": " + std::strerror(errno));
  bool ok = (bytes.empty() || std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size());
  int err = errno;
  ok = (std::fclose(f) == 0) && ok;
  if (!ok || std::rename(partial.c_str(), path.c_str()) != 0) {
    if (ok) err = errno;
    std::remove(partial.c_str());
    throw ConfigError("cannot write " + path + ": " + std::strerror(err));
  }
}

void write_file_atomic(const std::string& path, const std::string& text) {
  write_file_atomic(path, std::vector<uint8_t>(text.begin(), text.end()));
}

// The nearest float16 to a finite x below 65520 in magnitude (beyond it the nearest is
// infinity), ties to even, as IEEE 754 rounds.
uint16_t half_from_float(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  const uint32_t a = bits & 0x7fffffff;
  if (a < 0x38800000) {
    // Below float16's smallest normal, 2^-14: a multiple of 2^-24. x·2^24 is exact in float
    // and nearbyint rounds it to even; 1024 of them is the smallest normal, which is its code.
    float m;
    std::memcpy(&m, &a, 4);
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(m * 16777216.0f)));
  }
  // Rebias the exponent (127 − 15) and drop 13 mantissa bits, rounding half to even; a carry
  // out of the mantissa steps the exponent up, as it should.
  const uint32_t r = a - 0x38000000;
  return static_cast<uint16_t>(sign | ((r + 0x0fff + ((r >> 13) & 1)) >> 13));
}

float float_from_half(uint16_t h) {
  const int exponent = (h >> 10) & 31, mantissa = h & 1023;
  float v = exponent == 0    ? std::ldexp(static_cast<float>(mantissa), -24)
            : exponent == 31 ? (mantissa ? NAN : INFINITY)
                             : std::ldexp(static_cast<float>(mantissa | 1024), exponent - 25);
  return (h & 0x8000) ? -v : v;
}

std::vector<uint8_t> half_model(const std::vector<uint8_t>& model_file) {
  SafeTensors st = read_safetensors(model_file.data(), model_file.size());
  const auto optimizer = st.metadata.find("optimizer");
  if (optimizer == st.metadata.end() || optimizer->second != "none")
    throw ConfigError("half model: not a model file (it has optimizer state); save one with --save-checkpoints");
  for (auto it = st.f32.begin(); it != st.f32.end();) {
    if (it->first == "history.loss") {
      ++it;
      continue;
    }
    Tensor<uint16_t> half{it->second.shape, {}};
    for (float x : it->second.data) {
      if (!(std::fabs(x) < 65504.0f)) throw ConfigError("half model: tensor " + it->first + " is beyond float16's range");
      half.data.push_back(half_from_float(x));
    }
    st.f16[it->first] = std::move(half);
    it = st.f32.erase(it);
  }
  return write_safetensors(st);
}

}  // namespace wolab
