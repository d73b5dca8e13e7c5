// The general model (GM) of Kerbyson, Hoisie & Pautz: eq. 6 with the mesh replaced by an
// ideal 3-D partition (eq. 8, 9, section 3.1), for projections to meshes and P never run.
//
//   E_p       = N / P                                  cells per rank
//   #steps    = E_p N_Omega / (Work PCE) + (P_x - 1) + (P_y - 1) + (P_z - 1)       (8)
//   Work      = min(MCPS, E_p N_Omega)                 cell-angle tasks per step     (9)
//   N_s       = min(E_p^(2/3), MCPS^(2/3)) * bytes per boundary cell-angle
//   T_iter    = #steps Work T_elem(E_p) + #steps |N_c| T_comm(N_s)                 (6)
//             + #steps T_step                                            (ours, below)
//
// Choices, where the paper is silent or reads two ways:
// - Eq. 8 divides by MCPS; we divide by Work, which is MCPS unless MCPS > E_p N_Omega. A step
//   cannot do more than the rank's whole iteration, and eq. 8 as printed would then count
//   fewer than 1 / PCE work steps while eq. 9 keeps each one's work at E_p N_Omega.
//   #steps is not rounded (the paper's is a mean).
// - The logical grid P_x >= P_y >= P_z, P_x P_y P_z = P: of all such factorisations the one
//   with the smallest P_x, then the smallest P_y (the most balanced, as MPI_Dims_create aims
//   for; this rule is ours, written here, deterministic, and may differ from an MPI library's
//   on some P). A prime P is a chain P x 1 x 1.
// - |N_c|, messages per step: the paper's six is an interior rank of a grid of at least 3 in
//   every dimension. We count what an interior rank of this grid has: 2 per dimension with
//   P_i > 2, 1 per dimension with P_i = 2, none with P_i = 1 (so 0 at P = 1, 1 at P = 2,
//   3 at 2 x 2 x 2, 6 from 3 x 3 x 3 on). A run at P = 2 has one neighbour, not six.
// - N_s: the paper's "boundary cell" of 40 bytes is one face's data for one direction in its
//   scheme (an id and three nodal values), so its count min(E_p^(2/3), MCPS^(2/3)) is of
//   boundary cell-angles: a step's MCPS tasks taken as a compact block whose surface is
//   MCPS^(2/3), capped by a part's face E_p^(2/3). We keep that count and multiply by our
//   bytes per boundary cell-angle (the sweep sends 8 + 24 G bytes per face and direction, G
//   groups: an id and the three nodal values per group). When a step mixes several directions
//   its tasks are no compact block and its messages carry more: the GM under-predicts there,
//   as the paper says it does; the MSM and TM use the real sizes.
// - T_step (tycho/results_calibration.hpp): a one-rank calibration sweep's critical path
//   outside the solves and the messages over its steps: the step loop's bookkeeping (popping
//   and ordering the step's tasks, the probes that find nothing; the sweep's reset of its
//   ready queue is the first step's compute, in T_elem). The paper charges cell-angle tasks
//   only, but that path spends under 0.1 us a step there (1-2% of a sweep at MCPS 64)
//   (tycho/BENCHMARKS.md). Given, it is charged once a step; 0 (the default) is the paper's
//   model. One figure for every MCPS and P.
// - Contention (the paper's multiplicative constant on T_comm) is not modelled: T_comm is
//   given, and a caller wanting it passes a scaled function.
//
// Units: cells, directions and tasks are counts; T_elem(E_p) seconds per cell-angle task;
// T_comm(bytes) seconds per message; results in seconds.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "tycho/model/msm.hpp"

namespace tycho::model {

struct LogicalGrid {
  int x = 1, y = 1, z = 1;  // P_x >= P_y >= P_z
};

// The logical grid of P ranks (rule above); std::invalid_argument for P < 1.
LogicalGrid logical_grid(int ranks);
// Messages per step of an interior rank of the grid (rule above).
int grid_neighbours(const LogicalGrid& grid);

struct GmInputs {
  double cells = 0.0;                 // N, the mesh's cells
  int ranks = 1;                      // P
  int directions = 0;                 // N_Omega
  std::int64_t mcps = 0;              // MaxCellsPerStep, cell-angle tasks
  double pce = 1.0;                   // assumed, or measured on another run: in (0, 1]
  std::string pce_source;             // where the PCE came from, for the report
  double bytes_per_boundary_cell_angle = 0.0;  // ours: 8 + 24 G
  std::function<double(double cells_per_rank, double mcps)> t_elem;  // e.g. a TelemCurve
  CommCost t_comm;
  // A message whose send finds the peer's message waiting (msm.hpp, waiting_sends_in_step: of a
  // step's |N_c| sends, 1 - 2^-|N_c| do, the step receiving |N_c| as it sends); empty: not priced.
  CommCost t_comm_waiting;
  double step_overhead_s = 0.0;       // T_step, s a step (0: the paper's model)
};

struct GmPrediction {
  double compute_s = 0.0;
  double comm_s = 0.0;
  double bookkeeping_s = 0.0;         // #steps T_step
  double total_s = 0.0;
  double comm_share = 0.0;            // comm_s / total_s (0 if total is 0)
  double steps = 0.0;                 // eq. 8
  double work_steps = 0.0;            // its first term
  int pipeline_steps = 0;             // its second term
  double cells_per_rank = 0.0;        // E_p
  double work_per_step = 0.0;         // eq. 9
  double t_elem_s = 0.0;              // T_elem(E_p)
  int messages_per_step = 0;          // |N_c|
  double waiting_sends_per_step = 0;  // of them, finding a message waiting (0 without t_comm_waiting)
  double t_comm_waiting_s = 0.0;      // t_comm_waiting(N_s) (0 without it)
  double message_bytes = 0.0;         // N_s
  double t_comm_s = 0.0;              // T_comm(N_s), N_s rounded to the nearest byte
  LogicalGrid grid;
};

// std::invalid_argument unless N >= P >= 1, N_Omega >= 1, MCPS >= 1, PCE in (0, 1], bytes
// >= 0, and T_elem, T_comm given with finite values >= 0 where evaluated.
GmPrediction general_model(const GmInputs& inputs);

struct McpsChoice {
  std::int64_t mcps = 0;
  GmPrediction prediction;
  bool within_share = false;  // false: no candidate met the share; this is the smallest share
  std::string reason;         // says which of the two rules chose it, and among how many
};

// Figure 10: the MCPS whose GM time is least among those whose communication share is at
// most max_comm_share (the paper uses 0.2); if none qualifies, the one with the smallest share
// (ties: the faster). Candidates: 1, 2, 3, 4, 6, 8, 12, ... (powers of two and 1.5 times them)
// up to E_p N_Omega (at least 1). inputs.mcps is ignored. std::invalid_argument for a share
// outside [0, 1] and as general_model.
McpsChoice choose_mcps(const GmInputs& inputs, double max_comm_share);

}  // namespace tycho::model
