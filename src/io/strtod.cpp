// Emscripten's libc (musl) converts decimal text in 128-bit long double, which wasm emulates in
// software, so reading a results file with W_o snapshots (a million numbers and more) in the page
// was mostly strtod. Every number wolab writes is a plain
// decimal of at most 17 significant digits (9 for a float, decimal_float), and most have small
// exponents: for m * 10^e with m <= 2^53 and |e| <= 22, both m and 10^|e| are exact doubles and
// one IEEE multiplication or division rounds the result correctly (Clinger's fast path). The
// rest, and anything that is not such a decimal (whitespace, inf, nan, hex), goes to the C
// library's own strtod.
#include "io/strtod.h"

#include <cstdint>
#include <cstdlib>

#ifdef __wasm__
// The C library's strtod, under --wrap=strtod (the name strtod then means the function below).
extern "C" double __real_strtod(const char* text, char** end);
extern "C" double __wrap_strtod(const char* text, char** end) { return wolab::parse_double(text, end); }
#endif

namespace wolab {

double libc_strtod(const char* text, char** end) {
#ifdef __wasm__
  return __real_strtod(text, end);
#else
  return std::strtod(text, end);
#endif
}

namespace {

constexpr double kPowersOf10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

bool digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

double parse_double(const char* text, char** end) {
  const char* p = text;
  const bool negative = *p == '-';
  if (*p == '-' || *p == '+') ++p;
  uint64_t m = 0;    // the significant digits, as an integer; value = m * 10^exponent
  int digits = 0;    // in m, leading zeros left out
  int exponent = 0;
  bool any = false;  // a digit before or after the point
  auto take = [&](char c) {
    if (m == 0 && c == '0') return true;  // a leading zero adds nothing
    m = 10 * m + static_cast<uint64_t>(c - '0');
    return ++digits <= 19;                // 19 digits still fit in 64 bits
  };
  for (; digit(*p); ++p, any = true)
    if (!take(*p)) return libc_strtod(text, end);
  if (*p == '.') {
    for (++p; digit(*p); ++p, any = true, --exponent)
      if (!take(*p)) return libc_strtod(text, end);
  }
  if (!any) return libc_strtod(text, end);
  if (*p == 'e' || *p == 'E') {
    const char* q = p + 1;
    const bool minus = *q == '-';
    if (*q == '-' || *q == '+') ++q;
    if (digit(*q)) {  // else the 'e' is not part of the number, as for strtod
      int e = 0;
      for (; digit(*q); ++q)
        if (e < 100000) e = 10 * e + (*q - '0');
      exponent += minus ? -e : e;
      p = q;
    }
  }
  if (*p == 'x' || *p == 'X') return libc_strtod(text, end);  // hexadecimal: "0x1p3"
  double value = 0;
  if (m != 0) {
    if (m > (uint64_t(1) << 53) || exponent < -22 || exponent > 22) return libc_strtod(text, end);
    value = exponent < 0 ? static_cast<double>(m) / kPowersOf10[-exponent]
                         : static_cast<double>(m) * kPowersOf10[exponent];
  }
  if (end) *end = const_cast<char*>(p);
  return negative ? -value : value;
}

}  // namespace wolab
