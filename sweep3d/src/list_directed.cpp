#include "sweep3d/list_directed.hpp"

#include <cctype>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <string>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"

namespace sweep3d {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
bool ends_token(char c) { return is_blank(c) || c == ',' || c == '/'; }
bool is_comment_start(char c) { return c == '!' || c == '#'; }

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

std::string describe(const std::vector<FieldSpec>& fields) {
  std::string s;
  bool all_int = true, all_real = true;
  for (const auto& f : fields) {
    if (!s.empty()) s += ' ';
    s += f.name;
    all_int = all_int && f.type == FieldType::integer;
    all_real = all_real && f.type == FieldType::real;
  }
  const std::string kind = all_int ? " integers" : all_real ? " reals" : " values";
  return std::to_string(fields.size()) + kind + " (" + s + ")";
}

std::string field_label(const std::vector<FieldSpec>& fields, std::size_t k) {
  return "field " + std::to_string(k + 1) + " (" + std::string(fields[k].name) + ")";
}

}  // namespace

bool parse_fortran_integer(std::string_view t, long long& out) {
  std::size_t p = 0;
  bool neg = false;
  if (p < t.size() && (t[p] == '+' || t[p] == '-')) neg = t[p++] == '-';
  if (p == t.size()) return false;
  long long v = 0;
  for (; p < t.size(); ++p) {
    if (!std::isdigit(static_cast<unsigned char>(t[p]))) return false;
    v = v * 10 + (t[p] - '0');
    if (v > static_cast<long long>(INT_MAX) + 1) return false;  // default INTEGER is 32-bit
  }
  v = neg ? -v : v;
  if (v > INT_MAX || v < INT_MIN) return false;
  out = v;
  return true;
}

bool parse_fortran_real(std::string_view t, double& out) {
  const std::string l = lower(t);
  std::string_view u = l;
  std::string sign;
  if (!u.empty() && (u[0] == '+' || u[0] == '-')) {
    sign = std::string(1, u[0]);
    u.remove_prefix(1);
  }
  if (u == "inf" || u == "infinity") {
    out = sign == "-" ? -HUGE_VAL : HUGE_VAL;
    return true;
  }
  if (u == "nan") {
    out = std::nan("");
    return true;
  }
  // mantissa: digits [. digits] | . digits
  std::size_t p = 0, ndig = 0;
  std::string mant = sign;
  while (p < u.size() && std::isdigit(static_cast<unsigned char>(u[p]))) mant += u[p++], ++ndig;
  if (p < u.size() && u[p] == '.') {
    mant += u[p++];
    while (p < u.size() && std::isdigit(static_cast<unsigned char>(u[p]))) mant += u[p++], ++ndig;
  }
  if (ndig == 0) return false;
  std::string expo;
  if (p < u.size()) {
    if (u[p] == 'e' || u[p] == 'd' || u[p] == 'q') ++p;
    else if (u[p] != '+' && u[p] != '-') return false;
    if (p < u.size() && (u[p] == '+' || u[p] == '-')) expo += u[p++];
    std::size_t ed = 0;
    while (p < u.size() && std::isdigit(static_cast<unsigned char>(u[p]))) expo += u[p++], ++ed;
    if (ed == 0 || p != u.size()) return false;
  }
  const std::string s = expo.empty() ? mant : mant + "e" + expo;
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

ListDirectedReader::ListDirectedReader(std::string_view text, std::string file)
    : file_(std::move(file)) {
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      if (start < text.size()) lines_.emplace_back(text.substr(start));
      break;
    }
    lines_.emplace_back(text.substr(start, nl - start));
    start = nl + 1;
  }
}

void ListDirectedReader::fail(int line, const std::string& where, const std::string& what) const {
  std::string w = "line " + std::to_string(line);
  if (!where.empty()) w += " " + where;
  throw instrument::InputError(file_, w, what);
}

