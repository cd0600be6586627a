// safetensors: round trip, the byte layout other readers rely on, and every kind of corrupt
// file refused with a ConfigError (never a crash); atomic file writes.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

#include <nlohmann/json.hpp>

#include "io/safetensors.h"

namespace wolab {
namespace {

using json = nlohmann::json;

SafeTensors sample() {
  SafeTensors st;
  st.metadata = {{"format", "test"}, {"step", "12"}};
  st.f32["a.weight"] = {{2, 3}, {1, 2, 3, 4, 5, -6.5f}};
  st.f32["b"] = {{}, {0.25f}};  // a scalar: shape [], one value
  st.f32["empty"] = {{0, 4}, {}};
  st.i32["c.tokens"] = {{3}, {-1, 0, 2147483647}};
  return st;
}

// A file from a header text and raw data bytes, as another writer might produce it.
std::vector<uint8_t> file_of(const std::string& header, size_t data_bytes) {
  std::vector<uint8_t> out(8 + header.size() + data_bytes, 0);
  uint64_t n = header.size();
  std::memcpy(out.data(), &n, 8);
  std::memcpy(out.data() + 8, header.data(), header.size());
  return out;
}

std::string error_of(const std::vector<uint8_t>& bytes) {
  try {
    read_safetensors(bytes.data(), bytes.size());
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(SafeTensors, RoundTrip) {
  SafeTensors st = sample();
  std::vector<uint8_t> bytes = write_safetensors(st);
  SafeTensors back = read_safetensors(bytes.data(), bytes.size());
  EXPECT_EQ(back.metadata, st.metadata);
  ASSERT_EQ(back.f32.size(), 3u);
  for (const auto& [name, t] : st.f32) {
    EXPECT_EQ(back.f32[name].shape, t.shape) << name;
    EXPECT_EQ(back.f32[name].data, t.data) << name;
  }
  EXPECT_EQ(back.i32["c.tokens"].shape, std::vector<int64_t>{3});
  EXPECT_EQ(back.i32["c.tokens"].data, (std::vector<int32_t>{-1, 0, 2147483647}));
}

TEST(SafeTensors, LayoutIsTheStandardOne) {
  std::vector<uint8_t> bytes = write_safetensors(sample());
  uint64_t n;
  std::memcpy(&n, bytes.data(), 8);
  EXPECT_EQ(n % 8, 0u);  // data starts 8-byte aligned
  json header = json::parse(bytes.begin() + 8, bytes.begin() + 8 + static_cast<long>(n));
  EXPECT_EQ(header["__metadata__"]["step"], "12");
  EXPECT_EQ(header["a.weight"]["dtype"], "F32");
  EXPECT_EQ(header["a.weight"]["shape"], json::parse("[2, 3]"));
  EXPECT_EQ(header["c.tokens"]["dtype"], "I32");
  // a.weight's 6 floats, little-endian, where its offsets say.
  const auto off = header["a.weight"]["data_offsets"].get<std::vector<uint64_t>>();
  ASSERT_EQ(off[1] - off[0], 24u);
  float last;
  std::memcpy(&last, bytes.data() + 8 + n + off[0] + 20, 4);
  EXPECT_EQ(last, -6.5f);
  EXPECT_EQ(bytes.size(), 8 + n + 4 * (6 + 1 + 0 + 3));
}

TEST(SafeTensors, WriterRefusesInconsistentInput) {
  SafeTensors st;
  st.f32["x"] = {{2, 2}, {1, 2, 3}};
  EXPECT_THROW(write_safetensors(st), ConfigError);
  st.f32["x"] = {{3}, {1, 2, 3}};
  st.i32["x"] = {{1}, {1}};
  EXPECT_THROW(write_safetensors(st), ConfigError);
  SafeTensors meta_name;
  meta_name.f32["__metadata__"] = {{1}, {1}};
  EXPECT_THROW(write_safetensors(meta_name), ConfigError);
}

TEST(SafeTensors, CorruptFilesAreRefusedWithTheReason) {
  const std::string t = R"("t": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]})";
  const std::pair<std::vector<uint8_t>, const char*> cases[] = {
      {{1, 2, 3}, "too short for a safetensors header"},
      {file_of("{}", 0), ""},  // valid: no tensors
      {[] { auto f = file_of("{}", 0); f[0] = 200; return f; }(), "goes beyond the end"},
      {[] { auto f = file_of("{}", 0); std::memset(f.data(), 0xff, 8); return f; }(), "goes beyond the end"},
      {file_of("{\"t\": ", 8), "header is not a JSON object"},
      {file_of("[1, 2]", 0), "header is not a JSON object"},
      {file_of("{" + t + "}", 8), ""},
      {file_of(R"({"t": {"dtype": "BF16", "shape": [2], "data_offsets": [0, 4]}})", 4), "dtype \"BF16\"; only F32, I32 and F16"},
      {file_of(R"({"t": {"shape": [2], "data_offsets": [0, 8]}})", 8), "no dtype"},
      {file_of(R"({"t": {"dtype": "F32", "shape": [-2], "data_offsets": [0, 8]}})", 8), "shape entry"},
      {file_of(R"({"t": {"dtype": "F32", "shape": "2", "data_offsets": [0, 8]}})", 8), "no shape array"},
      {file_of(R"({"t": {"dtype": "F32", "shape": [2], "data_offsets": [8]}})", 8), "no data_offsets"},
      {file_of(R"({"t": {"dtype": "F32", "shape": [2], "data_offsets": [8, 0]}})", 8), "ending before"},
      {file_of(R"({"t": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}})", 8), "does not match its shape"},
      {file_of(R"({"t": {"dtype": "F32", "shape": [4294967296, 4294967296], "data_offsets": [0, 8]}})", 8),
       "impossibly large shape"},
      {file_of("{" + t + "}", 4), "beyond the data section"},
      {file_of(R"({"t": {"dtype": "F32", "shape": [2], "data_offsets": [1000000000000, 1000000000008]}})", 8),
       "beyond the data section"},
      {file_of("{" + t + R"(, "u": {"dtype": "I32", "shape": [1], "data_offsets": [4, 8]}})", 8), "overlaps"},
      {file_of(R"({"t": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}})", 8), "leaves a gap"},
      {file_of("{" + t + "}", 12), "belong to no tensor"},
      {file_of("{" + t + R"(, "__metadata__": {"step": 3}})", 8), "__metadata__ value \"step\" is not a string"},
      {file_of(R"({"__metadata__": []})", 0), "__metadata__ is not an object"},
      {file_of(R"({"t": 5})", 0), "is not an object"},
  };
  for (const auto& [bytes, expected] : cases) {
    std::string err = error_of(bytes);
    if (std::string(expected).empty()) {
      EXPECT_EQ(err, "") << "a valid file was refused";
    } else {
      EXPECT_EQ(err.rfind("checkpoint: ", 0), 0u) << err;
      EXPECT_NE(err.find(expected), std::string::npos) << "got: " << err << "\nexpected: " << expected;
    }
  }
}

TEST(SafeTensors, EveryTruncationAndHeaderByteFlipIsSafe) {
  const std::vector<uint8_t> good = write_safetensors(sample());
  for (size_t size = 0; size < good.size(); ++size) {
    std::vector<uint8_t> cut(good.begin(), good.begin() + static_cast<long>(size));  // own buffer: ASan sees overreads
    EXPECT_THROW(read_safetensors(cut.data(), cut.size()), ConfigError) << size;
  }
  uint64_t n;
  std::memcpy(&n, good.data(), 8);
  for (size_t i = 0; i < 8 + n; ++i) {
    std::vector<uint8_t> flipped = good;
    flipped[i] ^= 0x5a;
    try {
      SafeTensors st = read_safetensors(flipped.data(), flipped.size());
      for (const auto& [name, t] : st.f32) {  // whatever was accepted is self-consistent
        size_t count = 1;
        for (int64_t d : t.shape) count *= static_cast<size_t>(d);
        EXPECT_EQ(t.data.size(), count) << name;
      }
    } catch (const ConfigError&) {
    }
  }
}

TEST(Files, AtomicWriteThenRead) {
  const std::string path = ::testing::TempDir() + "wolab_atomic_test.bin";
  const std::vector<uint8_t> bytes = write_safetensors(sample());
  write_file_atomic(path, bytes);
  EXPECT_EQ(read_file_bytes(path), bytes);
  write_file_atomic(path, std::string("replaced"));
  std::vector<uint8_t> back = read_file_bytes(path);
  EXPECT_EQ(std::string(back.begin(), back.end()), "replaced");
  std::FILE* partial = std::fopen((path + ".partial").c_str(), "rb");
  EXPECT_EQ(partial, nullptr);  // the temporary is gone
  if (partial) std::fclose(partial);
  std::remove(path.c_str());
}

TEST(Files, FailuresAreConfigErrorsAndLeaveNothing) {
  const std::string missing_dir = ::testing::TempDir() + "wolab_no_such_dir/out.bin";
  EXPECT_THROW(write_file_atomic(missing_dir, std::string("x")), ConfigError);
  try {
    read_file_bytes(::testing::TempDir() + "wolab_no_such_file.bin");
    ADD_FAILURE() << "read a missing file";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("cannot read ", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace wolab
