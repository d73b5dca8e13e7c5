// The search for S of loggps-probe, and what the fits share; the fits themselves are in
// probe_fit_loggps.cpp and probe_fit_loggp.cpp.
#include "instrument/probe_fit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>

namespace instrument::probe {

std::string round_trip_fit_problem(const MachineFile& f) {
  for (const char* key : {"loggps.max_rel_error_rtt", "loggp.max_rel_error_rtt"}) {
    const std::optional<double> e = f.get_double(key);
    if (e && *e > kMaxRoundTripFitError) {
      char text[160];
      std::snprintf(text, sizeof text, "%s = %.4g: the fit misses a measured round trip by %.1f%%, more than %.0f%%",
                    key, *e, 100 * *e, 100 * kMaxRoundTripFitError);
      return text;
    }
  }
  return "";
}

double max_rel_error(const std::vector<RttSample>& data, const std::function<double(std::int64_t)>& model) {
  double worst = 0.0;
  for (const RttSample& d : data) worst = std::max(worst, std::fabs(relative_error(model(d.bytes), d.seconds)));
  return worst;
}

// ---------------------------------------------------------------------------- S
ThresholdSearch find_synchronous_threshold(const std::vector<std::int64_t>& sizes,
                                           const std::function<bool(std::int64_t)>& waits) {
  ThresholdSearch r;
  auto probe = [&](std::int64_t k) {
    const bool w = waits(k);
    r.tried.push_back(k);
    r.waited.push_back(w);
    return w;
  };
  std::size_t first = sizes.size();
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const bool w = probe(sizes[i]);
    if (w && first == sizes.size()) first = i;
    if (!w && first != sizes.size()) r.monotone = false;
  }
  if (first == sizes.size()) {
    r.S = sizes.empty() ? 0 : sizes.back();
    r.first_waiting = -1;
    return r;
  }
  std::int64_t lo = first == 0 ? 0 : sizes[first - 1];  // did not wait (0 B: nothing to wait for)
  std::int64_t hi = sizes[first];                       // waited
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (probe(mid)) hi = mid;
    else lo = mid;
  }
  r.S = lo;
  r.first_waiting = hi;
  return r;
}

// ---------------------------------------------------------------------------- the rendezvous
RendezvousSendEvidence rendezvous_send_rule(std::int64_t S, std::int64_t a, std::int64_t b, double send_a,
                                            double send_b, double rtt_a, double rtt_b) {
  if (!(S < a && a < b)) throw std::invalid_argument("rendezvous_send_rule: needs S < a < b");
  const double one_way_growth = 0.5 * (rtt_b - rtt_a);
  if (!(one_way_growth > 0.0))
    throw std::invalid_argument("rendezvous_send_rule: the round trip does not grow from a to b");
  RendezvousSendEvidence e{a, b, send_a, send_b, rtt_a, rtt_b, (send_b - send_a) / one_way_growth,
                           loggps::SendReturns::after_injection};
  if (e.ratio > 0.5) e.rule = loggps::SendReturns::after_transfer;
  return e;
}

}  // namespace instrument::probe
