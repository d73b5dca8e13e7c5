#include "instrument/loggp.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/machine_file.hpp"
#include "model_ranges.hpp"

namespace instrument::loggp {

const LogGpBand& band_for(const LogGpParams& p, std::int64_t k) {
  if (p.bands.empty()) throw std::invalid_argument("LogGP parameters without any size band");
  for (const LogGpBand& b : p.bands) {
    if (k <= b.upper_bytes) return b;
  }
  return p.bands.back();
}

bool has_handshake(const LogGpParams& p, std::int64_t k) { return k >= p.rendezvous_bytes; }

double transfer_time(const LogGpParams& p, std::int64_t k) {
  if (p.per_byte == PerByteCost::band_rate) return static_cast<double>(k) * band_for(p, k).G;
  if (p.bands.empty()) throw std::invalid_argument("LogGP parameters without any size band");
  double t = 0.0;
  std::int64_t lower = 0;
  for (std::size_t i = 0; i < p.bands.size() && k > lower; ++i) {
    const bool last = i + 1 == p.bands.size();
    const std::int64_t upper = last ? k : std::min(k, p.bands[i].upper_bytes);
    t += static_cast<double>(upper - lower) * p.bands[i].G;
    lower = p.bands[i].upper_bytes;
  }
  return t;
}

double total_comm(const LogGpParams& p, std::int64_t k) {
  const double o = band_for(p, k).o, x = transfer_time(p, k);
  if (!has_handshake(p, k)) return o + x + p.L + o;  // (1)
  const double o_s = p.bands.front().o;
  return o_s + p.L + o_s + o_s + p.L + o + x + p.L + o;  // (2)
}

double send_cost(const LogGpParams& p, std::int64_t k) {
  const double o = band_for(p, k).o;
  if (!has_handshake(p, k)) return o;  // (3a)
  const double o_s = p.bands.front().o;
  return o_s + p.L + o_s + o_s + p.L + o;  // (4a)
}

double receive_cost(const LogGpParams& p, std::int64_t k) {
  const double o = band_for(p, k).o;
  if (!has_handshake(p, k)) return o;  // (3b)
  const double o_s = p.bands.front().o;
  return o_s + p.L + o + transfer_time(p, k) + p.L + o;  // (4b)
}

double round_trip_time(const LogGpParams& p, std::int64_t k) { return 2.0 * total_comm(p, k); }

namespace {
constexpr const char* kPerByteKey = "loggp.per_byte_cost";
}  // namespace

LogGpParams read_params(const MachineFile& f) {
  LogGpParams p;
  p.L = f.require_double("loggp.L", "LogGP latency, seconds");
  p.rendezvous_bytes = f.require_bytes("loggp.rendezvous_bytes");
  const std::int64_t n = f.require_bytes("loggp.bands");
  model_ranges::require_in(n, model_ranges::kBandCount, f.name(), "loggp.bands");  // before the loop
  for (std::int64_t i = 1; i <= n; ++i) {
    const std::string base = "loggp.band." + std::to_string(i);
    LogGpBand b{f.require_bytes(base + ".upper_bytes"), f.require_double(base + ".o"),
                f.require_double(base + ".G")};
    if (!p.bands.empty() && b.upper_bytes <= p.bands.back().upper_bytes) {
      throw InputError(f.name(), base + ".upper_bytes", "expected bands in increasing size order");
    }
    p.bands.push_back(b);
  }
  const std::string per_byte = f.get_string(kPerByteKey).value_or("band-rate");
  if (per_byte == "cumulative") p.per_byte = PerByteCost::cumulative;
  else if (per_byte != "band-rate") {
    throw InputError(f.name(), kPerByteKey, "expected band-rate or cumulative, got " + quote_token(per_byte));
  }
  validate(p, f.name());
  return p;
}

void write_params(const LogGpParams& p, MachineFile& f) {
  f.comment("LogGP (Sundaram-Stukel & Vernon PPoPP'99, eq. 1-4): o and G per size band;");
  f.comment("a band holds sizes up to its upper_bytes; handshake from rendezvous_bytes;");
  f.comment("per_byte_cost: band-rate = k G of k's band (the paper), cumulative = each band's");
  f.comment("G for the bytes in its range (continuous; see instrument/loggp.hpp)");
  f.set("loggp.L", p.L);
  f.set("loggp.rendezvous_bytes", p.rendezvous_bytes);
  f.set("loggp.bands", static_cast<std::int64_t>(p.bands.size()));
  for (std::size_t i = 0; i < p.bands.size(); ++i) {
    const std::string base = "loggp.band." + std::to_string(i + 1);
    f.set(base + ".upper_bytes", p.bands[i].upper_bytes);
    f.set(base + ".o", p.bands[i].o);
    f.set(base + ".G", p.bands[i].G);
  }
  f.set(kPerByteKey, p.per_byte == PerByteCost::cumulative ? "cumulative" : "band-rate");
}

}  // namespace instrument::loggp
