#include "instrument/loggps.hpp"

#include <algorithm>
#include <string>

#include "instrument/error.hpp"
#include "instrument/machine_file.hpp"
#include "model_ranges.hpp"

namespace instrument::loggps {

namespace {

// Time of the bytes in (s, k] at the multi-packet gaps: G_l, then each step's G.
double multi_packet_gap_time(const LogGpsParams& p, std::int64_t k) {
  if (k <= p.s) return 0.0;
  double t = 0.0;
  std::int64_t from = p.s;
  double G = p.G_l;
  for (const GapStep& step : p.gap_steps) {
    if (k <= step.above_bytes) break;
    t += static_cast<double>(step.above_bytes - from) * G;
    from = step.above_bytes;
    G = step.G;
  }
  return t + static_cast<double>(k - from) * G;
}

}  // namespace

double T1(const LogGpsParams& p, std::int64_t k) { return p.o_prime + static_cast<double>(k) * p.O_s; }
double T2(const LogGpsParams& p, std::int64_t k) { return static_cast<double>(k) * p.G_s + p.L; }
double T2_prime(const LogGpsParams& p, std::int64_t k) {
  return static_cast<double>(p.s) * p.G_s + multi_packet_gap_time(p, k) + p.L;
}
double T2_for(const LogGpsParams& p, std::int64_t k) { return k <= p.s ? T2(p, k) : T2_prime(p, k); }
double T3(const LogGpsParams& p, std::int64_t k) { return p.o_prime + static_cast<double>(k) * p.O_r; }
double T4(const LogGpsParams& p, double dt) { return std::max(p.o_prime + p.L, dt) + p.o_prime; }
double T5(const LogGpsParams& p) { return 2.0 * p.o_prime + p.L + p.H; }

bool is_synchronous(const LogGpsParams& p, std::int64_t k) { return k > p.S; }

double communication_cost(const LogGpsParams& p, std::int64_t k, double dt) {
  const double body = T1(p, k) + T2_for(p, k) + T3(p, k);  // eq. (1), (2)
  return is_synchronous(p, k) ? T4(p, dt) + T5(p) + body : body;  // eq. (3)
}

double send_return_after_injection(const LogGpsParams& p, std::int64_t k) {
  const bool after_transfer =
      is_synchronous(p, k) && p.send_returns == SendReturns::after_transfer;
  return after_transfer ? T1(p, k) + T2_prime(p, k) : T1(p, k);
}

double mpi_send_cost(const LogGpsParams& p, std::int64_t k, double dt) {
  // eq. (5), (4); extension 2 may add T2'
  return is_synchronous(p, k) ? T4(p, dt) + T5(p) + send_return_after_injection(p, k) : T1(p, k);
}

double mpi_isend_cost(const LogGpsParams& p) { return p.o_prime; }
double mpi_irecv_cost(const LogGpsParams& p) { return p.o_prime; }

double mpi_recv_cost(const LogGpsParams& p, std::int64_t k, double dt) {
  if (!is_synchronous(p, k)) {  // eq. (7), (8): wait for the last byte, then T3
    return std::max(T1(p, k) + T2_for(p, k) - dt, 0.0) + T3(p, k);
  }
  // eq. (9): wait for the REQ, confirm it, ACK, then the whole transfer.
  return std::max(p.o_prime + p.L - dt, 0.0) + p.o_prime + T5(p) + T1(p, k) + T2_prime(p, k) +
         T3(p, k);
}

double mpi_wait_cost(const LogGpsParams& p, double blocking_cost, double elapsed_since_post) {
  return std::max(blocking_cost - elapsed_since_post, p.o_prime);
}

double round_trip_time(const LogGpsParams& p, std::int64_t k, double w) {
  const double t1 = T1(p, k), t2 = T2_for(p, k), t3 = T3(p, k);
  if (!is_synchronous(p, k)) {  // eq. (12), (13)
    return std::max(t1 + 2.0 * t2 + t3 - w, 0.0) + w + t1 + t3;
  }
  const double t4 = T4(p, 0.0), t5 = T5(p), ol = p.o_prime + p.L;  // eq. (14)
  // Extension 2: a send that returns after the transfer starts P0's delay x = T2' later; P1
  // receives as before, so only a delay longer than the flight shows it.
  const double x = send_return_after_injection(p, k) - t1;
  return std::max(t2 + t3 + ol - w - x, 0.0) + w + x + 2.0 * t1 + t2 + t3 + 2.0 * t4 + 2.0 * t5 - ol;
}

LogGpsParams read_params(const MachineFile& f) {
  LogGpsParams p;
  p.L = f.require_double("loggps.L", "LogGPS latency, seconds");
  p.o_prime = f.require_double("loggps.o_prime", "LogGPS first-byte overhead, seconds");
  p.O_s = f.require_double("loggps.O_s", "send overhead per byte, s/B");
  p.O_r = f.require_double("loggps.O_r", "receive overhead per byte, s/B");
  p.G_s = f.require_double("loggps.G_s", "gap per byte up to s, s/B");
  p.G_l = f.require_double("loggps.G_l", "gap per byte beyond s, s/B");
  p.s = f.require_bytes("loggps.s");
  p.S = f.require_bytes("loggps.S");
  const std::int64_t steps = f.has("loggps.gap_steps") ? f.require_bytes("loggps.gap_steps") : 0;
  model_ranges::require_in(steps, model_ranges::kStepCount, f.name(), "loggps.gap_steps");  // before the loop
  std::int64_t previous = p.s;
  for (std::int64_t i = 1; i <= steps; ++i) {
    const std::string base = "loggps.gap_step." + std::to_string(i);
    GapStep step{f.require_bytes(base + ".above_bytes"), f.require_double(base + ".G")};
    if (step.above_bytes <= previous) {
      throw InputError(f.name(), base + ".above_bytes",
                       "expected gap steps above s and in increasing order");
    }
    previous = step.above_bytes;
    p.gap_steps.push_back(step);
  }
  if (f.has("loggps.H")) p.H = f.require_double("loggps.H", "LogGPS rendezvous handshake beyond 2(o' + L), seconds");
  if (f.has("loggps.rendezvous_send")) {
    const std::string rule = *f.get_string("loggps.rendezvous_send");
    if (rule == "after_injection") p.send_returns = SendReturns::after_injection;
    else if (rule == "after_transfer") p.send_returns = SendReturns::after_transfer;
    else throw InputError(f.name(), "loggps.rendezvous_send",
                          "expected after_injection or after_transfer, got '" + rule + "'");
  }
  validate(p, f.name());
  return p;
}

void write_params(const LogGpsParams& p, MachineFile& f) {
  f.comment("LogGPS (Ino et al. PPoPP'01, Table 3-6): seconds, seconds/byte, bytes;");
  f.comment("k > loggps.S is sent synchronously (MPI_Send waits for the matching receive)");
  f.set("loggps.L", p.L);
  f.set("loggps.o_prime", p.o_prime);
  f.set("loggps.O_s", p.O_s);
  f.set("loggps.O_r", p.O_r);
  f.set("loggps.G_s", p.G_s);
  f.set("loggps.G_l", p.G_l);
  f.set("loggps.s", p.s);
  f.set("loggps.S", p.S);
  f.set("loggps.gap_steps", static_cast<std::int64_t>(p.gap_steps.size()));
  for (std::size_t i = 0; i < p.gap_steps.size(); ++i) {
    const std::string base = "loggps.gap_step." + std::to_string(i + 1);
    f.set(base + ".above_bytes", p.gap_steps[i].above_bytes);
    f.set(base + ".G", p.gap_steps[i].G);
  }
  f.comment("the rendezvous as measured (extension 2): handshake beyond 2(o' + L), seconds, and");
  f.comment("when a blocking send above S returns (after_injection: Ino's eq. 5)");
  f.set("loggps.H", p.H);
  f.set("loggps.rendezvous_send", std::string(p.send_returns == SendReturns::after_transfer
                                                  ? "after_transfer"
                                                  : "after_injection"));
}

}  // namespace instrument::loggps
