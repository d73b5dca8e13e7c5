// Source iteration: sweep, sum the scalar flux, rebuild the isotropic source, until the
// largest relative change of a cell's mean scalar flux is below the tolerance or the cap is
// reached. A progress line per iteration on rank 0.
//
// Balance per sweep and group, summed over the mesh (LD and step are conservative per cell):
//   emission   sum_d w_d int q dV           (q from the previous iterate: 4 pi q = Q + scattering)
//   collision  sigma_t int phi dV           (phi of this sweep)
//   leakage    sum_d w_d sum_boundary-out Omega.n A mean(psi)
// emission = collision + leakage up to round-off, except where faces were lagged (their
// inflow is the last iteration's): `residual` is (emission - collision - leakage)/emission.
#pragma once
#include <mpi.h>

#include <iosfwd>
#include <vector>

#include "tycho/problem.hpp"
#include "tycho/step_history.hpp"
#include "tycho/sweep_engine.hpp"
#include "tycho/sweep_plan.hpp"

namespace tycho {

struct IterationRecord {
  int iteration = 0;
  double change = 0;        // max relative change of a cell's mean phi (all groups)
  double sweep_s = 0;       // the sweep, max over ranks
  double iteration_s = 0;   // the whole iteration, max over ranks
  std::vector<double> emission, collision, leakage;  // per group, whole mesh
  double residual = 0;      // worst group's relative balance residual
};

struct TransportResult {
  std::vector<IterationRecord> iterations;
  bool converged = false;
  std::vector<double> phi;  // this rank's cells: [local cell][group][4]
  RankHistory history;
  // This rank's time in the tasks (the steps' compute) in the scored iterations: T_elem's
  // numerator, over the same sweeps as the measured column it is scored against.
  double compute_s = 0;
  // Of compute_s, the time in the inflow gathers and cell solves
  // (SweepEngine::gather_solve_seconds).
  double gather_solve_s = 0;
  // Absorption rate and net leakage at the end, whole mesh, all groups: the particle
  // balance Q = absorption + leakage (converged runs).
  double source_rate = 0, absorption_rate = 0;
};

// The first iteration whose sweep a run's timings count, of `iterations` done: the second
// when there are more than two, since the first pays for first touches (its tasks cost
// 20-35% more a task than the later ones' at 1 rank on kuhn-cube-9, AMD EPYC Zen 5), else
// the first.
inline std::size_t first_scored_iteration(std::size_t iterations) { return iterations > 2 ? 1 : 0; }

TransportResult run_source_iteration(const SweepPlan& plan, const Problem& problem, SweepEngine& engine,
                                     MPI_Comm comm, std::ostream* progress);

// A digest of phi over the whole mesh in global cell order (FNV-1a of the bits), the same on
// every rank: two runs with the same digest have bitwise the same scalar flux. Collective.
std::uint64_t phi_digest(const SweepPlan& plan, const std::vector<double>& phi, MPI_Comm comm);

}  // namespace tycho
