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
#pragma once
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

}  // namespace tycho::model
