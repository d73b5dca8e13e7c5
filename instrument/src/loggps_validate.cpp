// The constraints of a LogGPS parameter set (listed in loggps.hpp), checked on every file read
// and on every fit the probe writes.
#include <cmath>
#include <functional>
#include <string>

#include "cost_checks.hpp"
#include "instrument/error.hpp"
#include "instrument/loggps.hpp"
#include "model_ranges.hpp"

namespace instrument::loggps {

namespace {

using cost_checks::micro;
using cost_checks::number;

// s, S and every gap step edge.
std::vector<std::int64_t> edges(const LogGpsParams& p) {
  std::vector<std::int64_t> e{p.s, p.S};
  for (const GapStep& st : p.gap_steps) e.push_back(st.above_bytes);
  return e;
}

// The key of the per-byte gap that the k-th byte of a message pays.
std::string gap_key(const LogGpsParams& p, std::int64_t k) {
  if (k <= p.s) return "loggps.G_s";
  std::string key = "loggps.G_l";
  for (std::size_t i = 0; i < p.gap_steps.size(); ++i)
    if (k > p.gap_steps[i].above_bytes) key = "loggps.gap_step." + std::to_string(i + 1) + ".G";
  return key;
}

}  // namespace

void validate(const LogGpsParams& p, const std::string& source) {
  auto fail = [&](const std::string& key, const std::string& what) {
    throw InputError(source, key, what);
  };
  using namespace model_ranges;
  require_in(p.L, kLatency, source, "loggps.L");
  require_in(p.o_prime, kOverhead, source, "loggps.o_prime");
  require_in(p.O_s, kOverheadPerByte, source, "loggps.O_s");
  require_in(p.O_r, kOverheadPerByte, source, "loggps.O_r");
  require_in(p.G_s, kGapPerByte, source, "loggps.G_s");
  require_in(p.G_l, kSignedGapPerByte, source, "loggps.G_l");
  require_in(p.s, kMessageBytesOrZero, source, "loggps.s");
  require_in(p.S, kMessageBytesOrZero, source, "loggps.S");
  require_in(static_cast<std::int64_t>(p.gap_steps.size()), kStepCount, source, "loggps.gap_steps");
  require_in(p.H, kLatency, source, "loggps.H");
  for (std::size_t i = 0; i < p.gap_steps.size(); ++i) {
    const std::string base = "loggps.gap_step." + std::to_string(i + 1);
    require_in(p.gap_steps[i].above_bytes, kMessageBytes, source, base + ".above_bytes");
    require_in(p.gap_steps[i].G, kSignedGapPerByte, source, base + ".G");
    const std::int64_t previous = i == 0 ? p.s : p.gap_steps[i - 1].above_bytes;
    if (p.gap_steps[i].above_bytes <= previous) {
      fail(base + ".above_bytes", "expected gap steps above s and in increasing order");
    }
  }
  if (p.o_prime <= 0.0) fail("loggps.o_prime", "expected an overhead > 0 s (MPI_Isend costs o'), got " + number(p.o_prime));

  // Every term of Tables 3, 4 and 6 at every check size, with the receiver on time (t_r = t_s):
  // the terms one at a time first, so that the key named is the one at fault.
  const double large_w = 1.0;  // a delay that hides the flight (eq. 12-14 with max{} = 0)
  const struct {
    const char* name;
    std::function<double(std::int64_t)> of;
    std::function<std::string(std::int64_t)> key;
  } terms[] = {
      {"T1", [&](std::int64_t k) { return T1(p, k); }, [](std::int64_t) { return "loggps.O_s"; }},
      {"T2", [&](std::int64_t k) { return T2_for(p, k); }, [&](std::int64_t k) { return gap_key(p, k); }},
      {"T3", [&](std::int64_t k) { return T3(p, k); }, [](std::int64_t) { return "loggps.O_r"; }},
      {"T4", [&](std::int64_t) { return T4(p, 0.0); }, [](std::int64_t) { return "loggps.o_prime"; }},
      {"T5", [&](std::int64_t) { return T5(p); }, [](std::int64_t) { return "loggps.o_prime"; }},
      {"communication cost", [&](std::int64_t k) { return communication_cost(p, k); },
       [&](std::int64_t k) { return gap_key(p, k); }},
      {"MPI_Send", [&](std::int64_t k) { return mpi_send_cost(p, k); }, [](std::int64_t) { return "loggps.O_s"; }},
      {"MPI_Recv", [&](std::int64_t k) { return mpi_recv_cost(p, k, 0.0); }, [](std::int64_t) { return "loggps.O_r"; }},
      {"round trip", [&](std::int64_t k) { return round_trip_time(p, k, 0.0); },
       [&](std::int64_t k) { return gap_key(p, k); }},
      {"delayed round trip - w", [&](std::int64_t k) { return round_trip_time(p, k, large_w) - large_w; },
       [](std::int64_t) { return "loggps.O_r"; }},
  };
  const auto sizes = cost_checks::sizes(kCheckMaxBytes, edges(p));
  for (std::int64_t k : sizes) {
    for (const auto& t : terms) {
      const double v = t.of(k);
      if (!std::isfinite(v) || v <= 0.0) {
        const std::string name = std::string(t.name) == "T2" && k > p.s ? "T2'" : t.name;
        fail(t.key(k), name + "(" + std::to_string(k) + " B) = " + micro(v) + ": expected > 0");
      }
    }
  }
  // The communication cost and the round trip grow with the size (they jump up at S).
  for (std::size_t n = 1; n < sizes.size(); ++n) {
    const std::int64_t a = sizes[n - 1], b = sizes[n];
    for (const auto& t : {terms[5], terms[8]}) {
      const double va = t.of(a), vb = t.of(b);
      if (vb < va * (1.0 - 1e-12)) {
        fail(t.key(b), std::string(t.name) + " falls from " + std::to_string(a) + " B to " +
                           std::to_string(b) + " B (" + micro(va) + " -> " + micro(vb) +
                           "): expected it non-decreasing in the size");
      }
    }
  }
}

}  // namespace instrument::loggps
