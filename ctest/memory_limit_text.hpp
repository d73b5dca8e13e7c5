// What the memory-refusal tests compare: the limit a message names, against the limit read
// around the call.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "instrument/memory_budget.hpp"

// `message` must read head + <limit> + tail, where <limit> is format_bytes of the process's
// memory limit at the time of the call. The limit follows MemAvailable, which moves while
// other jobs run (a CI run saw "23 GiB" in the message and "22.9 GiB" read just after), so
// the figure is parsed back and checked against the limits read before and after the call
// (`before`, `after`), within 1% and the figure's rounding.
inline void check_limit_named(const std::string& message, const std::string& head, const std::string& tail,
                              std::uint64_t before, std::uint64_t after) {
  INFO("message: " << message << "; limits read " << before << " and " << after << " bytes");
  REQUIRE(message.size() > head.size() + tail.size());
  CHECK(message.compare(0, head.size(), head) == 0);
  CHECK(message.compare(message.size() - tail.size(), tail.size(), tail) == 0);
  const std::string figure = message.substr(head.size(), message.size() - head.size() - tail.size());
  const std::size_t space = figure.find(' ');
  REQUIRE(space != std::string::npos);
  const double value = std::stod(figure.substr(0, space));
  const std::string unit = figure.substr(space + 1);
  const std::string units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double scale = 0;
  for (int i = 0; i < 7; ++i)
    if (unit == units[i]) scale = std::ldexp(1.0, 10 * i);
  REQUIRE(scale > 0);
  const double named = value * scale;
  const double low = static_cast<double>(std::min(before, after));
  const double high = static_cast<double>(std::max(before, after));
  CHECK(named >= low * 0.99 - 0.05 * scale);
  CHECK(named <= high * 1.01 + 0.05 * scale);
  CHECK(instrument::format_bytes(static_cast<std::uint64_t>(named)) == figure);  // format_bytes' form
}
