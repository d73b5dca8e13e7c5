#include "instrument/rank_reduce.hpp"

namespace instrument {

namespace {
double all_reduce(double value, MPI_Op op, MPI_Comm comm) {
  double result = 0.0;
  MPI_Allreduce(&value, &result, 1, MPI_DOUBLE, op, comm);
  return result;
}
}  // namespace

double max_over_ranks(double value, MPI_Comm comm) { return all_reduce(value, MPI_MAX, comm); }
double min_over_ranks(double value, MPI_Comm comm) { return all_reduce(value, MPI_MIN, comm); }
double sum_over_ranks(double value, MPI_Comm comm) { return all_reduce(value, MPI_SUM, comm); }

}  // namespace instrument
