// The LogGPS model of Ino, Fujimoto & Hagihara (PPoPP'01): message and MPI routine costs.
//
// Units: seconds, seconds per byte, bytes. k is the message length in bytes.
//   T1  = o' + k O_s                      send overhead                      (Table 3)
//   T2  = k G_s + L                 k<=s  first byte out -> last byte in
//   T2' = s G_s + (k - s) G_l + L   k>s
//   T3  = o' + k O_r                      receive overhead
//   T4  = max(o' + L, t_r - t_s) + o'     REQ sent, and confirmed by the receiver (k > S)
//   T5  = o' + L + o' (+ H)               ACK back to the sender
// Communication cost (eq. 1-3): k<=s T1+T2+T3; s<k<=S T1+T2'+T3; k>S T4+T5+T1+T2'+T3.
//
// Extension (off by default): `gap_steps` make the per-byte gap above s piecewise. The paper
// has one G_l for every k > s; on a shared-memory node the cost per byte changes again when
// the message leaves the caches, and one G_l cannot describe 1 B .. 4 MiB within 10%. A step
// {above_bytes = b, G = g} means the bytes beyond b (and up to the next step) cost g each
// instead of G_l. The model stays continuous in k, as §4.3 argues it must. With no steps
// every function below is exactly the paper's.
//
// Extension 2 (off by default): the rendezvous as this machine's MPI runs it, measured by the
// probe. `H` is the time the handshake of a message above S takes beyond the o' and L of its
// two control messages (a protocol's matching, polling and registration: on MPICH ch4:ucx in
// shared memory the round trip jumps by several microseconds at S, which 8o' + 4L cannot
// hold); it is charged on the ACK's way back, so T5 = o' + L + o' + H. `send_returns` says
// when a blocking send above S (and the wait of such an isend) returns: after_injection
// (Ino's eq. 5: T4 + T5 + T1, the sender pushes the data after the ACK and leaves) or
// after_transfer (T4 + T5 + T1 + T2', a zero-copy rendezvous where the receiver pulls the
// data and tells the sender when it has it, as UCX's does). The probe tells them apart by how
// the blocking time of such a send, with the receiver already waiting, grows with k. With
// H = 0 and after_injection every function below is the paper's.
//
// Constraints (validate, called by read_params; the probe's files meet them): every value in
// its physical range (instrument/src/model_ranges.hpp, named in the error): L in [0, 1] s,
// o' in (0, 1] s (MPI_Isend costs o'), O_s and O_r in [0, 1e-6] s/B, G_s in [0, 1e-6] s/B,
// G_l and the gap steps' G in [-1e-6, 1e-6] s/B, s and S in [0, 2^40] B, at most 64 gap
// steps with above_bytes in [1, 2^40] B; and at every check size k (powers of
// two 1 B .. 16 MiB, s, S and every gap step edge +-1) each term of Tables 3, 4, 6 is > 0:
// T1, T2 (or T2'), T3, T4 and T5 one by one (the receiver on time), the communication cost,
// MPI_Send, MPI_Recv, and the round trip with and without a delay; the communication cost and
// the round trip are non-decreasing in k (they jump up at S). This is stricter than Ino et al.
// §4.3, who only need the routine costs (sums) positive and accept a T2' < 0 (their Myrinet
// Table 5 gives T2' < 0 beyond 181 KB, G_l = -0.74 ns/B): each T_i is a time in their Fig. 2.
// G_l and the gap steps may still be negative as long as every T2' stays positive.
//
// Sign convention of eq. (11): the paper writes T_blk - (t_i - t_w); what it describes
// ("the partial operation already processed by t_w") is the time elapsed since the
// non-blocking call, t_w - t_i >= 0, which is what mpi_wait_cost takes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace instrument {

class MachineFile;

