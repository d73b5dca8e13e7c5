// The apps' short BSP probe: bspprobe's measurement, reduced. See bsp_short_probe.hpp.
#include "bsplib/model/bsp_short_probe.hpp"

#include <mpi.h>

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <vector>

#include "bsp.h"
#include "bsp_sections.hpp"
#include "bsplib/model/bsp_probe_fit.hpp"
#include "bsplib/model/bsp_probe_measure.hpp"
#include "bsplib/model/cost_model.hpp"
#include "bsplib/model/machine_params.hpp"
#include "instrument/clock.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/probe_measure.hpp"
#include "instrument/run_results.hpp"

namespace bspmodel {

namespace {

// bspprobe's defaults are 31 repetitions and h up to 256 KiB (about 2-10 s here); 5 and
// 16 KiB take well under a second at p = 2 on this 2-core machine, and the apps' supersteps
// at their default sizes move h of that order. The largest h must hold 16 steps of one
// 8-byte word to each other process (bspprobe's check_hmax_for_p).
constexpr int kReps = 5;
constexpr int kHmax = 16384;
// The after-stream supersteps' largest working set: 64 MiB, beyond a 32 MiB L3 (0.1-0.2 s more
// at p = 2 on the AMD EPYC guest); a larger cache is held at this figure (bspprobe goes up to
// twice the cache, 512 MiB at most).
constexpr double kMaxWorkingSet = 64.0 * 1048576;
constexpr double kAccuracyPercent = 10;  // bspprobe's default y of eq. 4
constexpr int kTries = 3;

// The fits as bspprobe makes them (bspprobe.cpp's probe()), on process 0.
BspMachine fitted_machine(const BspMeasurements& meas, int p, int hmax, const std::string& program) {
  const LineOfSupersteps lg = fit_supersteps(meas.h, meas.t);
  std::vector<double> t_comb;
  for (std::size_t i = 0; i < meas.x.size(); ++i)
    t_comb.push_back(time_per_byte_after(meas.t_combined[i], meas.t[0], meas.h_x[i]));
  const GranularityFit fc = fit_granularity(meas.x, t_comb, lg.g);
  const instrument::RunInfo host = instrument::make_run_info(program, MPI_COMM_SELF);
  BspMachine m;
  m.name = host.host;
  m.source = program + " short probe";
  m.p = p;
  m.s_flops = meas.s;
  m.l_seconds = lg.l;
  m.g_seconds_per_byte = lg.g;
  m.n_half_bytes = fc.n_half;
  m.extra["bsp.h0_bytes"] = instrument::format_number(h0_bytes(fc.n_half, kAccuracyPercent));
  m.extra["bsp.h0_accuracy_percent"] = instrument::format_number(kAccuracyPercent);
  m.extra["bsp.probe.reps"] = std::to_string(kReps);
  m.extra["bsp.probe.hmax_bytes"] = std::to_string(hmax);
  m.extra["date"] = host.date;
  m.extra["host"] = host.host;
  m.extra["mpi_library"] = host.mpi_library;
  m.curves.empty_seconds = meas.t[0];
  m.curves.h_bytes = meas.curve_h;
  m.curves.one_way = meas.curve_one_way;
  m.curves.exchange = meas.curve_exchange;
  m.curves.gets = meas.curve_gets;
  m.after_gap.gap_seconds = meas.gap;
  m.after_gap.empty = meas.after_gap_empty;
  m.after_gap.one_way_64 = meas.after_gap_64;
  m.after_gap.one_way_2048 = meas.after_gap_2048;
  m.after_stream.working_set_bytes = meas.working_set;
  m.after_stream.empty = meas.after_stream_empty;
  m.after_stream.one_way_64 = meas.after_stream_64;
  m.after_stream.one_way_2048 = meas.after_stream_2048;
  m.core_round_trip_seconds = meas.placement;  // the placement of the CPUs these are true of
  return m;
}

}  // namespace

void measure_bsp_machine_short(const std::string& path, const std::string& program, double time_limit) {
  int world = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  const int hmax = std::max(kHmax, 16 * 8 * std::max(1, world - 1));
  const double deadline = instrument::now_seconds() + time_limit;  // process 0's decides
  BspMachine m;
  std::string refused;
  bsp_begin(world);
  // As bspprobe's test does (ctest/bsplib/run_probe.cmake): a fit outside the machine-file
  // ranges (g < 0 when a loaded host's noise swamps the slope) is measured again, up to
  // kTries times and not past the time limit; each try is a fraction of a second idle.
  // One after-stream buffer for every try (StreamBuffer): allocated and touched by the first.
  StreamBuffer stream_buffer;
  for (int attempt = 0; attempt < kTries; ++attempt) {
    BspMeasurements meas;
    try {
      meas = measure_bsp_machine(kReps, hmax, kMaxWorkingSet, stream_buffer, deadline);
    } catch (const instrument::probe::ProbeOutOfTime&) {  // on every process at the same point
      refused = "no fit the models accept within " + instrument::machine_cache::time_limit_text(time_limit) +
                "; nothing written";
      break;
    }
    int verdict[2] = {0, 0};  // fitted, out of time (process 0's, to every process)
    if (bsp_pid() == 0) {
      m = fitted_machine(meas, bsp_nprocs(), hmax, program);
      try {
        validate_machine(m, "fitted parameters");
        verdict[0] = 1;
      } catch (const std::exception& e) {
        refused = e.what();
      }
      verdict[1] = instrument::now_seconds() > deadline ? 1 : 0;
    }
    MPI_Bcast(verdict, 2, MPI_INT, 0, MPI_COMM_WORLD);  // every process is in the section
    if (verdict[0]) {
      refused.clear();
      break;
    }
    if (attempt + 1 == kTries) {
      refused += " (too noisy a measurement " + std::to_string(kTries) + " times; nothing written)";
    } else if (verdict[1]) {
      refused += " (too noisy a measurement, and no time left to measure again within " +
                 instrument::machine_cache::time_limit_text(time_limit) + "; nothing written)";
      break;
    }
  }
  const int pid = bsp_pid();
  bsp_end();
  bsplib::allow_next_section();
  if (pid != 0) return;
  if (!refused.empty()) throw std::runtime_error(refused);
  write_machine_file(path, m,
                     "measured by " + program + "'s short probe (bspprobe's loops, " + std::to_string(kReps) +
                         " repetitions, h up to " + std::to_string(hmax) +
                         " B): l and g fitted in seconds; bspprobe measures in full");
}

instrument::machine_cache::Probe bsp_cache_probe(const std::string& program) {
  int world = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  instrument::machine_cache::Probe probe;
  probe.kind = "bsp";
  probe.p = world;
  probe.parameters = "l and g at p = " + std::to_string(world);
  probe.full_probe = "bspprobe";
  probe.check = [world](const std::string& path) {
    const BspMachine m = read_machine_file(path);
    if (m.p != world)
      throw std::runtime_error(path + ":bsp.p: expected " + std::to_string(world) + " (the file name's p), got " +
                               std::to_string(m.p));
    // A file of a probe before the after-stream costs (2026-12-02): measured again, so that
    // the replay's sync after a sweep is priced (after_stream.hpp). At p = 1 too.
    if (m.after_stream.none())
      throw std::runtime_error(path + ":bsp.after_stream.*: an earlier probe's file, without the after-stream costs");
    return std::string();
  };
  probe.measure = [program](const std::string& path, double time_limit) {
    measure_bsp_machine_short(path, program, time_limit);
  };
  return probe;
}

}  // namespace bspmodel
