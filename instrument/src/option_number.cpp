#include "instrument/option_number.hpp"

#include <charconv>
#include <cmath>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/machine_file.hpp"

namespace instrument {

namespace {
std::string expected(const std::string& kind, const std::string& min, const std::string& max,
                     const std::string& unit, const std::string& text) {
  std::string e = "expected " + kind + " in [" + min + ", " + max + "]";
  if (!unit.empty()) e += " " + unit;
  return e + ", got " + quote_token(text);
}
}  // namespace

std::int64_t whole_option(const std::string& option, const std::string& text, std::int64_t min,
                          std::int64_t max, const std::string& unit) {
  std::int64_t v = 0;
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, v);
  if (text.empty() || r.ec != std::errc() || r.ptr != end || v < min || v > max) {
    throw InputError("command line", option,
                     expected("a whole number", std::to_string(min), std::to_string(max), unit, text));
  }
  return v;
}

std::vector<std::int64_t> increasing_whole_options(const std::string& option, const std::string& text,
                                                   std::int64_t min, std::int64_t max, std::size_t most,
                                                   const std::string& unit, const std::string& plural) {
  std::vector<std::int64_t> values;
  std::size_t from = 0;
  while (true) {
    const std::size_t comma = text.find(',', from);
    const std::int64_t n =
        whole_option(option, text.substr(from, comma == std::string::npos ? std::string::npos : comma - from), min,
                     max, unit);
    if (!values.empty() && n <= values.back())
      throw InputError("command line", option, "expected increasing " + plural + ", got \"" + text + "\"");
    values.push_back(n);
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  if (values.size() > most)
    throw InputError("command line", option, "expected at most " + std::to_string(most) + " " + plural);
  return values;
}

double real_option(const std::string& option, const std::string& text, double min, double max,
                   const std::string& unit) {
  double v = 0.0;
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, v);
  if (text.empty() || r.ec != std::errc() || r.ptr != end || !(v >= min && v <= max)) {
    throw InputError("command line", option,
                     expected("a number", format_number(min), format_number(max), unit, text));
  }
  return v;
}

}  // namespace instrument
