#include "sweep3d/deck_ranges.hpp"

#include <climits>
#include <cmath>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "sweep3d/deck.hpp"

namespace sweep3d {

namespace {

struct IntegerRange {
  long long lo, hi;
  const char* meaning;  // after the name, in parentheses
  const char* text;     // the range as the error names it
};

// Indexed like Deck::kFieldNames; lo > hi marks a field checked otherwise (reals) or not at
// all (flags: the original takes any value).
constexpr IntegerRange kIntegerRanges[20] = {
    {1, kMaxExtent, "processes in I", "in [1, 16777216]"},
    {1, kMaxExtent, "processes in J", "in [1, 16777216]"},
    {1, kMaxExtent, "k-planes per block; above kt it is clamped to kt", "in [1, 16777216]"},
    {1, 6, "angles per block", "1, 2, 3 or 6 (a factor of mm)"},
    {1, kMaxNcpu, "CPUs per SMP node, for the printed estimate only", "in [1, 65536]"},
    {1, kMaxExtent, "cells in I", "in [1, 16777216]"},
    {1, kMaxExtent, "cells in J", "in [1, 16777216]"},
    {1, kMaxExtent, "cells in K", "in [1, 16777216]"},
    {3, 6, "angles per octant", "3 (S4) or 6 (S6)"},
    {0, 1, "scattering order", "0 (P0) or 1 (P1)"},
    {1, 0, "", ""}, {1, 0, "", ""}, {1, 0, "", ""}, {1, 0, "", ""},
    {1, 0, "", ""}, {1, 0, "", ""}, {1, 0, "", ""}, {1, 0, "", ""}, {1, 0, "", ""},
    {-kMaxIterations, INT_MAX, "fixups: > 0 always, 0 never, < 0 after -ifixups iterations",
     "in [-100000, 2147483647] (at most the iteration limit, 100000, when negative)"},
};

bool integer_in_range(int field, long long v) {
  const IntegerRange& r = kIntegerRanges[field];
  if (r.lo > r.hi) return true;
  if (v < r.lo || v > r.hi) return false;
  if (field == 3) return v != 4 && v != 5;  // mmi: a factor of 6 (of 3 too is validate's)
  if (field == 8) return v == 3 || v == 6;  // mm
  return true;
}

bool width_field(int field) { return field >= 10 && field <= 12; }

bool real_in_range(int field, double v) {
  if (width_field(field)) return v >= kMinWidth && v <= kMaxWidth;  // false for NaN
  if (v < 0.0) return v >= -static_cast<double>(kMaxIterations);
  return v >= kMinEpsi && v <= kMaxEpsi;
}

std::string meaning(int field) {
  if (width_field(field)) return "cell width";
  if (field == 13) return "convergence: > 0 converge to err <= epsi, < 0 a fixed iteration count";
  return kIntegerRanges[field].meaning;
}

[[noreturn]] void refuse(int field, std::string_view token, const std::string& file, const std::string& where) {
  const std::string name(Deck::kFieldNames[static_cast<std::size_t>(field)]);
  throw instrument::InputError(file, where,
                               name + " (" + meaning(field) + ") must be " + field_range(field) + "; got " +
                                   instrument::quote_token(token));
}

}  // namespace

std::string field_range(int field) {
  if (width_field(field)) return "in [1e-6, 1e6] cm";
  if (field == 13)
    return "in [1e-15, 1] (converge) or in [-100000, 0) (a fixed count of int(-epsi + 0.99) iterations); "
           "0 is the original's endless loop";
  const IntegerRange& r = kIntegerRanges[field];
  return r.lo > r.hi ? "any integer" : r.text;
}

void check_integer_field(int field, long long value, std::string_view token, const std::string& file,
                         const std::string& where) {
  if (!integer_in_range(field, value)) refuse(field, token, file, where);
}

void check_real_field(int field, double value, std::string_view token, const std::string& file,
                      const std::string& where) {
  if (!real_in_range(field, value)) refuse(field, token, file, where);
}

}  // namespace sweep3d
