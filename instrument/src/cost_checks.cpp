#include "cost_checks.hpp"

#include <cstdio>
#include <set>

namespace instrument::cost_checks {

std::vector<std::int64_t> sizes(std::int64_t max_bytes, const std::vector<std::int64_t>& edges) {
  std::set<std::int64_t> s;
  for (std::int64_t k = 1; k <= max_bytes; k *= 2) s.insert(k);
  for (std::int64_t e : edges)
    for (std::int64_t d : {-1, 0, 1})
      if (e + d >= 1 && e + d <= max_bytes) s.insert(e + d);
  return {s.begin(), s.end()};
}

std::string number(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string micro(double seconds) { return number(seconds * 1e6) + " us"; }

}  // namespace instrument::cost_checks
