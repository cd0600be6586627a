#include "lab/results_checks.h"

#include "lab/config.h"
#include "lab/results.h"

namespace wolab {
namespace results_checks {

[[noreturn]] void bad(const std::string& where, const std::string& what) {
  throw ResultsError(ResultsFault::damaged, "results: " + where + ": " + what);
}

const json& field(const json& obj, const std::string& where, const char* key) {
  if (!obj.is_object()) bad(where.empty() ? "file" : where, "expected an object");
  auto it = obj.find(key);
  if (it == obj.end()) bad(where.empty() ? key : where + "." + key, "missing");
  return *it;
}

double check_number(const json& v, const std::string& where, double lo, double hi) {
  if (!v.is_number()) bad(where, "expected a number");
  double x = v.get<double>();
  if (!std::isfinite(x)) bad(where, "not a finite number");
  if (x < lo || x > hi) bad(where, format_number(x) + " is out of range " + format_number(lo) + ".." + format_number(hi));
  return x;
}

int64_t check_integer(const json& v, const std::string& where, double lo, double hi) {
  double x = check_number(v, where, lo, hi);
  if (std::floor(x) != x) bad(where, "expected an integer");
  return static_cast<int64_t>(x);
}

const json& check_array(const json& v, const std::string& where) {
  if (!v.is_array()) bad(where, "expected an array");
  return v;
}

std::vector<double> check_numbers(const json& v, const std::string& where, size_t size, double lo, double hi) {
  check_array(v, where);
  if (v.size() != size)
    bad(where, "has " + std::to_string(v.size()) + " entries, expected " + std::to_string(size));
  std::vector<double> xs;
  xs.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const double x = v[i].is_number() ? v[i].get<double>() : NAN;
    // The place is named only for a number that fails: a W_o snapshot has d_model² of them.
    if (!(std::isfinite(x) && x >= lo && x <= hi)) check_number(v[i], where + "[" + std::to_string(i) + "]", lo, hi);
    xs.push_back(x);
  }
  return xs;
}

void check_steps(const std::vector<double>& steps, const std::string& where, double first) {
  for (size_t i = 0; i < steps.size(); ++i) {
    std::string w = where + "[" + std::to_string(i) + "]";
    if (std::floor(steps[i]) != steps[i]) bad(w, "expected an integer");
    if (steps[i] < first || (i > 0 && steps[i] <= steps[i - 1])) bad(w, "steps must increase");
  }
}

}  // namespace results_checks
}  // namespace wolab
