// The multigrid cycle on one process's levels: smoothing by damped Jacobi or by Chebyshev
// polynomials in D^-1 A (one superstep per iteration either way: the cell loop, the
// shared-node sums, the update), the residual, restriction by
// the transpose of linear interpolation, prolongation, and the V- or W-cycle that strings
// them together. Every phase is timed per level; every superstep is labelled with its grid
// (the paper's numbering: grid 1 the finest) and phase for the profiler.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "multigrid/cell_loop_split.hpp"
#include "multigrid/global_sum.hpp"
#include "multigrid/local_level.hpp"
#include "multigrid/p1_operator.hpp"
#include "multigrid/superstep_tag.hpp"

namespace mg {

// Both are polynomials in D^-1 A, one operator application per iteration, aimed at the
// interval [a, b] = [smoothing_lower lambda_max, lambda_max], the part of the spectrum the
// coarse grid cannot represent. Jacobi damps by omega = 2 / (a + b); Chebyshev takes the
// polynomial of the iteration count that is smallest over [a, b]. The default a = b / 4
// serves Kuhn's cubes and Tycho2's meshes (0.23-0.25 per W-cycle); on gmsh's meshes a mode
// near the boundary that the coarse grid represents poorly needs the interval to reach
// lower and a third iteration (3 + 3 over [b / 10, b]: 0.21 instead of 0.48 on the body in
// the box, multigrid/BENCHMARKS.md).
enum class Smoother { jacobi, chebyshev };
const char* smoother_name(Smoother s);

struct CycleOptions {
  Smoother smoother = Smoother::chebyshev;
  int pre = 2, post = 2;        // smoothing iterations before and after the coarse correction
  int coarse_iterations = 30;   // smoothing iterations on the coarsest grid per visit
  int gamma = 2;                // coarse corrections per visit: 2 W-cycle, 1 V-cycle
  double smoothing_lower = 0.25;  // a / lambda_max, the lower end of the smoothers' interval
  CellKernel cell_kernel = fastest_cell_kernel();  // the same bits either way
  // OpenMP threads of this process in the cell loop and the node passes (cell_loop_split.hpp),
  // the same bits at any count. 1 unless asked: OMP_NUM_THREADS is not read, so a run's
  // figures are one thread's unless it says otherwise.
  int threads = 1;
  // The least cells and nodes a thread takes (fewer threads on a smaller grid: starting the
  // team would cost more than it saves). Any values give the same bits; tests lower them so
  // that small grids are split.
  std::size_t min_cells_per_thread = kMinCellsPerThread, min_nodes_per_thread = kMinNodesPerThread;
};

enum Phase { kPreSmooth, kResidual, kRestrict, kProlong, kPostSmooth, kCoarse, kPhases };
const char* phase_name(int phase);

// The profile's label of every (grid, phase) of a cycle on `levels` grids, "grid <i> <phase>"
// (the paper's numbering: grid 1 the finest), with the grid and phase it stands for.
SuperstepLabels cycle_labels(std::size_t levels);

// Per level: seconds in each phase and operator applications (one superstep each), summed
// since the last reset.
struct LevelClock {
  std::array<double, kPhases> seconds{};
  std::array<std::int64_t, kPhases> supersteps{};
  std::int64_t operator_applications = 0;  // smoothing iterations and residuals
};

struct Multigrid {
  std::vector<LocalLevel> levels;  // [0] coarsest
  // [level][phase]: the profile's label of its supersteps (cycle_labels);
  // bsp_profile_label copies the text.
  std::vector<std::array<std::string, kPhases>> labels;
  std::vector<double> lambda_max;  // of D^-1 A per level: the Lanczos estimate, raised 10%
  std::vector<LevelClock> clock;
  CycleOptions options;
  std::vector<CellLoopSplit> splits;  // per level: its cell loop among options.threads (prepare)
  int cell_loop_team = 1;             // the most threads a cell loop has run on
};

// Whether the finest level's diag_inv already holds its cells' diagonal sums: zeroed, then
// summed once by the set-up's load (add_cell_load's `diagonal`), neither exchanged nor
// inverted. prepare exchanges and inverts them, so `summed` holds for one prepare only.
enum class FinestDiagonal { to_sum, summed };

// The cell loops' splits among the threads, diagonals, lambda_max(D^-1 A) by 6 Lanczos
// steps (preconditioned CG), and the labels. The levels' exchanges must be registered and a
// sync passed.
void prepare(Multigrid& mg, GlobalSum& sums, FinestDiagonal finest = FinestDiagonal::to_sum);

// lambda_max(D^-1 A) of `level` over its free nodes from `steps` Lanczos steps (preconditioned
// CG from a start fixed by the global node numbers): the largest Ritz value, a lower bound
// that is exact once `steps` reaches the free nodes' count. Needs the level's diag_inv and
// cell-loop split (prepare makes them; it calls this with 6 steps). Collective; leaves the
// level's r, d and y zero.
double lanczos_lambda_max(Multigrid& mg, std::size_t level, GlobalSum& sums, int steps);

// One cycle on the finest level: x, b of levels.back() in, x updated.
void cycle(Multigrid& mg, std::size_t level);

// The residual b - A x on the finest level and its 2-norm over the free nodes.
double residual_norm(Multigrid& mg, GlobalSum& sums);

// Smoothing iterations alone (no coarse grid) on `level`, phase kPreSmooth.
void smooth(Multigrid& mg, std::size_t level, int iterations, int phase);

}  // namespace mg
