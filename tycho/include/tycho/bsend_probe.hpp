// What tycho's buffered send adds to a send call (the blocking mode's MPI_Bsend), measured for
// the calibration file so the models can price the path's send interval as the sweep holds it.
//
// Between the two hooks of a traced send (sweep_messages.cpp) lies only the MPI_Bsend call
// (and a vector's clear): the records were packed into the peer's vector by the step's
// release of its tasks, inside sweep.compute. In MPICH the call is an MPI_Isend of a copy
// (MPIR_Bsend_isend): it polls the progress engine and frees the finished segments of the
// attached buffer (check_active), finds a segment, packs the bytes into it, and only then
// posts the isend. The LogGP o of the machine file times an MPI_Isend, so the rest is
// measured here, at one rank on MPI_COMM_SELF: the median MPI_Bsend call less the median
// MPI_Isend call of the same bytes to self, each after reading a step's working set (cold as
// in the sweep), at kSmallBytes and kLargeBytes; linear in bytes between them (a part a call,
// a part a byte; each >= 0). Each message is received outside the timing. It attaches a buffer
// of its own for the time it runs (none may be attached then: at rank 0 after the run, the
// sweep engine's is detached) and detaches it.
//
// What this does not hold: the progress poll may also take in a message the peer sent (a
// copy out of shared memory into MPI's unexpected queue), the receiver's work done in the
// send interval; at one rank there is no peer, so that stays in the receive call's price.
#pragma once
#include <cstddef>

namespace tycho {

inline constexpr int kBsendProbeSmallBytes = 112;
inline constexpr int kBsendProbeLargeBytes = 3584;
inline constexpr int kBsendProbeCalls = 201;  // of each kind at each size

struct BsendExtra {
  double s_per_call = 0;  // >= 0
  double s_per_byte = 0;  // >= 0
  double at(double bytes) const { return s_per_call + bytes * s_per_byte; }
};

// MPI must be initialized. std::runtime_error naming the MPI call when one fails.
BsendExtra measure_bsend_extra(std::size_t step_bytes);

}  // namespace tycho
