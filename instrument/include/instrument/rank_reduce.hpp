// rank_reduce: one double reduced over the ranks of a communicator, the value every rank gets
// back (MPI_Allreduce). Collective: every rank of `comm` calls it. What the benchmarks and
// probes report of a timed section is the max over ranks (the slowest rank decides when a
// superstep or an exchange ends); a rate is the min.
#pragma once
#include <mpi.h>

namespace instrument {

double max_over_ranks(double value, MPI_Comm comm);
double min_over_ranks(double value, MPI_Comm comm);
double sum_over_ranks(double value, MPI_Comm comm);

}  // namespace instrument
