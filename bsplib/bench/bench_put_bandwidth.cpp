// Large combined puts against MPI ping-pong bandwidth, p = 2. For each size B:
//  - MPI ping-pong: B / (round trip / 2);
//  - bsp one-way: process 0 bsp_puts B bytes into process 1 in one superstep: B / time;
//  - bsp exchange: both processes put B bytes into each other (an h = B relation): B / time;
//  - bsp hpput one-way and exchange, likewise;
//  - bsp get one-way: process 1 bsp_gets B bytes from process 0; exchange: both.
// Median [min, max] over R repetitions (times are the max over processes).
// It also times the bsp_put call itself (the definition's copy of the source at the call,
// which a ping-pong does not make) and prints the bandwidth a buffered put would reach if
// the superstep cost exactly that copy plus a ping-pong transfer: the ceiling that the
// copy-at-call semantics put on buffered puts where the transfer is itself a memory copy.
// With --machine FILE (a machine file loggps-probe wrote), each figure is also given as a
// percentage of the ping-pong bandwidth the probe measured, B / (RTT(B) / 2) of its LogGP
// fit: the foundation probe's yardstick.
// Usage: mpiexec -n 2 bench_put_bandwidth [R=11] [--machine FILE]
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iterator>
#include <string>
#include <vector>

#include "bench_options.hpp"
#include "bsp.h"
#include "instrument/clock.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/run_app.hpp"
#include "instrument/loggp.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/rank_reduce.hpp"
#include "instrument/statistics.hpp"

