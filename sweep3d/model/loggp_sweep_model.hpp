// The LogGP model of Sweep3D (Sundaram-Stukel & Vernon, PPoPP'99, Table 2, eq. 5-9):
//   W_ij      = W_g mmi mk it jt                                            (5)
//   StartP_ij = max(StartP_i-1,j + W_i-1,j + Total_Comm + Receive,
//                   StartP_i,j-1 + W_i,j-1 + Send + Total_Comm)             (6)
//   T_56      = StartP_1,m + 2[(W_1,m + Send_E + Receive_N + (m-1)L) kb mmo] (7)
//   T_78      = StartP_n-1,m + 2[(W_n-1,m + Send_E + Receive_W + Receive_N
//               + (m-1)L + (n-2)L) kb mmo] + Receive_W + W_n,m               (8)
//   T_iter    = 2 (T_56 + T_78)                                             (9)
// plus the measured W_before and W_after of an iteration. n = npe_i columns, m = npe_j rows.
//
// Choices where the paper is silent, stated so a user can check them:
// - local sizes are each rank's own (uneven splits give the first ranks one more cell);
// - the k-planes of a block are kt/kb on average (= mk when mk divides kt);
// - a term for a neighbour that does not exist (edge of the grid) is 0, and with n = 1 the
//   north-east sweeps mirror the south-east ones, so T_78 = T_56;
// - (m-1)L is a sender blocked on a late receiver, so it applies only to handshake-sized
//   messages (the paper: "zero for message sizes smaller than 4KB"); (n-2)L is a receive
//   posted early and applies to every size.
#pragma once
#include "kba_shape.hpp"
#include "message_costs.hpp"

namespace sweep3d::model {

struct LogGpPrediction {
  double t_56 = 0.0, t_78 = 0.0;
  double sweeps = 0.0;           // 2 (T_56 + T_78): the sweeps of one iteration
  double w_before = 0.0, w_after = 0.0;
  double per_iteration = 0.0;    // sweeps + W_before + W_after
  // Figure 9's breakdown of the critical path of one iteration's sweeps.
  double computation = 0.0;      // the W terms
  double synchronization = 0.0;  // the (m-1)L and (n-2)L terms
  double communication = 0.0;    // the rest: Send, Receive, Total_Comm
};

LogGpPrediction predict_loggp(const KbaShape& shape, double w_g, const MachineCosts& machine,
                              double w_before = 0.0, double w_after = 0.0);

}  // namespace sweep3d::model
