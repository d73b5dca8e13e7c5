// A number given on the command line, read whole and checked against its range before
// anything is sized by it: "--reps 12x", "--reps 99999999999" and "--n -1" are refused with
// one line naming the option, the range and the (quoted) text, never wrapped or clamped.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace instrument {

// Decimal digits (a leading '-' is read, then refused by the range). Throws
// InputError("command line", option, "expected a whole number in [min, max] <unit>, got \"text\"").
std::int64_t whole_option(const std::string& option, const std::string& text, std::int64_t min,
                          std::int64_t max, const std::string& unit = "");

// "64,512,2048": whole numbers in [min, max] <unit>, each by whole_option, strictly increasing,
// at most `most` of them. Throws InputError("command line", option, "expected increasing
// <plural>, got \"text\"") or ("expected at most <most> <plural>").
std::vector<std::int64_t> increasing_whole_options(const std::string& option, const std::string& text,
                                                   std::int64_t min, std::int64_t max, std::size_t most,
                                                   const std::string& unit = "", const std::string& plural = "sizes");

// A finite real number in [min, max] (std::from_chars: no hex, no leading '+').
double real_option(const std::string& option, const std::string& text, double min, double max,
                   const std::string& unit = "");

}  // namespace instrument
