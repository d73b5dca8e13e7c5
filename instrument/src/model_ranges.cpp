#include "model_ranges.hpp"

#include "cost_checks.hpp"
#include "instrument/error.hpp"
#include "instrument/machine_file.hpp"

namespace instrument::model_ranges {

namespace {
// "expected a latency in [0, 1] s, got inf" (appended piece by piece: GCC 12 warns falsely of
// overlapping copies in a chain of operator+ on const char*).
std::string expected(const Range& r, const std::string& got) {
  std::string t = "expected ";
  t.append(r.what).append(" in [").append(format_number(r.min)).append(", ");
  t.append(format_number(r.max)).append("]");
  if (*r.unit != '\0') t.append(" ").append(r.unit);
  return t.append(", got ").append(got);
}
}  // namespace

void require_in(double v, const Range& r, const std::string& source, const std::string& key) {
  if (v >= r.min && v <= r.max) return;
  throw InputError(source, key, expected(r, cost_checks::number(v)));
}

void require_in(std::int64_t v, const Range& r, const std::string& source, const std::string& key) {
  if (static_cast<double>(v) >= r.min && static_cast<double>(v) <= r.max) return;
  throw InputError(source, key, expected(r, std::to_string(v)));
}

}  // namespace instrument::model_ranges
