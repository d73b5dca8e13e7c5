// max/min/sum over ranks (instrument/rank_reduce.hpp): rank r contributes r + 1, so at n ranks
// the max is n, the min 1 and the sum n(n + 1)/2, on every rank.
#include <catch2/catch.hpp>
#include <mpi.h>

#include "instrument/rank_reduce.hpp"

using namespace instrument;

TEST_CASE("reductions over ranks give every rank the same value", "[rank_reduce]") {
  int rank = 0, n = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const double mine = rank + 1.0;
  CHECK(max_over_ranks(mine, MPI_COMM_WORLD) == n);
  CHECK(min_over_ranks(mine, MPI_COMM_WORLD) == 1.0);
  CHECK(sum_over_ranks(mine, MPI_COMM_WORLD) == n * (n + 1) / 2.0);
  // On MPI_COMM_SELF each rank is alone: its own value.
  CHECK(max_over_ranks(mine, MPI_COMM_SELF) == mine);
}
