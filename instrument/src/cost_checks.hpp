// What loggp::validate and loggps::validate share, and the probe's fits that call them: the
// sizes a model's costs are checked at, how the messages print numbers, and the first
// constraint a parameter set breaks. Internal to instrument.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "instrument/error.hpp"

namespace instrument::cost_checks {

// Powers of two from 1 B to max_bytes, and every size in `edges` +-1, increasing, each once,
// all within [1, max_bytes]: a piecewise-linear cost is checked at every place it may turn.
std::vector<std::int64_t> sizes(std::int64_t max_bytes, const std::vector<std::int64_t>& edges);

std::string number(double v);          // "%.6g"
std::string micro(double seconds);     // "<number> us"

// "key: what was expected" for the first constraint p breaks, "" if none; validate is the
// model's own (loggp::validate, loggps::validate), found by argument-dependent lookup.
template <class Params>
std::string broken_constraint(const Params& p) {
  try {
    validate(p, "");
  } catch (const InputError& e) {
    return e.where() + ": " + e.expected();
  }
  return "";
}

}  // namespace instrument::cost_checks