namespace loggps {

// Sizes the constraints are checked over.
constexpr std::int64_t kCheckMaxBytes = std::int64_t{16} << 20;

struct GapStep {
  std::int64_t above_bytes = 0;  // bytes past this count cost G (must be > s, increasing)
  double G = 0.0;                // seconds per byte
};

// When a blocking send above S returns (extension 2 above).
enum class SendReturns { after_injection, after_transfer };

struct LogGpsParams {
  double L = 0.0;        // latency, s
  double o_prime = 0.0;  // overhead of the first byte, s
  double O_s = 0.0;      // send overhead per byte, s/B
  double O_r = 0.0;      // receive overhead per byte, s/B
  double G_s = 0.0;      // gap per byte up to s (single packet), s/B
  double G_l = 0.0;      // gap per byte beyond s (multiple packets), s/B
  std::int64_t s = 0;    // largest single-packet message, B
  std::int64_t S = 0;    // largest asynchronous (eager) message; k > S is synchronous, B
  std::vector<GapStep> gap_steps;  // extension, see the header comment; empty = the paper
  double H = 0.0;                  // rendezvous handshake beyond 2(o' + L), s (extension 2)
  SendReturns send_returns = SendReturns::after_injection;  // extension 2; default = the paper
};

// When a blocking send (or the wait of an isend) of k bytes returns, counted from the start of
// its injection (after T4 + T5): T1, plus T2' when a send above S returns after the transfer.
double send_return_after_injection(const LogGpsParams& p, std::int64_t k);

// Table 3.
double T1(const LogGpsParams& p, std::int64_t k);
double T2(const LogGpsParams& p, std::int64_t k);        // kG_s + L (meant for k <= s)
double T2_prime(const LogGpsParams& p, std::int64_t k);  // sG_s + (k-s)G_l + L (k > s)
double T2_for(const LogGpsParams& p, std::int64_t k);    // T2 if k <= s, else T2'
double T3(const LogGpsParams& p, std::int64_t k);
// t_r - t_s: call time of the matching receive minus call time of the send.
double T4(const LogGpsParams& p, double receive_minus_send_call);
double T5(const LogGpsParams& p);
// Eq. (1)-(3): from the call of the send until the message is received.
double communication_cost(const LogGpsParams& p, std::int64_t k,
                          double receive_minus_send_call = 0.0);
bool is_synchronous(const LogGpsParams& p, std::int64_t k);  // k > S

// Table 4: MPI routine costs (time from call to return).
double mpi_send_cost(const LogGpsParams& p, std::int64_t k, double receive_minus_send_call = 0.0);
double mpi_isend_cost(const LogGpsParams& p);                                  // eq. (6)
double mpi_recv_cost(const LogGpsParams& p, std::int64_t k, double receive_minus_send_call);
double mpi_irecv_cost(const LogGpsParams& p);                                  // eq. (10)
// Eq. (11): blocking_cost is T_blk of the matching blocking routine (eq. 4, 5, 7-9).
double mpi_wait_cost(const LogGpsParams& p, double blocking_cost, double elapsed_since_post);

// Table 6: round trip of the RTT program (P0: send, compute w, receive; P1: receive, send),
// eq. (12)-(14), measured on P0, w included. T4 is taken with t_r - t_s <= o' + L (P1 has
// posted its receive), i.e. T4 = 2o' + L, as in the derivation of §4.3.
double round_trip_time(const LogGpsParams& p, std::int64_t k, double w);

// Throws InputError(source, key, what) for the first constraint (above) that p breaks: the key
// responsible (e.g. loggps.O_r for T3 < 0) and the size at which a cost fails.
void validate(const LogGpsParams& p, const std::string& source);

// Machine file keys: loggps.L, loggps.o_prime, loggps.O_s, loggps.O_r, loggps.G_s,
// loggps.G_l, loggps.s, loggps.S, and for the extension loggps.gap_steps = n,
// loggps.gap_step.<i>.above_bytes, loggps.gap_step.<i>.G (i = 1..n); for extension 2
// loggps.H (seconds) and loggps.rendezvous_send = after_injection | after_transfer, both
// optional (files written before them read back as the paper). read_params validates.
LogGpsParams read_params(const MachineFile& file);
void write_params(const LogGpsParams& p, MachineFile& file);

}  // namespace loggps
}  // namespace instrument
