// The /machine group of the results file from the machine file an app read (--machine).
#include <charconv>

#include "instrument/machine_file.hpp"
#include "instrument/results_file.hpp"

namespace instrument {

namespace {
// "4096" -> int, "2.5e-06" -> double, anything else stays text.
AttributeValue typed_value(const std::string& text) {
  const char* end = text.data() + text.size();
  std::int64_t i = 0;
  if (auto r = std::from_chars(text.data(), end, i);
      r.ec == std::errc() && r.ptr == end && !text.empty())
    return i;
  double d = 0.0;
  if (auto r = std::from_chars(text.data(), end, d);
      r.ec == std::errc() && r.ptr == end && !text.empty())
    return d;
  return text;
}
}  // namespace

MachineRecord machine_record(const MachineFile& file) {
  MachineRecord m;
  m.source_file = file.name();
  for (const auto& key : file.keys())
    if (const auto v = file.get_string(key)) m.parameters[key] = typed_value(*v);
  return m;
}

}  // namespace instrument
