// The replay machine from a probe's machine file: LogGPS parameters and the injection gap g.
#include <string>

#include "instrument/machine_file.hpp"
#include "instrument/replay.hpp"
#include "model_ranges.hpp"

namespace instrument::replay {

namespace {
// g is a time between two injections of one process: the same physical range as an
// overhead (a wrong unit, microseconds written as seconds, is caught here).
constexpr model_ranges::Range kGap{0.0, 1.0, "s", "a gap between injections"};
}  // namespace

Machine machine_from(const MachineFile& file) {
  Machine m;
  m.net = loggps::read_params(file);
  if (file.has("loggps.g")) {
    const double g = file.require_double("loggps.g", "gap between two injections, seconds");
    model_ranges::require_in(g, kGap, file.name(), "loggps.g");
    m.g = g;
    m.g_from = "loggps.g";
  } else {
    // LogGP's g >= o: a process cannot inject faster than its CPU hands messages over.
    m.g = m.net.o_prime;
    m.g_from = "loggps.o_prime (the file has no loggps.g)";
  }
  return m;
}

}  // namespace instrument::replay
