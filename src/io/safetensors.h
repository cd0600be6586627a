// safetensors files (https://github.com/huggingface/safetensors), independent of the model:
// 8 bytes little-endian header length N, N bytes of JSON header
// {"name": {"dtype": "F32", "shape": [..], "data_offsets": [begin, end]}, "__metadata__": {..}},
// then the raw little-endian tensor data (offsets relative to its start). Trainer's checkpoints
// use it; they load in Python with a few lines of numpy (or torch.from_numpy):
//
//   import json, struct, numpy as np
//   b = open("run.safetensors", "rb").read()
//   n = struct.unpack("<Q", b[:8])[0]; header = json.loads(b[8:8 + n])
//   meta = header.pop("__metadata__", {})
//   tensors = {k: np.frombuffer(b[8 + n + v["data_offsets"][0]:8 + n + v["data_offsets"][1]],
//                               dtype={"F32": "<f4", "I32": "<i4", "F16": "<f2"}[v["dtype"]]).reshape(v["shape"])
//              for k, v in header.items()}
//
// (or `safetensors.numpy.load_file("run.safetensors")` where that package is installed).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "io/messages.h"

namespace wolab {

template <class T>
struct Tensor {
  std::vector<int64_t> shape;
  std::vector<T> data;  // row-major, product(shape) elements
};

struct SafeTensors {
  std::map<std::string, std::string> metadata;  // "__metadata__": string to string only
  std::map<std::string, Tensor<float>> f32;     // dtype F32
  std::map<std::string, Tensor<int32_t>> i32;   // dtype I32
  std::map<std::string, Tensor<uint16_t>> f16;  // dtype F16, IEEE half-precision bit patterns
};

// Tensors in name order, header padded with spaces to a multiple of 8 bytes so the data is
// aligned. Throws ConfigError("checkpoint: ...") when a name is used twice or a shape does not
// match its data.
std::vector<uint8_t> write_safetensors(const SafeTensors& st);

// Throws ConfigError("checkpoint: <what is wrong>") on anything malformed: short file, header
// length beyond the file, header not a JSON object, unknown dtype, shape or offsets out of range,
// overlapping or leaving gaps in the data, size not matching the shape. F32, I32 and F16 only.
// Reads little-endian data by memcpy: the hosts we build for (x86-64, wasm32) are little-endian,
// which safetensors.cpp asserts at compile time.
SafeTensors read_safetensors(const uint8_t* bytes, size_t size);

// Whole file; throws ConfigError("cannot read <path>: <reason>").
std::vector<uint8_t> read_file_bytes(const std::string& path);

// The nearest float16 (IEEE bit pattern) to a finite x below 65520 in magnitude (beyond it the
// nearest is infinity), ties to even; and back, exactly.
uint16_t half_from_float(float x);
float float_from_half(uint16_t h);

// A model file (a checkpoint without Adam's moments, metadata "optimizer": "none") with its
// weights in float16: every F32 tensor but "history.loss" rounded to the nearest, half the
// bytes. A trainer reads it as it reads the float32 file, widening each value exactly. Throws
// ConfigError for a checkpoint with optimizer state or a weight beyond float16's range.
std::vector<uint8_t> half_model(const std::vector<uint8_t>& model_file);
// Writes `<path>.partial`, then renames it over `path`, so a failed or interrupted write never
// leaves a truncated file. Throws ConfigError("cannot write <path>: <reason>").
void write_file_atomic(const std::string& path, const std::vector<uint8_t>& bytes);
void write_file_atomic(const std::string& path, const std::string& text);

}  // namespace wolab
