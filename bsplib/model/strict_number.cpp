#include "bsplib/model/strict_number.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"

namespace bspmodel {

namespace {

// Ranges as people write them: "[0, 100] s", "[0, 1e7] s", "[1e-3, 100] percent".
std::string number_text(double v) {
  char b[40];
  if (std::floor(v) == v && std::fabs(v) < 1e6) {
    std::snprintf(b, sizeof b, "%.0f", v);
    return b;
  }
  int digits = 1;  // the shortest form that reads back the same
  for (; digits < 17; ++digits) {
    std::snprintf(b, sizeof b, "%.*g", digits, v);
    if (std::strtod(b, nullptr) == v) break;
  }
  std::string s = b;
  // 1e+07 -> 1e7, 1e-05 -> 1e-5
  if (const std::size_t e = s.find('e'); e != std::string::npos) {
    std::string mant = s.substr(0, e), exp = s.substr(e + 1);
    const bool negative = exp[0] == '-';
    exp.erase(0, 1);
    exp.erase(0, std::min(exp.find_first_not_of('0'), exp.size() - 1));
    s = mant + "e" + (negative ? "-" : "") + exp;
  }
  return s;
}

[[noreturn]] void out_of_range(const std::string& got, const std::string& kind_and_range,
                               const NumberField& f) {
  throw instrument::InputError(f.source, f.place,
                               f.name + " must be " + kind_and_range + "; got " + got);
}

}  // namespace

// Built by appending: GCC 12's -Wrestrict misfires on "[" + std::string at -O2.
static std::string bracketed(const std::string& lo, const std::string& hi, const std::string& unit) {
  std::string text = "[";
  text.append(lo).append(", ").append(hi).append("]");
  if (!unit.empty()) text.append(" ").append(unit);
  return text;
}

std::string range_text(double lo, double hi, const std::string& unit) {
  return bracketed(number_text(lo), number_text(hi), unit);
}

std::string integer_range_text(std::int64_t lo, std::int64_t hi, const std::string& unit) {
  return bracketed(std::to_string(lo), std::to_string(hi), unit);
}

std::optional<std::int64_t> parse_whole_integer(std::string_view token) {
  std::int64_t v = 0;
  const char* end = token.data() + token.size();
  const auto r = std::from_chars(token.data(), end, v);
  if (token.empty() || r.ec != std::errc() || r.ptr != end) return std::nullopt;
  return v;
}

std::optional<double> parse_finite_real(std::string_view token) {
  double v = 0;
  const char* end = token.data() + token.size();
  // from_chars: no leading spaces or '+', no locale; "nan" and "inf" parse and are refused
  // below; a value beyond double's range is result_out_of_range.
  const auto r = std::from_chars(token.data(), end, v);
  if (token.empty() || r.ec != std::errc() || r.ptr != end || !std::isfinite(v))
    return std::nullopt;
  return v;
}

std::int64_t integer_in_range(std::string_view token, std::int64_t lo, std::int64_t hi,
                              const NumberField& field) {
  const auto v = parse_whole_integer(token);
  if (!v || *v < lo || *v > hi)
    out_of_range(instrument::quote_token(token),
                 "an integer in " + integer_range_text(lo, hi, field.unit), field);
  return *v;
}

double real_in_range(std::string_view token, double lo, double hi, const NumberField& field) {
  const auto v = parse_finite_real(token);
  if (!v || *v < lo || *v > hi)
    out_of_range(instrument::quote_token(token), "a finite number in " + range_text(lo, hi, field.unit),
                 field);
  return *v;
}

double require_in_range(double value, double lo, double hi, const NumberField& field) {
  if (!std::isfinite(value) || value < lo || value > hi)
    out_of_range(number_text(value), "a finite number in " + range_text(lo, hi, field.unit),
                 field);
  return value;
}

}  // namespace bspmodel
