// The results file (results_output.hpp).
#include "multigrid/results_output.hpp"

#include <cmath>
#include <sstream>
#include <variant>

#include "instrument/calibration_reader.hpp"
#include "instrument/error.hpp"
#include "instrument/results_file.hpp"
#include "instrument/speed_check.hpp"
#include "multigrid/superstep_tag.hpp"

namespace mg {

namespace {

const char* const kCalibration = "/multigrid/calibration";
// "results file": the name multigrid's errors have always given a calibration file.
const instrument::CalibrationGroup kCalibrationGroup{"multigrid", kCalibration, "results file"};
// Which cycle C1 is of: "median" (model_report.hpp's measured_c1), or "mean" over the cycles
// (files written before 2026-12-03, when the key was added).
const char* const kC1CyclesKey = "c1_cycles";
constexpr double kMinC1Seconds = 1e-11, kMaxC1Seconds = 1e-3;

}  // namespace

instrument::RunInfo run_info(const RunOptions& o, MPI_Comm comm) {
  instrument::RunInfo info = instrument::make_run_info("multigrid", comm);
  info.threads = o.cycle.threads;  // --threads, not the OpenMP runtime's default
  info.input_file = o.mesh_sequence.empty() ? o.mesh_path : o.mesh_sequence.back();
  auto& in = info.inputs;
  in["mesh"] = o.mesh_path;
  std::string sequence;  // the independent meshes, coarsest first, comma-separated
  for (const std::string& m : o.mesh_sequence) sequence += (sequence.empty() ? "" : ",") + m;
  in["mesh_sequence"] = sequence;
  in["cube"] = std::to_string(o.cube);
  in["partition"] = o.partition_path;
  in["grids"] = std::to_string(o.grids);
  in["cycles"] = std::to_string(o.cycles);
  in["pre"] = std::to_string(o.cycle.pre);
  in["post"] = std::to_string(o.cycle.post);
  in["coarse_iterations"] = std::to_string(o.cycle.coarse_iterations);
  in["smoother"] = smoother_name(o.cycle.smoother);
  std::ostringstream lower;
  lower << o.cycle.smoothing_lower;
  in["smoothing_lower"] = lower.str();
  in["cycle"] = std::string(1, o.cycle.gamma == 2 ? 'W' : 'V');
  return info;
}

void write_results_file(const std::string& path, const RunOptions& o, const RunResult& r,
                        instrument::RunResults gathered, const instrument::Comparison& comparison, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  instrument::ResultsDocument doc;
  doc.run = std::move(gathered);
  if (rank == 0) {
    auto& x = doc.extras;
    double cycle_s = 0;
    for (double s : r.cycle_seconds) cycle_s += s;
    cycle_s /= static_cast<double>(r.cycle_seconds.size());
    x.set_attribute("/multigrid", "mesh", r.mesh);
    x.set_attribute("/multigrid", "p", std::int64_t{r.p});
    x.set_attribute("/multigrid", "grids", static_cast<std::int64_t>(r.grids.size()));
    x.set_attribute("/multigrid", "cycles", std::int64_t{o.cycles});
    x.set_attribute("/multigrid", "convergence_factor", r.convergence_factor);
    x.set_attribute("/multigrid", "mean_factor", r.mean_factor);
    x.set_attribute("/multigrid", "l2_error", r.l2_error);
    x.set_attribute("/multigrid", "cycle_s", cycle_s);
    x.set_attribute("/multigrid", "setup_s", r.setup_seconds);
    x.set_attribute("/multigrid", "setup_kernel_s", r.setup_usage.kernel_seconds);
    x.set_attribute("/multigrid", "setup_page_faults", std::int64_t{r.setup_usage.minor_faults + r.setup_usage.major_faults});
    x.set_attribute("/multigrid", "cell_kernel", std::string(cell_kernel_name(o.cycle.cell_kernel)));
    // What a run this file calibrates compares its own with (speed_check.hpp).
    if (r.speed_check.run_ns() > 0) x.set_attribute("/multigrid", "speed_check_ns", r.speed_check.run_ns());
    std::vector<std::int64_t> grid, cells, nodes;
    std::vector<double> imbalance, h, n_i, steps, omega, working_set;
    for (const GridReport& g : r.grids) {
      grid.push_back(g.grid);
      cells.push_back(g.cells);
      nodes.push_back(g.nodes);
      imbalance.push_back(g.imbalance);
      h.push_back(g.h_bytes);
      n_i.push_back(g.applications);
      steps.push_back(g.supersteps);
      omega.push_back(g.lambda_max);
      working_set.push_back(g.working_set_bytes);
    }
    instrument::Table& t = x.add_table("/multigrid/grids");
    t.columns = {instrument::Column::of("grid", "", grid),           instrument::Column::of("cells", "cells", cells),
                 instrument::Column::of("nodes", "nodes", nodes),    instrument::Column::of("imbalance", "", imbalance),
                 instrument::Column::of("h", "bytes", h),             instrument::Column::of("applications", "", n_i),
                 instrument::Column::of("supersteps", "", steps),     instrument::Column::of("lambda_max", "", omega),
                 instrument::Column::of("working_set", "bytes", working_set)};
    std::vector<std::int64_t> cycle;
    for (std::size_t k = 0; k < r.residuals.size(); ++k) cycle.push_back(static_cast<std::int64_t>(k));
    instrument::Table& rt = x.add_table("/multigrid/residuals");
    rt.columns = {instrument::Column::of("cycle", "", cycle), instrument::Column::of("residual", "", r.residuals)};
    // Every superstep of the run as the profiler saw it (process 0 gathered them): the
    // input of the replay, and of `suite-campaign plot multigrid-cycle`'s Figures 8-10.
    std::vector<std::int64_t> index, grid_of;
    std::vector<std::string> labels;
    std::vector<double> w, hb, comm;
    for (std::size_t k = 0; k < r.profile.steps.size(); ++k) {
      const bspmodel::SuperstepSummary& st = r.profile.steps[k];
      index.push_back(st.index);
      labels.push_back(st.label);
      grid_of.push_back(r.superstep_tags.at(k).grid);
      w.push_back(st.w_max);
      hb.push_back(st.h_bytes);
      comm.push_back(st.comm_sync);
    }
    instrument::Table& st = x.add_table("/multigrid/supersteps");
    st.columns = {instrument::Column::of("superstep", "", index), instrument::Column::of("label", "", labels),
                  instrument::Column::of("grid", "", grid_of),    instrument::Column::of("w", "s", w),
                  instrument::Column::of("h", "bytes", hb),       instrument::Column::of("comm_sync", "s", comm)};
    st.attributes["description"] = std::string(
        "per superstep: w the slowest process's work, h the most bytes into or out of one process, comm_sync "
        "measured (last entry into bsp_sync to exit); grid 0 for supersteps outside the cycles");
    // The run's placement (bsp_round_trip.hpp, measured by bsplib at bsp_begin and bsp_end;
    // none at p = 1): the campaign report sets it beside the probe's (the machine file's
    // bsp.core_round_trip_seconds) and marks a run at another placement unreliable.
    if (const std::vector<double>& rt = r.profile.core_round_trip_seconds; !rt.empty()) {
      instrument::Array a = instrument::Array::of("/multigrid/core_round_trip", {rt.size()}, {"sample"}, "s", rt);
      a.attributes["description"] = std::string(
          "cache-line round trip between the processes' CPUs at bsp_begin and bsp_end: the host's placement");
      x.add_array(std::move(a));
    }
    x.set_attribute(kCalibration, "c1_seconds_per_cell", measured_c1(r));
    x.set_attribute(kCalibration, kC1CyclesKey, std::string("median"));
    x.set_attribute(kCalibration, "c1_loose_seconds_per_cell", measured_c1_loose(r));
    x.set_attribute(kCalibration, "cells_per_process", static_cast<double>(r.grids.front().cells) / r.p);
    x.set_attribute(kCalibration, "p", std::int64_t{r.p});
    x.set_attribute(kCalibration, "mesh", r.mesh);
    x.set_attribute(kCalibration, "cell_kernel", std::string(cell_kernel_name(o.cycle.cell_kernel)));
    doc.comparison = comparison;
  }
  instrument::write_results_on_root(path, doc, comm);
}

C1Point read_c1_calibration(const std::string& path) {
  const instrument::ResultsDocument doc = instrument::read_calibration_file(path, kCalibrationGroup);
  const instrument::CalibrationReader a(doc, kCalibrationGroup, path);
  // Each constant within what a machine can measure: C1 = 1e300 s would print "+inf%". A
  // cell's smoothing work is 2-3 ns on today's CPUs, some 100x that under a sanitizer.
  const double c1 = a.real("c1_seconds_per_cell", kMinC1Seconds, kMaxC1Seconds, "seconds per cell");
  const double npp = a.real("cells_per_process", 1e-6, 0x1p40, "coarsest grid's cells per process");
  const auto p = static_cast<int>(a.whole("p", 1, std::int64_t{1} << 24, "the processes of the run"));
  // The cell kernel C1 was measured with (older files lack it: their loop was the scalar one).
  const std::string kernel = a.text_or("cell_kernel", "", "the cell kernel C1 was measured with");
  // C1 of cells in no family (older files lack it: eq. 5 then prices them at C1); 0 when the
  // run had none.
  const double loose = a.zero_or_real_or("c1_loose_seconds_per_cell", 0.0, kMinC1Seconds, kMaxC1Seconds,
                                         "seconds per cell of cells in no family");
  const std::string cycles = a.has(kC1CyclesKey) ? a.choice(kC1CyclesKey, {"median", "mean"}) : "mean";
  // Its run's speed check (/multigrid speed_check_ns; 0: a file from before the check).
  const double speed_check = instrument::calibration_speed_check_ns(doc, "multigrid", "/multigrid", path);
  // A file whose C1 is the mean of its cycles says so where its point is named.
  return {npp, c1, cycles == "median" ? path : path + " (an older file: C1 the mean of its cycles)", p, kernel, loose,
          instrument::calibration_unreliable_because(doc), speed_check};
}

C1Curve read_c1_calibrations(const std::vector<std::string>& paths) {
  std::vector<C1Point> points;
  for (const std::string& path : paths) points.push_back(read_c1_calibration(path));
  return C1Curve(std::move(points));
}

}  // namespace mg
