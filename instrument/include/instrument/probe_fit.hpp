// probe_fit: the arithmetic of loggps-probe, apart from MPI so that it can be unit-tested on
// synthetic data: weighted least squares, the LogGPS fit of Ino et al. §4.2-4.3 (all
// parameters from round trips with and without a delay w, jointly), the band-wise LogGP fit
// of Sundaram-Stukel & Vernon §3.3, and the search for S (the largest message that MPI_Send
// sends without waiting for the receiver).
//
// All fits minimise RELATIVE residuals ((model - measured) / measured): round trips span four
// decades (1 us .. ms), and the acceptance criterion is a relative error per size.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "instrument/loggp.hpp"
#include "instrument/loggps.hpp"

namespace instrument::probe {

struct RttSample {
  std::int64_t bytes = 0;
  double seconds = 0.0;  // median round trip (for the delayed curve: round trip minus w)
};

struct LineFit {
  double intercept = 0.0, slope = 0.0;
};

// Least squares of A x = b (rows of A given); columns are scaled internally. Throws
// std::runtime_error if the columns are linearly dependent.
std::vector<double> least_squares(const std::vector<std::vector<double>>& rows,
                                  const std::vector<double>& rhs);

// y ~ a + b x minimising sum ((a + b x - y) / y)^2. One point: slope 0.
LineFit fit_line_relative(const std::vector<double>& x, const std::vector<double>& y);

double relative_error(double modelled, double measured);

// --- LogGPS -------------------------------------------------------------------------------
struct LogGpsFitOptions {
  double target_rel_error = 0.05;  // stop adding gap steps once every size is within this
  int max_gap_steps = 24;          // extension beyond the paper (see loggps.hpp); 0 = paper
  // Weight of the delayed round trips against the undelayed ones. The undelayed RTT alone
  // fixes 4o' + 2L (12o' + 6L above S is three times it) and O_s + O_r + G, but cannot split
  // o' from L nor O_s from O_r; the delayed RTT does. A small weight makes the fit
  // lexicographic: the undelayed RTT (the acceptance criterion) is fitted as if alone, and
  // the delayed one decides only the directions the undelayed leaves free. On this kind of
  // node the two disagree (receiving a message that is already there costs more than half a
  // ping-pong), so an equal weight would spoil both.
  double delayed_weight = 0.01;
};

struct LogGpsFit {
  loggps::LogGpsParams params;
  double max_rel_error_no_delay = 0.0;  // over the round trips without delay
  double max_rel_error_delayed = 0.0;   // over the delayed round trips (minus w)
};

// no_delay: median RTT(k, w=0). delayed: median RTT(k, w) - w, with w larger than the
// round trip so that the max{} terms of eq. (12)-(14) are zero and the model is linear in
// (o', L, O_s, O_r, G_s, G_l, step gaps). S comes from the late-receiver measurement; s is
// chosen among the measured sizes <= S as the one where the per-byte cost changes (the fit
// with the smallest error); gap steps are added greedily where one G_l cannot fit.
// No parameter is constrained in sign: like the paper's G_l < 0 (§4.2), a negative value
// means the parameter is an effective one of the MPI routines (policy P2), not a physical one.
// Two directions the undelayed RTT cannot see are chosen so that the max{} of eq. (12)-(14)
// never clips at w = 0 (which would make the model differ from the fitted lines): L is held
// at 0 if the delayed o' would give L < -o', and O_s + O_r is lowered (every gap raised by the
// same amount) if the delayed slope exceeds what the undelayed ping-pong carries. Both move
// the delayed-curve error, which the probe reports.
LogGpsFit fit_loggps(const std::vector<RttSample>& no_delay, const std::vector<RttSample>& delayed,
                     std::int64_t S, const LogGpsFitOptions& options = {});

// Fits the linear parameters for a given s, S and step positions (the inner step of
// fit_loggps, exposed for the tests).
loggps::LogGpsParams fit_loggps_fixed(const std::vector<RttSample>& no_delay,
                                      const std::vector<RttSample>& delayed, std::int64_t s,
                                      std::int64_t S, const std::vector<std::int64_t>& step_sizes,
                                      double delayed_weight = 1.0);

// --- LogGP (Sundaram-Stukel & Vernon) ------------------------------------------------------
// Bands of at least two sizes are grown greedily over the measured sizes (never across
// rendezvous_bytes) while one line fits every size of the band within tol; G is the slope of
// Total_Comm = RTT/2 and o comes from the intercept with eq. (1) or (2), given L. L, every G
// and the o of every eager band are >= 0 (L is clamped into [0, smallest eager intercept], a
// negative slope becomes a flat band), so the models that consume them stay meaningful; the
// o of a band above the handshake is an effective value and may be < 0 (see the .cpp).
loggp::LogGpParams fit_loggp(const std::vector<RttSample>& no_delay, std::int64_t rendezvous_bytes,
                             double L, double tol = 0.04);

// --- S: the eager / rendezvous switch ------------------------------------------------------
struct ThresholdSearch {
  std::int64_t S = 0;               // largest size whose send did not wait
  std::int64_t first_waiting = -1;  // S + 1, or -1 if no scanned size waited
  bool monotone = true;             // every scanned size above S waited
  std::vector<std::int64_t> tried;  // every size tried, in order
  std::vector<bool> waited;
};

// Scans `sizes` (increasing) with waits(k) -- "did MPI_Send of k bytes wait for a receiver
// that posted late?" -- then bisects between the last size that did not wait and the first
// that did, down to the byte.
ThresholdSearch find_synchronous_threshold(const std::vector<std::int64_t>& sizes,
                                           const std::function<bool(std::int64_t)>& waits);

}  // namespace instrument::probe
