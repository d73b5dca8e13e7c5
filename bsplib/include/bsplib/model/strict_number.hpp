// Numbers read from options, profiles and machine files by the BSP tools: the whole token or
// nothing ("2000abc" is not 2000), integers with overflow detected (no wrap), reals finite,
// and each in a documented range that the error names:
//   "profile.csv:line 4: bytes_out must be an integer in [0, 9007199254740992] bytes; got \"-1\""
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bspmodel {

// The token as a base-10 integer (optional leading '-'), or nullopt: empty, any other
// character, or outside int64.
std::optional<std::int64_t> parse_whole_integer(std::string_view token);
// The token as a finite real (decimal or exponent form), or nullopt: empty, trailing
// characters, nan, inf, or out of double's range.
std::optional<double> parse_finite_real(std::string_view token);

// Where a number comes from and what it is, for the error message.
struct NumberField {
  std::string source;  // file or program ("bspprobe")
  std::string place;   // "line 4", "--hmax", "bsp.l_seconds"
  std::string name;    // "bytes_out", "--hmax", "l"
  std::string unit;    // "bytes", "s", "" for counts
};

// Throw instrument::InputError(source, place, "<name> must be an integer in [lo, hi] unit;
// got <quoted token>") unless the token is an integer in [lo, hi].
std::int64_t integer_in_range(std::string_view token, std::int64_t lo, std::int64_t hi,
                              const NumberField& field);
// The same for a finite real in [lo, hi].
double real_in_range(std::string_view token, double lo, double hi, const NumberField& field);
// A value already parsed (a machine file's number) checked against [lo, hi]; non-finite
// values are refused.
double require_in_range(double value, double lo, double hi, const NumberField& field);

// "[0, 1e7] s", "[1024, 1073741824] bytes": the range as the messages print it.
std::string range_text(double lo, double hi, const std::string& unit);
std::string integer_range_text(std::int64_t lo, std::int64_t hi, const std::string& unit);

}  // namespace bspmodel
