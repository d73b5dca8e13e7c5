#include "sweep3d/fortran_format.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace sweep3d::fortran {

namespace {

std::string right(std::string s, int w) {
  if (static_cast<int>(s.size()) > w) return std::string(static_cast<std::size_t>(w), '*');
  return std::string(static_cast<std::size_t>(w) - s.size(), ' ') + s;
}

// Scientific digits of |v| rounded to `sig` significant digits: digits and decimal exponent.
void sci_digits(double v, int sig, std::string& digits, int& exp10) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*e", sig - 1, std::fabs(v));
  // buf = d.ddddde[+-]xx
  digits.clear();
  const char* p = buf;
  for (; *p && *p != 'e'; ++p)
    if (*p != '.') digits.push_back(*p);
  exp10 = std::atoi(p + 1);
}

}  // namespace

std::string list_real(double v) {
  if (std::isnan(v)) return right("NaN", 25);
  if (std::isinf(v)) return right(v < 0 ? "-Infinity" : "Infinity", 25);
  constexpr int kSig = 17;
  const bool neg = std::signbit(v);
  std::string body;
  if (v == 0.0) {
    body = "0.0000000000000000";
    return right((neg ? "-" : "") + body, 20) + "     ";
  }
  std::string d;
  int e = 0;
  sci_digits(v, kSig, d, e);
  if (e >= -1 && e < kSig) {  // fixed form: 0.1 <= |x| < 1e17 (after rounding)
    if (e == -1) body = "0." + d;
    else body = d.substr(0, static_cast<std::size_t>(e) + 1) + "." + d.substr(static_cast<std::size_t>(e) + 1);
    return right((neg ? "-" : "") + body, 20) + "     ";
  }
  char ex[16];
  std::snprintf(ex, sizeof ex, "E%c%03d", e < 0 ? '-' : '+', std::abs(e));
  body = d.substr(0, 1) + "." + d.substr(1) + ex;
  return right((neg ? "-" : "") + body, 25);
}

std::string list_integer(long long v) { return right(std::to_string(v), 11); }

void ListRecord::separate(bool is_text) {
  // The record's leading blank stands in for the first separator.
  if (!first_ && !(is_text && last_was_text_)) line_ += ' ';
  first_ = false;
  last_was_text_ = is_text;
}

ListRecord& ListRecord::text(std::string_view s) {
  separate(true);
  line_ += s;
  return *this;
}

ListRecord& ListRecord::integer(long long v) {
  separate(false);
  line_ += list_integer(v);
  return *this;
}

ListRecord& ListRecord::real(double v) {
  separate(false);
  line_ += list_real(v);
  return *this;
}

std::string edit_f(double v, int w, int d) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%#.*f", d, v);  // '#': F editing always prints the point
  std::string s = buf;
  if (static_cast<int>(s.size()) > w) {  // the optional leading zero goes first
    if (s.rfind("0.", 0) == 0) s.erase(0, 1);
    else if (s.rfind("-0.", 0) == 0) s.erase(1, 1);
  }
  return right(s, w);
}

std::string edit_i(long long v, int w) { return right(std::to_string(v), w); }

std::string edit_1pg(double v, int w, int d) {
  // G editing: fixed form F(w-4).(d-k) with 4 trailing blanks when 0.1 <= |x| < 10^d
  // (magnitude after rounding to d digits), else 1PEw.d with a two-digit exponent.
  if (v == 0.0) return right(edit_f(0.0, w - 4, d - 1), w - 4) + "    ";
  std::string digits;
  int e = 0;
  sci_digits(v, d, digits, e);
  if (e >= -1 && e < d) return edit_f(v, w - 4, d - 1 - e) + "    ";
  sci_digits(v, d + 1, digits, e);  // 1P: one digit before the point, d after it
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s%c.%sE%c%02d", std::signbit(v) ? "-" : "", digits[0],
                digits.substr(1).c_str(), e < 0 ? '-' : '+', std::abs(e));
  return right(buf, w);
}

}  // namespace sweep3d::fortran
