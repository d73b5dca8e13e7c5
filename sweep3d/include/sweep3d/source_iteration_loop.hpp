// The source iteration loop (spec §3): per iteration the scattering source (W_before), the
// eight octants' sweeps, the flux error (W_after), the convergence test's two reductions and
// the monitor line on rank 0; each part timed as a phase of phases.hpp.
#pragma once
#include <ostream>
#include <vector>

#include "instrument/comm.hpp"
#include "instrument/recorder.hpp"
#include "sweep3d/deck.hpp"
#include "sweep3d/driver.hpp"
#include "sweep3d/octant_sweep.hpp"
#include "sweep3d/problem.hpp"
#include "sweep3d/source_iteration.hpp"

namespace sweep3d {

// What the loop works on: the rank's problem, fields and sweep, and how to communicate.
struct IterationContext {
  const Deck& deck;
  const Problem& problem;
  const KbaDecomposition& decomposition;
  CellFields& fields;
  OctantSweep& sweep;
  instrument::Comm& comm;
  instrument::Recorder& recorder;
  int threads = 1;
  int max_iterations = 1000;   // converged decks stop here (0: no limit)
  std::ostream* out = nullptr; // the monitor lines (rank 0)
};

struct IterationOutcome {
  std::vector<IterationRecord> iterations;
  bool converged = true;  // false: a converged deck hit max_iterations
  SweepResult last;       // the last sweep (its leakages go into the balance)
};

// Collective. Iterates until the deck's convergence test or fixed count says stop.
IterationOutcome iterate(const IterationContext& context);

}  // namespace sweep3d
