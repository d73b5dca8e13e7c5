// The constraints of a LogGP parameter set (listed in loggp.hpp), checked on every file read
// and on every fit the probe writes.
#include <cmath>
#include <string>

#include "cost_checks.hpp"
#include "instrument/error.hpp"
#include "instrument/loggp.hpp"
#include "model_ranges.hpp"

namespace instrument::loggp {

namespace {

using cost_checks::micro;
using cost_checks::number;

std::string band_key(std::size_t i) { return "loggp.band." + std::to_string(i + 1); }

std::size_t band_index(const LogGpParams& p, std::int64_t k) {
  for (std::size_t i = 0; i < p.bands.size(); ++i)
    if (k <= p.bands[i].upper_bytes) return i;
  return p.bands.size() - 1;
}

// Every band edge and the handshake.
std::vector<std::int64_t> edges(const LogGpParams& p) {
  std::vector<std::int64_t> e{p.rendezvous_bytes};
  for (const LogGpBand& b : p.bands) e.push_back(b.upper_bytes);
  return e;
}

struct Cost {
  const char* name;
  double (*of)(const LogGpParams&, std::int64_t);
};
constexpr Cost kCosts[] = {{"Send", send_cost}, {"Receive", receive_cost}, {"Total_Comm", total_comm}};

}  // namespace

void validate(const LogGpParams& p, const std::string& source) {
  auto fail = [&](const std::string& key, const std::string& what) {
    throw InputError(source, key, what);
  };
  using namespace model_ranges;
  require_in(p.L, kLatency, source, "loggp.L");
  require_in(p.rendezvous_bytes, kMessageBytes, source, "loggp.rendezvous_bytes");
  require_in(static_cast<std::int64_t>(p.bands.size()), kBandCount, source, "loggp.bands");
  for (std::size_t i = 0; i < p.bands.size(); ++i) {
    const LogGpBand& b = p.bands[i];
    require_in(b.upper_bytes, kMessageBytes, source, band_key(i) + ".upper_bytes");
    if (i > 0 && b.upper_bytes <= p.bands[i - 1].upper_bytes) {
      fail(band_key(i) + ".upper_bytes", "expected bands in increasing size order");
    }
    require_in(b.o, kOverhead, source, band_key(i) + ".o");
    require_in(b.G, kGapPerByte, source, band_key(i) + ".G");
  }

  const auto sizes = cost_checks::sizes(kCheckMaxBytes, edges(p));
  for (std::int64_t k : sizes) {
    for (const Cost& c : kCosts) {
      const double v = c.of(p, k);
      if (!std::isfinite(v) || v <= 0.0) {
        fail(band_key(band_index(p, k)) + ".o",
             std::string(c.name) + "(" + std::to_string(k) + " B) = " + micro(v) + ": expected > 0");
      }
    }
  }
  for (std::size_t n = 1; n < sizes.size(); ++n) {
    const std::int64_t a = sizes[n - 1], b = sizes[n];
    const bool edge = band_index(p, a) != band_index(p, b);
    const bool handshake = has_handshake(p, a) != has_handshake(p, b);
    const std::string key = band_key(band_index(p, b));
    const std::string between = " from " + std::to_string(a) + " B to " + std::to_string(b) + " B";
    for (const Cost& c : kCosts) {
      const double va = c.of(p, a), vb = c.of(p, b);
      const double change = (vb - va) / va;
      const double allowed = edge || handshake ? kEdgeTolerance : 1e-12;  // else rounding only
      if (change < -allowed) {
        fail(key, std::string(c.name) + " falls" + between + " (" + micro(va) + " -> " + micro(vb) +
                      ", " + number(100 * change) + "%), more than the " + number(100 * allowed) +
                      "% a band edge may step: expected costs non-decreasing in the size");
      }
      // A jump: what the right band's line adds at the edge beyond its own slope over the one
      // byte (a steep but continuous cost is not a jump), 2 (o' - o) + u (G' - G) for band rates.
      const double jump = (vb - p.bands[band_index(p, b)].G * static_cast<double>(b - a) - va) / va;
      if (c.of == total_comm && edge && !handshake && jump > kEdgeTolerance) {
        fail(key, std::string(c.name) + " jumps" + between + " (" + micro(va) + " -> " + micro(vb) +
                      ", +" + number(100 * jump) + "% beyond the band's slope), more than the " +
                      number(100 * kEdgeTolerance) +
                      "% a band edge may step: expected it continuous (only the handshake may jump)");
      }
    }
  }
}

}  // namespace instrument::loggp
