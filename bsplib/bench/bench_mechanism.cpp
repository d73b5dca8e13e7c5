// The measurement behind bsplib's choice of MPI mechanism (README): at p processes, the cost
// of the synchronisation each design needs for an empty superstep, and of moving B bytes to
// every other process:
//  - two-sided (bsplib): MPI_Alltoall of the 5-word headers, then Isend/Irecv of the data;
//  - MPI-3 RMA: MPI_Win_fence to close the epoch (puts before it), a second fence or a barrier
//    is also needed by BSPlib for registration/queue metadata; we time one and two fences;
//  - MPI_Barrier, for reference.
// Median [min, max] in us over R repetitions, max over processes.
// Usage: mpiexec -n P bench_mechanism [R=11]
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "bench_options.hpp"
#include "instrument/clock.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/run_app.hpp"
#include "instrument/rank_reduce.hpp"
#include "instrument/statistics.hpp"

namespace {
using instrument::max_over_ranks;
using instrument::summarise;
using instrument::Summary;

template <class F>
Summary time_it(int reps, int iters, F&& f) {
  std::vector<double> v;
  for (int r = 0; r < reps + 1; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = instrument::now_seconds();
    for (int i = 0; i < iters; ++i) f();
    const double t = max_over_ranks((instrument::now_seconds() - t0) / iters, MPI_COMM_WORLD);
    if (r) v.push_back(t);
  }
  return summarise(v);
}
void show(int rank, const char* what, Summary s) {
  if (rank == 0)
    std::printf("  %-46s %9.3f us  [min %.3f, max %.3f]\n", what, s.median * 1e6, s.min * 1e6,
                s.max * 1e6);
}
// At p = 1 there is nothing to synchronise or move: every figure would be the cost of a
// call that returns at once, so the benchmark refuses it.
int run(int reps) {
  bsplib_bench::require_processes(2, "it times synchronisation and messages between processes");
  int rank = 0, p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  std::vector<std::uint64_t> hout(5 * p), hin(5 * p);
  if (rank == 0) std::printf("MPI mechanisms, p = %d:\n", p);
  show(rank, "MPI_Barrier", time_it(reps, 5000, [] { MPI_Barrier(MPI_COMM_WORLD); }));
  show(rank, "MPI_Alltoall of 5 words (bsplib empty sync)", time_it(reps, 5000, [&] {
         MPI_Alltoall(hout.data(), 5, MPI_UINT64_T, hin.data(), 5, MPI_UINT64_T, MPI_COMM_WORLD);
       }));
  {
    // Persistent point-to-point header exchange: p-1 sends and receives per process.
    std::vector<MPI_Request> hreq;
    for (int q = 0; q < p; ++q)
      if (q != rank) {
        hreq.emplace_back();
        MPI_Recv_init(&hin[5 * q], 5, MPI_UINT64_T, q, 3, MPI_COMM_WORLD, &hreq.back());
        hreq.emplace_back();
        MPI_Send_init(&hout[5 * q], 5, MPI_UINT64_T, q, 3, MPI_COMM_WORLD, &hreq.back());
      }
    show(rank, "persistent Send/Recv of 5 words per peer", time_it(reps, 5000, [&] {
           if (!hreq.empty()) {
             MPI_Startall(static_cast<int>(hreq.size()), hreq.data());
             MPI_Waitall(static_cast<int>(hreq.size()), hreq.data(), MPI_STATUSES_IGNORE);
           }
         }));
    for (auto& r : hreq) MPI_Request_free(&r);
  }
  const int max_bytes = 1 << 20;
  std::vector<char> base(static_cast<std::size_t>(max_bytes) * p), src(max_bytes, 1);
  MPI_Win win;
  MPI_Win_create(base.data(), static_cast<MPI_Aint>(base.size()), 1, MPI_INFO_NULL,
                 MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  show(rank, "MPI_Win_fence (one RMA epoch)", time_it(reps, 5000, [&] { MPI_Win_fence(0, win); }));
  show(rank, "2 x MPI_Win_fence (RMA + metadata epoch)", time_it(reps, 5000, [&] {
         MPI_Win_fence(0, win);
         MPI_Win_fence(0, win);
       }));
  for (int bytes : {8 << 10, 1 << 20}) {
    char label[96];
    std::vector<MPI_Request> req(2 * p);
    std::vector<char> in(static_cast<std::size_t>(bytes) * p);
    std::snprintf(label, sizeof label, "two-sided: alltoall + Isend/Irecv %d KiB/peer", bytes >> 10);
    show(rank, label, time_it(reps, 50, [&] {
           MPI_Alltoall(hout.data(), 5, MPI_UINT64_T, hin.data(), 5, MPI_UINT64_T, MPI_COMM_WORLD);
           int n = 0;
           for (int q = 0; q < p; ++q)
             if (q != rank)
               MPI_Irecv(in.data() + static_cast<std::size_t>(q) * bytes, bytes, MPI_BYTE, q, 1,
                         MPI_COMM_WORLD, &req[n++]);
           for (int q = 0; q < p; ++q)
             if (q != rank) MPI_Isend(src.data(), bytes, MPI_BYTE, q, 1, MPI_COMM_WORLD, &req[n++]);
           MPI_Waitall(n, req.data(), MPI_STATUSES_IGNORE);
         }));
    std::snprintf(label, sizeof label, "RMA: MPI_Put + fence %d KiB/peer", bytes >> 10);
    show(rank, label, time_it(reps, 50, [&] {
           for (int q = 0; q < p; ++q)
             if (q != rank)
               MPI_Put(src.data(), bytes, MPI_BYTE, q,
                       static_cast<MPI_Aint>(rank) * max_bytes, bytes, MPI_BYTE, win);
           MPI_Win_fence(0, win);
         }));
  }
  MPI_Win_free(&win);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 11;
  instrument::OptionTable table("bench_mechanism", "mpiexec -n P bench_mechanism [R]");
  table.notes("The synchronisation and the all-to-all each MPI mechanism needs for a superstep (P >= 2).");
  bsplib_bench::count(table, "R", 1, 10000, reps, "repetitions");
  return instrument::run_app(argc, argv, table, [&] { return run(reps); });
}
