// The LogGP model of Sweep3D (Sundaram-Stukel & Vernon, PPoPP'99, Table 2, eq. 5-9):
//   W_ij      = W_g mmi mk it jt                                            (5)
//   StartP_ij = max(StartP_i-1,j + W_i-1,j + Total_Comm + Receive,
//                   StartP_i,j-1 + W_i,j-1 + Send + Total_Comm)             (6)
//   T_56      = StartP_1,m + 2[(W_1,m + Send_E + Receive_N + (m-1)L) kb mmo] (7)
//   T_78      = StartP_n-1,m + 2[(W_n-1,m + Send_E + Receive_W + Receive_N
//               + (m-1)L + (n-2)L) kb mmo] + Receive_W + W_n,m               (8)
//   T_sweeps  = 2 (T_56 + T_78)                                             (9)
// n = npe_i columns, m = npe_j rows. The iteration adds W_before, W_after and the convergence
// reductions (iteration_model.hpp).
//
// The breakdown (Figure 9) is defined by the kind of each term on the critical path that
// eq. 6-8 describe, summed along that path (eq. 6's max picks the branch; its terms are
// carried with it):
//   computation      the W terms (eq. 5), including the pipeline fill in StartP;
//   communication    the Send, Receive and Total_Comm terms (eq. 1-4);
//   synchronization  the (m-1)L and (n-2)L terms of eq. 7-8.
// computation + communication + synchronization = T_56 (T_78, T_sweeps) exactly. A run
// measures the first term as the local work (kernel, face copies) on its measured critical
// path and the other
// two together (critical_path.hpp): a run cannot tell a late partner's L from a message's L.
//
// Choices where the paper is silent, stated so a user can check them:
// - local sizes are each rank's own (uneven splits give the first ranks one more cell);
// - the k-planes of a block are kt/kb on average (= mk when mk divides kt);
// - a term for a neighbour that does not exist (edge of the grid) is 0, and with n = 1 the
//   north-east sweeps mirror the south-east ones, so T_78 = T_56;
// - (m-1)L is a sender blocked on a late receiver, so it applies only to handshake-sized
//   messages (the paper: "zero for message sizes smaller than 4KB"); (n-2)L is a receive
//   posted early and applies to every size;
// - SendMode::nonblocking (sweep3d --nonblocking, §5's suggested change): Send is the post of
//   MPI_Isend and there is no (m-1)L, since a non-blocking sender never waits for its
//   receiver; everything else as above.
#pragma once
#include "sweep3d/model/face_work.hpp"
#include "sweep3d/model/kba_shape.hpp"
#include "sweep3d/model/message_costs.hpp"

namespace sweep3d::model {

// Seconds of each kind of term along a critical path.
struct PathTerms {
  double computation = 0.0;
  double communication = 0.0;
  double synchronization = 0.0;

  double total() const noexcept { return computation + communication + synchronization; }
  PathTerms& operator+=(const PathTerms& o) noexcept;
  PathTerms scaled(double factor) const noexcept;
};

struct LogGpSweeps {
  PathTerms t_56, t_78;  // eq. 7, 8
  PathTerms sweeps;      // eq. 9: 2 (T_56 + T_78), the sweeps of one iteration
};

// `faces`: each block's W takes the rank's face work beside its neighbours (face_work.hpp).
LogGpSweeps predict_loggp(const KbaShape& shape, double w_g, const MachineCosts& machine,
                          SendMode mode = SendMode::blocking, const FaceWork& faces = {});

}  // namespace sweep3d::model
