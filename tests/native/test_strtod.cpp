// parse_double (src/io/strtod.cpp) against the C library's strtod: the same value, bit for bit,
// and the same end pointer, on plain decimals of every shape and on what is not one. In wasm
// builds std::strtod is parse_double itself (--wrap=strtod), so the reference is libc_strtod.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "io/strtod.h"

namespace wolab {
namespace {

void expect_same(const std::string& text) {
  char *end_ours = nullptr, *end_ref = nullptr;
  const double ours = parse_double(text.c_str(), &end_ours), ref = libc_strtod(text.c_str(), &end_ref);
  EXPECT_EQ(std::memcmp(&ours, &ref, sizeof ours), 0) << '"' << text << "\": " << ours << " against " << ref;
  EXPECT_EQ(end_ours - text.c_str(), end_ref - text.c_str()) << '"' << text << '"';
}

TEST(Strtod, MatchesTheCLibraryOnEdgeCases) {
  for (const char* text : {"0", "-0", "+0", "0.0", "-0.0e5", "0e999", "1", "-1", "0.1", "0.001", "1e-9",
                           "3.14159274", "123456.79", "-7.5e-30", "1e22", "1e23", "1e-22", "1e-23",
                           "9007199254740992", "9007199254740993", "18446744073709551615",
                           "12345678901234567890", "0.000000000000000000000000001", "1e400", "-1e400",
                           "1e-400", "4.9406564584124654e-324", "1.7976931348623157e308", "1e", "1e+",
                           "1e-", "1E5", "1.", ".5", "-.5", ".", "-", "+", "", "e5", " 1.5", "\t2", "1.5abc",
                           "1,5", "inf", "-Infinity", "nan", "0x1p3", "0X10", "1p3", "00012.5000", "1e0005",
                           "1e100000000000", "0.1e-21", "1234567890123456789e-10"})
    expect_same(text);
}

TEST(Strtod, MatchesTheCLibraryOnRandomDecimals) {
  uint64_t state = 42;
  auto next = [&](uint64_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % n;
  };
  for (int i = 0; i < 20000; ++i) {
    std::string text;
    if (next(2)) text += '-';
    const int whole = static_cast<int>(next(12)), fraction = static_cast<int>(next(12));
    for (int k = 0; k < whole; ++k) text += static_cast<char>('0' + next(10));
    if (fraction || next(2)) text += '.';
    for (int k = 0; k < fraction; ++k) text += static_cast<char>('0' + next(10));
    if (next(2)) text += (next(2) ? "e" : "e-") + std::to_string(next(40));
    expect_same(text);
  }
}

}  // namespace
}  // namespace wolab
