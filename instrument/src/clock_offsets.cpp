#include "instrument/clock_offsets.hpp"

#include "instrument/clock.hpp"

namespace instrument {

ClockOffsets estimate_clock_offsets(MPI_Comm comm, const std::vector<int>& probe, int root) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  constexpr int kTag = 31415;  // private to this exchange (comm has no other traffic now)
  ClockOffsets out;
  out.offset.assign(static_cast<std::size_t>(size), 0.0);
  out.uncertainty.assign(static_cast<std::size_t>(size), 0.0);
  for (int r = 0; r < size; ++r) {
    if (r == root || !probe[static_cast<std::size_t>(r)]) continue;
    if (rank == root) {
      double best_rtt = -1.0;
      for (int i = 0; i < kOffsetRounds; ++i) {
        double t_r = 0.0;
        const double t0 = now_seconds();
        MPI_Send(&t0, 1, MPI_DOUBLE, r, kTag, comm);
        MPI_Recv(&t_r, 1, MPI_DOUBLE, r, kTag, comm, MPI_STATUS_IGNORE);
        const double t1 = now_seconds();
        if (best_rtt < 0.0 || t1 - t0 < best_rtt) {
          best_rtt = t1 - t0;
          out.offset[static_cast<std::size_t>(r)] = t_r - 0.5 * (t0 + t1);
          out.uncertainty[static_cast<std::size_t>(r)] = 0.5 * best_rtt;
        }
      }
    } else if (rank == r) {
      for (int i = 0; i < kOffsetRounds; ++i) {
        double ignored = 0.0;
        MPI_Recv(&ignored, 1, MPI_DOUBLE, root, kTag, comm, MPI_STATUS_IGNORE);
        const double t_r = now_seconds();
        MPI_Send(&t_r, 1, MPI_DOUBLE, root, kTag, comm);
      }
    }
  }
  return out;
}

}  // namespace instrument