std::vector<FieldValue> ListDirectedReader::read(const std::vector<FieldSpec>& fields,
                                                 int record) {
  const std::string rec = "record " + std::to_string(record);
  std::vector<FieldValue> out(fields.size());
  std::size_t got = 0;
  bool comma_pending = true;  // a comma now would be a null value (start of the READ)
  const int first_line = static_cast<int>(next_line_) + 1;

  // Assigns one value token to the next field.
  auto assign = [&](std::string_view tok, int line) {
    if (got == fields.size())
      fail(line, "", rec + " (" + describe(fields) + ", begun on line " +
                         std::to_string(first_line) + ") has an extra value " + instrument::quote_token(tok) +
                         "; expected " + std::to_string(fields.size()) + " values");
    FieldValue& v = out[got];
    v.line = line;
    v.token = std::string(tok);
    if (fields[got].type == FieldType::integer) {
      if (!parse_fortran_integer(tok, v.integer))
        fail(line, field_label(fields, got),
             "expected an integer, got " + instrument::quote_token(tok));
      v.real = static_cast<double>(v.integer);
    } else if (!parse_fortran_real(tok, v.real)) {
      fail(line, field_label(fields, got), "expected a real number, got " + instrument::quote_token(tok));
    }
    ++got;
  };

  while (got < fields.size()) {
    if (next_line_ >= lines_.size())
      fail(static_cast<int>(lines_.size()) + 1, field_label(fields, got),
           "end of file in " + rec + "; expected " + describe(fields));
    const std::string& s = lines_[next_line_];
    const int line = static_cast<int>(++next_line_);
    std::size_t p = 0;
    while (got < fields.size()) {
      while (p < s.size() && is_blank(s[p])) ++p;
      if (p == s.size() || is_comment_start(s[p])) break;  // end of record acts as a blank
      if (s[p] == ',') {
        if (comma_pending)
          fail(line, field_label(fields, got),
               "null value (empty field between commas); expected " + describe(fields));
        comma_pending = true;
        ++p;
        continue;
      }
      if (s[p] == '/')
        fail(line, field_label(fields, got),
             "'/' ends " + rec + " before all its fields; expected " + describe(fields));
      std::size_t e = p;
      while (e < s.size() && !ends_token(s[e])) ++e;
      const std::string_view tok(s.data() + p, e - p);
      p = e;
      comma_pending = false;
      const std::size_t star = tok.find('*');
      if (star == std::string_view::npos) {
        assign(tok, line);
        continue;
      }
      long long r = 0;
      if (!parse_fortran_integer(tok.substr(0, star), r) || r <= 0 || tok[0] == '+' || tok[0] == '-')
        fail(line, field_label(fields, got),
             "bad repeat count in " + instrument::quote_token(tok) + "; expected r*value with r a positive integer");
      const std::string_view val = tok.substr(star + 1);
      if (val.empty())
        fail(line, field_label(fields, got),
             "null value " + instrument::quote_token(tok) + "; expected " + describe(fields));
      for (long long k = 0; k < r; ++k) assign(val, line);
    }
    if (got == fields.size()) {
      // The READ is complete on this line: the rest may be separators or a comment only.
      while (p < s.size() && (is_blank(s[p]) || s[p] == ',')) ++p;
      if (p < s.size() && s[p] != '/' && !is_comment_start(s[p]))
        fail(line, "", rec + " (" + describe(fields) + ", begun on line " +
                           std::to_string(first_line) + ") is complete but the line goes on with " +
                           instrument::quote_token(std::string_view(s).substr(p)) + "; expected no more fields");
    }
  }
  return out;
}

void ListDirectedReader::expect_end() const {
  for (std::size_t l = next_line_; l < lines_.size(); ++l) {
    const std::string& s = lines_[l];
    std::size_t p = 0;
    while (p < s.size() && is_blank(s[p])) ++p;
    if (p < s.size() && !is_comment_start(s[p]))
      fail(static_cast<int>(l) + 1, "",
           "unexpected " + instrument::quote_token(std::string_view(s).substr(p)) + " after the last record; expected no more fields");
  }
}

}  // namespace sweep3d
