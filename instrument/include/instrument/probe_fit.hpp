// probe_fit: the arithmetic of loggps-probe, apart from MPI so that it can be unit-tested on
// synthetic data: the LogGPS fit of Ino et al. §4.2-4.3 (all parameters from round trips with
// and without a delay w, jointly), the LogGP derivation of Sundaram-Stukel & Vernon §3.3, and
// the search for S (the largest message that MPI_Send sends without waiting for the receiver).
//
// Each model is first derived as its paper does; that result is kept only if it meets every
// constraint of its model (loggp::validate, loggps::validate) and fits every measured round
// trip within target_rel_error. Otherwise the fit says why (`rejected`) and falls back to a
// constrained fit (derivation "constrained"), described at fit_loggps and fit_loggp. Either
// way the result passes validate: the probe never writes a file that a reader would refuse.
//
// All fits minimise RELATIVE residuals ((model - measured) / measured): round trips span four
// decades (1 us .. ms), and the acceptance criterion is a relative error per size.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "instrument/fitting.hpp"
#include "instrument/loggp.hpp"
#include "instrument/loggps.hpp"
#include "instrument/machine_file.hpp"

namespace instrument::probe {

// The floor of the constrained fits for L and the overheads, seconds. A time must be > 0 (a
// message's flight and its handling take time; Send = o and T2(1 B) = G_s + L must be > 0),
// and 1 ns is the resolution of the clock that times the round trips: nothing smaller can
// be told from 0 here. A parameter at this floor means "not resolved", and the report says so.
constexpr double kTimeFloor = 1e-9;

// A fit whose worst undelayed round trip is off by more than this describes the measurement's
// noise or a first-use cost, not the network: the probes refuse it and measure again, and the
// apps do not use a cached file that says so (machine_cache.hpp). Fits on the suite's idle
// machines miss by 1.4-5% (BENCHMARKS.md), `loggps-probe --quick --reps 3` on a loaded 2-vCPU
// guest by up to 21%; the apps' short probe before its warm-up missed by 80%. The bound sits
// between, so that a loaded test machine does not refuse three fits in a row.
constexpr double kMaxRoundTripFitError = 0.5;

// Why a machine file's fits are too far from their own round trips to use: its
// loggps.max_rel_error_rtt or loggp.max_rel_error_rtt above kMaxRoundTripFitError, said with
// the key and the figure; "" when neither is (or neither is there). Throws InputError where
// either key is there but not a number (MachineFile::get_double).
std::string round_trip_fit_problem(const MachineFile& f);

struct RttSample {
  std::int64_t bytes = 0;
  double seconds = 0.0;  // median round trip (for the delayed curve: round trip minus w)
};

// Largest |relative error| of the round trips a model predicts.
double max_rel_error(const std::vector<RttSample>& data, const std::function<double(std::int64_t)>& model);

// --- LogGPS -------------------------------------------------------------------------------
struct LogGpsFitOptions {
  double target_rel_error = 0.05;  // stop adding gap steps once every size is within this
  double accept_rel_error = 0.10;  // the paper's derivation is kept only within this
  int max_gap_steps = 24;          // extension beyond the paper (see loggps.hpp); 0 = paper
  // Weight of the delayed round trips against the undelayed ones. The undelayed RTT alone
  // fixes 4o' + 2L (12o' + 6L above S is three times it) and O_s + O_r + G, but cannot split
  // o' from L nor O_s from O_r; the delayed RTT does. A small weight makes the fit
  // lexicographic: the undelayed RTT (the acceptance criterion) is fitted as if alone, and
  // the delayed one decides only the directions the undelayed leaves free. On this kind of
  // node the two disagree (receiving a message that is already there costs more than half a
  // ping-pong), so an equal weight would spoil both.
  double delayed_weight = 0.01;
  // When a blocking send above S returns (loggps.hpp, extension 2): measured by the probe
  // before the fit (rendezvous_send_rule), since the delayed round trips above S depend on it.
  loggps::SendReturns send_returns = loggps::SendReturns::after_injection;
};

struct LogGpsFit {
  loggps::LogGpsParams params;
  std::string derivation;               // "ino-4.3" or "constrained"
  std::string rejected;                 // why the paper's derivation was not kept ("" if it was)
  loggps::LogGpsParams paper;           // the paper's derivation (= params when kept)
  double paper_max_rel_error = 0.0;     // its worst undelayed round trip
  double max_rel_error_no_delay = 0.0;  // over the round trips without delay
  double max_rel_error_delayed = 0.0;   // over the delayed round trips (minus w)
};

// no_delay: median RTT(k, w=0). delayed: median RTT(k, w) - w, with w larger than the
// round trip so that the max{} terms of eq. (12)-(14) are zero and the model is linear in
// (o', L, O_s, O_r, G_s, G_l, step gaps). S comes from the late-receiver measurement; s is
// chosen among the measured sizes <= S as the one where the per-byte cost changes (the fit
// with the smallest error); gap steps are added greedily where one G_l cannot fit.
// "ino-4.3": that fit by unconstrained least squares (Ino et al. solve the same equations
// exactly; like their G_l < 0, a parameter may come out negative), kept if it passes
// loggps::validate and fits within accept_rel_error. "constrained": the same search with every
// parameter >= 0 and o', L >= kTimeFloor (non-negative least squares), which makes every
// T_i > 0 and the max{} of eq. (12)-(14) inactive at w = 0, so the model equals the fitted rows.
LogGpsFit fit_loggps(const std::vector<RttSample>& no_delay, const std::vector<RttSample>& delayed,
                     std::int64_t S, const LogGpsFitOptions& options = {});

// Fits the linear parameters for a given s, S and step positions (the inner step of
// fit_loggps, exposed for the tests); nonnegative: every parameter >= 0.
loggps::LogGpsParams fit_loggps_fixed(const std::vector<RttSample>& no_delay,
                                      const std::vector<RttSample>& delayed, std::int64_t s,
                                      std::int64_t S, const std::vector<std::int64_t>& step_sizes,
                                      double delayed_weight = 1.0, bool nonnegative = false,
                                      loggps::SendReturns rule = loggps::SendReturns::after_injection);

// --- LogGP (Sundaram-Stukel & Vernon) ------------------------------------------------------
struct LogGpFitOptions {
  double band_tolerance = loggp::kEdgeTolerance;  // a band's line fits each of its sizes within
  double accept_rel_error = 0.10;  // the paper's derivation is kept only within this
  double delayed_weight = 0.01;    // as in LogGpsFitOptions (constrained fit only)
};

// The three equations of §3.3 on the intercepts a of Total_Comm = a + k G (one line per band):
//   a1 = 2 o_s + L            (eq. 1, the first band: small messages)
//   a2 = 2 o_l + L            (eq. 1, the last band below the handshake)
//   a3 = 3 o_s + 2 o_l + 3 L  (eq. 2, the first band above it)
// so L = 2 a3 - 3 a1 - 2 a2, o_s = (a1 - L) / 2, o_l = (a2 - L) / 2. With one band below the
// handshake a1 = a2 (o_s = o_l, L = 2 a3 - 5 a1). Needs a band on each side of the handshake.
struct SsvEquations {
  bool solvable = false;
  double a1 = 0.0, a2 = 0.0, a3 = 0.0;  // seconds
  double L = 0.0, o_s = 0.0, o_l = 0.0;
};
SsvEquations solve_ssv_equations(double a1, double a2, double a3);

struct LogGpFit {
  loggp::LogGpParams params;
  std::string derivation;  // "ssv-3.3" or "constrained"
  std::string rejected;    // why the three equations were not kept ("" if they were)
  SsvEquations ssv;        // the three equations' values
  double max_rel_error = 0.0;  // over the undelayed round trips
};

// "ssv-3.3": bands of at least two sizes are grown greedily over the measured sizes (never
// across rendezvous_bytes) while one line fits every size of the band within band_tolerance;
// G is the band's slope of Total_Comm = RTT/2, L, o_s, o_l come from the three equations
// above, and the o of every other band from its intercept and L (a = 2o + L below the
// handshake, a = 3 o_s + 2o + 3L above). Kept if it passes loggp::validate and fits within
// accept_rel_error.
// "constrained" (per_byte = cumulative): Total_Comm = 2 o_s + L + X(k) below the handshake and
// 3 o_s + 2 o_l + 3 L + X(k) above it (o constant per protocol: o_s for eager messages and for
// the handshake's header and acknowledgement, o_l for the data of a handshake message), X
// continuous and piecewise linear with a breakpoint at the handshake and where needed to fit
// every size within band_tolerance. Non-negative least squares in (o_s, o_l, L, G_1..G_n) with
// L, o_s, o_l >= kTimeFloor (nothing measured here bounds L tighter) and G >= 0, so
// Send, Receive and Total_Comm are non-decreasing and continuous but for the handshake. The
// undelayed round trip fixes 2 o_s + L and 3 o_s + 2 o_l + 3 L only; the split of o_s from L
// is Ino et al.'s (§4.3): the delayed round trip of a message smaller and smaller is the
// overheads alone, Send + Receive = 2 o_s (eq. 3a, 3b), taken as the intercept of a line
// through the delayed round trips below the handshake (weighted by delayed_weight).
LogGpFit fit_loggp(const std::vector<RttSample>& no_delay, const std::vector<RttSample>& delayed,
                   std::int64_t rendezvous_bytes, const LogGpFitOptions& options = {});

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

// --- when a blocking send above S returns (loggps.hpp, extension 2) ------------------------
// From two sizes a < b above S: the growth of MPI_Send's time with its receiver already
// waiting, send(b) - send(a), against the growth of a one-way message, (RTT(b) - RTT(a)) / 2.
// A send that returns once it has started injecting grows by (b - a) O_s only; one that
// returns after the transfer by (b - a)(O_s + G), nearly all of the one-way growth (which
// adds O_r). The verdict is the nearer of the two: after_transfer when the send grows by more
// than half the one-way growth.
struct RendezvousSendEvidence {
  std::int64_t a = 0, b = 0;              // sizes, bytes (a < b, both > S)
  double send_a = 0.0, send_b = 0.0;      // MPI_Send with the receiver waiting, s
  double rtt_a = 0.0, rtt_b = 0.0;        // round trips without delay, s
  double ratio = 0.0;                     // (send_b - send_a) / ((rtt_b - rtt_a) / 2)
  loggps::SendReturns rule = loggps::SendReturns::after_injection;
};
// Throws std::invalid_argument unless a < b, both > S, and the one-way growth is > 0.
RendezvousSendEvidence rendezvous_send_rule(std::int64_t S, std::int64_t a, std::int64_t b, double send_a,
                                            double send_b, double rtt_a, double rtt_b);

}  // namespace instrument::probe
