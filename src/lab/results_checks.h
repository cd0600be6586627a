// The checks each field of a results file passes (lab/results.h, parse_results): every failure
// throws ResultsError(damaged, "results: <where>: <what is wrong>"), naming the place, e.g.
// "results: runs[2].curve.loss[7]: not a finite number". The building blocks of the checks of a
// run, a failed run and the document (lab/results.cpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wolab {
namespace results_checks {

using json = nlohmann::json;

[[noreturn]] void bad(const std::string& where, const std::string& what);
// obj[key], which must be there ("file" names the document itself when where is empty).
const json& field(const json& obj, const std::string& where, const char* key);
// A finite number in lo..hi.
double check_number(const json& v, const std::string& where, double lo = -HUGE_VAL, double hi = HUGE_VAL);
// A whole number in lo..hi.
int64_t check_integer(const json& v, const std::string& where, double lo, double hi);
const json& check_array(const json& v, const std::string& where);
// An array of `size` finite numbers in lo..hi.
std::vector<double> check_numbers(const json& v, const std::string& where, size_t size, double lo = -HUGE_VAL,
                                  double hi = HUGE_VAL);
// Whole steps, increasing, from `first` on.
void check_steps(const std::vector<double>& steps, const std::string& where, double first);

}  // namespace results_checks
}  // namespace wolab