namespace {

using instrument::max_over_ranks;
using instrument::summarise;

// Separate send and receive buffers, as loggps-probe and the OSU benchmarks use: one buffer
// for both would make each message pull back the lines the peer has just read.
double pingpong(const std::vector<char>& out, std::vector<char>& in, int bytes, int iters) {
  const int s = bsp_pid();
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = instrument::now_seconds();
  for (int i = 0; i < iters; ++i) {
    if (s == 0) {
      MPI_Send(out.data(), bytes, MPI_BYTE, 1, 9, MPI_COMM_WORLD);
      MPI_Recv(in.data(), bytes, MPI_BYTE, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(in.data(), bytes, MPI_BYTE, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(out.data(), bytes, MPI_BYTE, 0, 9, MPI_COMM_WORLD);
    }
  }
  return max_over_ranks((instrument::now_seconds() - t0) / iters / 2, MPI_COMM_WORLD);
}

enum class Mode { one_way, exchange, hp_one_way, hp_exchange, get_one_way, get_exchange };

struct StepTimes {
  double superstep, call;  // per superstep; call: the put calls on process 0
};

StepTimes bsp_step(std::vector<char>& src, std::vector<char>& dst, std::vector<char>& local,
                   int bytes, Mode mode, int iters) {
  const int s = bsp_pid();
  const bool exchange =
      mode == Mode::exchange || mode == Mode::hp_exchange || mode == Mode::get_exchange;
  const bool hp = mode == Mode::hp_one_way || mode == Mode::hp_exchange;
  const bool get = mode == Mode::get_one_way || mode == Mode::get_exchange;
  double call = 0;
  bsp_sync();
  const double t0 = bsp_time();
  for (int i = 0; i < iters; ++i) {
    if (get) {
      // src is registered too: the owner serves it; the getter's buffer is its own local
      // (unregistered) memory, as usual for a get: it lands there directly
      if (exchange || s == 1) bsp_get(1 - s, src.data(), 0, local.data(), bytes);
    } else if (exchange || s == 0) {
      const double c0 = bsp_time();
      if (hp)
        bsp_hpput(1 - s, src.data(), dst.data(), 0, bytes);
      else
        bsp_put(1 - s, src.data(), dst.data(), 0, bytes);
      call += bsp_time() - c0;
    }
    bsp_sync();
  }
  const double total = max_over_ranks((bsp_time() - t0) / iters, MPI_COMM_WORLD);
  MPI_Bcast(&call, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return StepTimes{total, call / iters};
}

double g_probe_ref = 0;  // GB/s of the probe's ping-pong at the current size; 0: none

void report(const char* what, int bytes, const std::vector<double>& times, double ref) {
  std::vector<double> bw;
  for (double t : times) bw.push_back(bytes / t / 1e9);
  const auto s = summarise(bw);
  std::printf("  %-22s %8.3f GB/s  [min %.3f, max %.3f]", what, s.median, s.min, s.max);
  if (ref > 0) std::printf("  = %5.1f%% of ping-pong", 100.0 * s.median / ref);
  if (g_probe_ref > 0) std::printf("  (%5.1f%% of the probe's)", 100.0 * s.median / g_probe_ref);
  std::printf("\n");
}

// It measures between processes 0 and 1 (a third or more take no part): refused at p = 1,
// before anything starts, rather than aborting inside bsp_begin/bsp_end.
int run(int reps, const std::string& machine) {
  bsplib_bench::require_processes(2, "process 0 and process 1 exchange the data");
  instrument::loggp::LogGpParams probe;
  if (!machine.empty()) {
    // Every process reads the same file: a bad one is refused alike by all (one line).
    std::string problem;
    try {
      probe = instrument::loggp::read_params(instrument::MachineFile::read(machine));
    } catch (const std::exception& e) {
      problem = e.what();
    }
    instrument::throw_if_any_rank_failed(MPI_COMM_WORLD, problem);
  }
  bsp_begin(2);
  const int max_bytes = 16 << 20;
  std::vector<char> src(max_bytes, 1), dst(max_bytes, 0), buf(max_bytes, 2),
      local(max_bytes, 3);
  bsp_push_reg(dst.data(), max_bytes);
  bsp_push_reg(src.data(), max_bytes);
  bsp_sync();
  for (int bytes : {64 << 10, 1 << 20, 4 << 20, 16 << 20}) {
    const int iters = bytes >= (4 << 20) ? 5 : 20;
    constexpr Mode modes[] = {Mode::one_way,    Mode::exchange,    Mode::hp_one_way,
                              Mode::hp_exchange, Mode::get_one_way, Mode::get_exchange};
    constexpr const char* names[] = {"bsp_put one-way",    "bsp_put exchange (h=B)",
                                     "bsp_hpput one-way",  "bsp_hpput exchange",
                                     "bsp_get one-way",    "bsp_get exchange"};
    std::vector<double> pp, ceiling, call;
    std::vector<std::vector<double>> times(std::size(modes));
    for (int r = 0; r < reps + 1; ++r) {
      const double a = pingpong(src, buf, bytes, iters);
      for (std::size_t k = 0; k < std::size(modes); ++k) {
        const StepTimes t = bsp_step(src, dst, local, bytes, modes[k], iters);
        if (r == 0) continue;  // warm-up
        times[k].push_back(t.superstep);
        if (modes[k] != Mode::one_way) continue;
        ceiling.push_back(a + t.call);
        call.push_back(bytes / t.call / 1e9);
      }
      if (r > 0) pp.push_back(a);
    }
    if (bsp_pid() == 0) {
      std::printf("B = %d KiB (%d repetitions of %d):\n", bytes >> 10, reps, iters);
      std::vector<double> bw;
      for (double t : pp) bw.push_back(bytes / t / 1e9);
      const double ref = summarise(bw).median;
      if (!machine.empty()) {
        g_probe_ref = bytes / (instrument::loggp::round_trip_time(probe, bytes) / 2) / 1e9;
        std::printf("  %-22s %8.3f GB/s  (LogGP fit of %s)\n", "probe's ping-pong", g_probe_ref,
                    machine.c_str());
      }
      report("MPI ping-pong", bytes, pp, 0);
      for (std::size_t k = 0; k < std::size(modes); ++k) report(names[k], bytes, times[k], ref);
      report("put ceiling: copy+pp", bytes, ceiling, ref);
      std::printf("  (the copy in the bsp_put call: median %.3f GB/s)\n",
                  summarise(call).median);
    }
  }
  bsp_pop_reg(src.data());
  bsp_pop_reg(dst.data());
  bsp_end();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 11;
  std::string machine;
  instrument::OptionTable table("bench_put_bandwidth", "mpiexec -n 2 bench_put_bandwidth [R] [--machine FILE]");
  table.notes("Large combined puts against MPI ping-pong bandwidth, p = 2.");
  bsplib_bench::count(table, "R", 1, 10000, reps, "repetitions");
  table.input_file("--machine", "FILE", machine,
                   "a machine file loggps-probe wrote: each figure also as a percentage of its ping-pong bandwidth")
      .refuse_repeats();
  return instrument::run_app(argc, argv, table, [&] { return run(reps, machine); });
}
