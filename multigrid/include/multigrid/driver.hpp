// One multigrid run: read the coarse mesh (or make the default cube), refine it into the
// grid hierarchy (or read a sequence of independent meshes), partition the finest grid with METIS and the coarser ones by inheritance,
// then, inside one BSPlib section, set up the Poisson problem with a manufactured solution
// and run W-cycles, timing every phase and profiling every superstep.
#pragma once
#include "instrument/process_usage.hpp"
#include <mpi.h>

#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "bsplib/model/profile_table.hpp"
#include "instrument/speed_check.hpp"
#include "multigrid/cycle.hpp"
#include "multigrid/setup_clock.hpp"

namespace mg {

struct RunOptions {
  std::string mesh_path;       // empty: the default cube (mesh::kuhn_cube_mesh(cube, 1.0))
  // Independent meshes, coarsest first, instead of mesh_path and its refinements (`grids`
  // is then their count).
  std::vector<std::string> mesh_sequence;
  int cube = 4;
  std::string partition_path;  // of the finest grid; empty: METIS k-way into P
  int grids = 3;
  int cycles = 8;
  CycleOptions cycle;
  bool keep_solution = false;  // RunResult::solution (for tests: the bits every holder has)
};

struct GridReport {  // one grid, the paper's numbering (1 the finest)
  int grid = 0;
  std::int64_t cells = 0, nodes = 0;
  double imbalance = 1;             // largest part's cells / mean
  std::vector<std::int64_t> process_cells;  // [pid]: the cells each process holds
  double h_bytes = 0;               // most bytes into or out of a process per application
  double working_set_bytes = 0;     // most bytes a process's sweep goes over (local_level.hpp)
  double loose_cells = 0;           // cells in no family of 8 (p1_operator.hpp), all processes
  double applications = 0;          // operator applications per cycle (n_i)
  double supersteps = 0;            // supersteps per cycle
  double lambda_max = 0;            // of D^-1 A, the smoothers' bound
  std::array<double, kPhases> seconds{};  // per cycle, the slowest process's
};

struct RunResult {
  int p = 1;
  int threads = 1;                  // the most OpenMP threads a cell loop of mine ran on
  std::string mesh;                 // what the coarse grid is
  std::vector<GridReport> grids;    // [i - 1]
  std::vector<LevelClock> own_clock; // [i - 1]: this process's own phase times (all cycles)
  std::vector<double> residuals;    // before the first cycle, then after each
  std::vector<double> cycle_seconds;
  double convergence_factor = 0;   // the last cycle's before round-off
  double mean_factor = 0;          // the geometric mean over those cycles
  bool free_nodes = true;          // false: every node is Dirichlet, nothing to solve
  double l2_error = 0;
  double setup_seconds = 0;
  // This process's CPU time in the kernel and page faults over setup_seconds: most of a set-up
  // that starts on pages the host has dropped is the kernel's (instrument/process_usage.hpp).
  instrument::ProcessUsage setup_usage;
  SetupClock setup_phases;          // this process's set-up by phase (the section's wall time: setup_seconds)
  bspmodel::Profile profile;        // process 0's: every superstep
  std::vector<SuperstepTag> superstep_tags;  // [superstep] of profile: its grid and phase
  // With RunOptions::keep_solution: the finest grid's solution at my nodes (global node,
  // value), shared nodes included, so that holders can be compared bit for bit.
  std::vector<std::pair<Index, double>> solution;
  instrument::SpeedCheck speed_check;  // rank 0: every process's speed check before and after the cycles
};

// The flux of the manufactured solution u = sin(pi x) sin(pi y) sin(pi z), -lap u = 3 pi^2 u.
double exact_solution(double x, double y, double z);

// The grids and partitions a run needs, read and built before the BSPlib section begins, so
// that bad input ends every process with one line (instrument::CollectiveError) and no
// section is left half-begun (the program loads them before its machine probe, too).
// Collective over MPI_COMM_WORLD.
struct ProblemInput {
  std::string mesh_name;
  std::vector<Grid> grids;
  std::vector<std::vector<std::int32_t>> parts;  // inherit_parts
  SetupClock setup;                               // mesh, refinement, METIS, inheritance
  double seconds = 0;                             // this process's wall time in load_problem
  instrument::ProcessUsage usage;                 // and its kernel time and page faults there
};
ProblemInput load_problem(const RunOptions& options);

// The solve, inside a BSPlib section that takes every process of MPI_COMM_WORLD: registers
// its buffers, runs the cycles, and pops them again (so a section may hold several solves:
// the tests do). `out` (process 0) gets a line per cycle, after the last cycle (or before the
// error of a residual that is not finite). res.profile is left empty.
RunResult solve_in_section(const ProblemInput& input, const RunOptions& options, std::ostream* out);
// The same, the input given up: its grids and parts are freed once the levels are numbered,
// so that the levels' largest arrays reuse their memory (the program's way; input is left
// with its name and set-up clock only).
RunResult solve_in_section(ProblemInput&& input, const RunOptions& options, std::ostream* out);

// load_problem, then one profiled section around solve_in_section; res.profile holds it and
// res.superstep_tags its supersteps' grids and phases. The second is given the input (its
// load's time counts in the set-up).
RunResult run_multigrid(const RunOptions& options, std::ostream* out);
RunResult run_multigrid(ProblemInput&& input, const RunOptions& options, std::ostream* out);

}  // namespace mg
