// T_comm(bytes) of the analytic models (Kerbyson, Hoisie & Pautz eq. 7,
// T_comm = L_c(S) + S / B_c(S)) from the machine measured by loggps-probe.
//
// The paper's L_c and B_c are read off a ping-pong: eq. 7 is the one-way, end-to-end time of a
// message, half a round trip, from the sender's call until the receiver has the data. In
// LogGPS (Ino, Fujimoto & Hagihara; instrument/loggps.hpp) that is communication_cost(k) with
// the receiver already waiting (t_r - t_s = 0): T1 + T2 + T3 for an eager message, plus the
// handshake T4 + T5 above S. round_trip_time(k, 0) is exactly twice it (Table 6 with w = 0:
// 2(T1 + T2 + T3), or 2(T1 + T2' + T3 + T4 + T5) above S), so the two agree with the
// measurement eq. 7 describes; we take communication_cost because it is the one-way cost
// itself, not a quantity divided afterwards. The sender's cost alone (mpi_isend_cost, o') would
// be the right charge only if the sweep's communication overlapped the receiver's work, which
// eq. 6 assumes it does not. The destination D of eq. 7 (intra- or inter-node) is not
// distinguished: the machine file holds one set of parameters.
//
// A message as the sweep's measured critical path holds it (path_message_cost) is another
// thing: the path charges the sender's call (MPI_Bsend, or MPI_Isend, returning once the data
// is copied out: no wait for the receiver) and the receiver's call for a message already
// there (MPI_Iprobe + MPI_Recv), then the unpack of each face record into the ghost slots and
// the ready queue; the transit itself is off the path when the receiver was busy computing,
// which is how a step's message mostly travels. So:
//   T_msg(k) = Send(k) + Bsend(k) + Receive(k) + (k / record bytes) T_unpack + T_unpack,msg
// with, from the machine file's LogGP set (loggp.*, Sundaram-Stukel & Vernon eq. 3a, 3b):
//   Send(k) = o of k's band below the handshake size; from it a buffered send still does not
//             wait for its receiver: o of k's band + X(k), the copy of its bytes;
//   Receive(k) = o of k's band below the handshake size, eq. 4b's Receive from it;
// or, from a file with LogGPS only (Ino et al. Table 3): Send(k) = T1(k), Receive(k) = T3(k).
// Bsend(k) is what the blocking mode's MPI_Bsend adds to the isend o prices (the progress
// poll, the attached buffer's bookkeeping and the copy into it: tycho/bsend_probe.hpp), a part
// a call and a part a byte; T_unpack a record and T_unpack,msg a message
// (tycho/unpack_probe.hpp). All three are measured by the calibration run; without them the
// piece is not priced, and the report says so. The records' packing is not in the send: the
// step packs them as it releases its tasks, in the compute interval.
#pragma once
#include <optional>
#include <string>

#include "instrument/loggp.hpp"
#include "instrument/loggp_pending.hpp"
#include "instrument/loggps.hpp"
#include "tycho/model/msm.hpp"

namespace instrument {
class MachineFile;
}

namespace tycho::model {

// T_comm(k) = loggps::communication_cost(params, k, 0); std::invalid_argument for k < 0.
CommCost comm_cost_from_loggps(const instrument::loggps::LogGpsParams& params);

// The LogGPS parameters of a machine file, the whole file checked first: tycho reads it, so
// every number in it must make sense even where tycho does not use it (a file with
// loggp.L = nan is damaged, and would mislead sweep3d later). InputError naming the file and:
// - the line and key of any parameter that is not a finite number
//   (MachineFile::require_finite_parameters);
// - the key of a LogGP set (loggp.*) out of its physical range (loggp::read_params);
// - the key of a LogGPS parameter missing or out of range (loggps::read_params).
instrument::loggps::LogGpsParams read_checked_loggps(const instrument::MachineFile& file);

// T_comm from a machine file, read_checked_loggps's parameters.
CommCost comm_cost_from_machine(const instrument::MachineFile& file);

// The LogGP set of a machine file (validated), nullopt when it has no loggp.* key.
std::optional<instrument::loggp::LogGpParams> read_loggp_if_any(const instrument::MachineFile& file);

// What a message on the path is priced with (the header's T_msg).
struct PathMessagePrice {
  std::optional<instrument::loggp::LogGpParams> loggp;  // the calls' costs; else from loggps
  instrument::loggps::LogGpsParams loggps;
  double record_bytes = 0;          // bytes per face record, 8 + 24 G, > 0
  double unpack_s_per_record = 0;   // T_unpack, >= 0
  bool unpack_priced = false;       // false: no measured T_unpack, the unpack is left out
  std::string unpack_source;        // where T_unpack came from (the calibration files)
  double unpack_s_per_message = 0;  // T_unpack,msg, >= 0
  bool unpack_message_priced = false;  // false: not measured (an older calibration file)
  bool bsend_priced = false;        // false: the buffered send's extra is left out
  double bsend_s_per_call = 0, bsend_s_per_byte = 0;  // >= 0
  std::string bsend_source;         // where they came from
  // A send that finds the peer's message waiting (issue 39; instrument/loggp_pending.hpp): the
  // machine file's loggp.pending.* figures price its send call (MPI_Bsend's in the blocking
  // mode) and the receive that follows, for sizes up to the largest measured (below the
  // smallest, its figures). nullopt, the non-blocking mode (MPI_Isend, not measured) or a larger
  // size: priced as a plain message.
  std::optional<instrument::loggp::PendingCosts> pending;
  bool pending_buffered = true;     // the blocking mode's MPI_Bsend; false: MPI_Isend, not priced

  bool waiting_priced(std::int64_t bytes) const;
  double send_call_waiting(std::int64_t bytes) const;     // send_call when not waiting_priced
  double receive_call_waiting(std::int64_t bytes) const;  // receive_call when not waiting_priced

  double send_call(std::int64_t bytes) const;  // o (+ X above the handshake) + bsend_extra
  double bsend_extra(std::int64_t bytes) const;  // 0 when not priced
  double receive_call(std::int64_t bytes) const;
  // (bytes / record_bytes) T_unpack + T_unpack,msg (for bytes > 0), 0 when not priced.
  double unpack(double bytes) const;
  // The figures used, for a row's text: the calls' source and their values at `bytes`.
  std::string describe(std::int64_t bytes) const;
  // The waiting figures and the share of sends they price (waiting / sends), for a row's text.
  std::string describe_waiting(std::int64_t bytes, double waiting, double sends) const;
};

// T_msg(k) = send_call(k) + receive_call(k) + unpack(k); std::invalid_argument for k < 0, a
// record size <= 0 or a T_unpack, T_unpack,msg or Bsend part that is not finite and >= 0.
CommCost path_message_cost(const PathMessagePrice& price);
// T_msg of a message whose send finds the peer's message waiting: send_call_waiting(k) +
// receive_call_waiting(k) + unpack(k); the same refusals.
CommCost path_message_cost_waiting(const PathMessagePrice& price);

}  // namespace tycho::model
