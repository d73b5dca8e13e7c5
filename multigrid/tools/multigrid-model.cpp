// multigrid-model: the W-cycle at process counts beyond this machine, replayed by the LogGOPS
// simulator beside eq. 5 (projection.hpp). Nothing is run: the hierarchy is built and
// partitioned into each P, the exchanges counted, one cycle simulated.
//
//   multigrid-model [MESH] [--cube N] [--grids G | --mesh-sequence A,B,..] --procs P[,P...] --calibration RUN.h5[,RUN.h5..]
//                   --loggps FILE [--machine FILE] [--pre N] [--post N] [--coarse-iterations N]
//                   [--cycle W|V] [--csv FILE]
#include <algorithm>
#include <cstdio>
#include <new>
#include <sstream>
#include <string>

#include "bsplib/model/machine_params.hpp"
#include "instrument/calibration_reader.hpp"
#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/memory_budget.hpp"
#include "instrument/option_file.hpp"
#include "instrument/option_number.hpp"
#include "instrument/option_table.hpp"
#include "instrument/output_file.hpp"
#include "instrument/replay.hpp"
#include "instrument/run_app.hpp"
#include "instrument/text_split.hpp"
#include "mesh/mesh_examples.hpp"
#include "multigrid/model/eq5_model.hpp"
#include "multigrid/grid_partition.hpp"
#include "multigrid/model/projection.hpp"
#include "multigrid/results_output.hpp"
#include "multigrid/run_memory.hpp"
#include "mesh/mesh_reader.hpp"

namespace {

const char* const kNotes =
    "The W-cycle of the hierarchy partitioned into each P, replayed by the LogGOPS simulator (--loggps:\n"
    "loggps-probe's machine file) with C1 from the calibration run, beside eq. 5 with l and g from\n"
    "--machine (bspprobe's file; without it eq. 5 is not shown). Nothing is run.";

struct Options {
  std::string mesh, loggps, machine, csv;
  std::vector<std::string> calibration, sequence;
  int cube = 4, grids = 3;
  std::vector<int> procs;
  mg::CycleOptions cycle;
};

// The command line, bound to `o`. --procs adds to its list when repeated.
void declare_options(instrument::OptionTable& t, Options& o) {
  t.notes(kNotes)
      .positional_file("MESH", o.mesh, instrument::Arity::optional,
                       "the coarsest grid: .smesh or .msh (default: the unit cube cut into --cube N^3 cubes)")
      .whole("--cube", "N", o.cube, 1, 200, "(cubes per side)", "the default cube's cubes per side")
      .whole("--grids", "G", o.grids, 1, 8, "(grids)", "grids, each a uniform refinement of the last")
      .text("--mesh-sequence", "A,B,..",
            [&o](const std::string& n, const std::string& v) {
              o.sequence = instrument::file_list_option(n, v);
              if (o.sequence.size() < 2)
                throw instrument::InputError("command line", n,
                                             "expected two meshes or more, coarsest first, separated by commas");
            },
            "independent meshes of one domain, coarsest first, instead of MESH and its refinements")
      .text("--procs", "P[,P...]",
            [&o](const std::string& n, const std::string& v) {
              for (const std::string& p : instrument::split(v, ","))
                o.procs.push_back(static_cast<int>(instrument::whole_option(n, p, 1, 65536, "(processes)")));
            },
            "process counts to project to, each in [1, 65536]")
      .file_list("--calibration", "RUN.h5[,RUN.h5..]", o.calibration, "multigrid results files whose C1 feeds both models")
      .input_file("--loggps", "FILE", o.loggps, "loggps-probe's machine file, for the LogGOPS replay")
      .input_file("--machine", "FILE", o.machine, "bspprobe's machine file: l and g for eq. 5 (without it, no eq. 5)")
      .whole("--pre", "N", o.cycle.pre, 0, 100, "(smoothing iterations)", "smoothing iterations before the coarse correction")
      .whole("--post", "N", o.cycle.post, 0, 100, "(smoothing iterations)", "smoothing iterations after the coarse correction")
      .whole("--coarse-iterations", "N", o.cycle.coarse_iterations, 1, 100000, "(smoothing iterations)",
             "smoothing iterations on the coarsest grid per visit")
      .choice("--cycle", "W|V", o.cycle.gamma, {{"W", 2}, {"V", 1}}, "W-cycle or V-cycle")
      .output_file("--csv", "FILE", o.csv,
                   "the table with both models' split into work and communication (suite-campaign plot "
                   "multigrid-projection draws it)")
      .after_reading([&o] {
        if (!o.sequence.empty() && !o.mesh.empty())
          throw instrument::InputError("command line", "--mesh-sequence",
                                       "no MESH beside it (the sequence's first is the coarsest grid), got " + o.mesh);
        if (!o.sequence.empty()) o.grids = static_cast<int>(o.sequence.size());
        if (o.procs.empty()) throw instrument::InputError("command line", "--procs", "expected the process counts to project to");
        if (o.calibration.empty())
          throw instrument::InputError("command line", "--calibration", "expected a multigrid results file for C1");
        if (o.loggps.empty()) throw instrument::InputError("command line", "--loggps", "expected loggps-probe's machine file");
        if (o.cycle.pre + o.cycle.post == 0)
          throw instrument::InputError("command line", "--pre/--post", "at least one smoothing iteration per visit");
      });
}

// The hierarchy and the largest partition (run_memory.hpp), refused before they are built:
// `--cube 2 --grids 8` (100663296 finest cells) once ran for minutes into a bad_alloc.
void check_memory(const Options& o, const mg::GridsShape& grids, const std::string& source, const std::string& field) {
  const int largest_p = *std::max_element(o.procs.begin(), o.procs.end());
  instrument::require_node_memory(mg::projection_peak_bytes(grids, largest_p), 1, source, field,
                                  "projecting " + std::to_string(grids.finest) + " finest cells");
}

void run(const Options& o) {
  // Refused before any work: a CSV path that cannot be written (a symbolic link, a device),
  // a calibration that cannot be opened (named in one line before the results reader sees it).
  if (!o.csv.empty()) instrument::check_output_file(o.csv, "the projection's CSV");
  for (const std::string& f : o.calibration) instrument::require_regular_input(f, "results file");
  const mg::C1Curve c1 = mg::read_c1_calibrations(o.calibration);
  const auto c1_at = [&c1](double cells_per_process) { return c1(cells_per_process); };
  const double c1_loose = c1.loose_seconds();  // eq. 5 prices the coarsest grid's cells at it
  const instrument::replay::Machine machine = instrument::replay::machine_from(instrument::MachineFile::read(o.loggps));
  bspmodel::BspMachine bsp;
  if (!o.machine.empty()) bsp = bspmodel::read_machine_file(o.machine);
  std::string name = o.mesh.empty() ? "the default cube" : o.mesh;
  std::vector<mg::Grid> grids;
  if (o.sequence.empty()) {
    const std::uint64_t n = static_cast<std::uint64_t>(o.cube);
    if (o.mesh.empty()) check_memory(o, mg::refined_grids(6 * n * n * n, o.grids), "command line",
                                  "--cube " + std::to_string(o.cube) + " --grids " + std::to_string(o.grids));
    mesh::Mesh coarse = o.mesh.empty() ? mesh::kuhn_cube_mesh(o.cube, 1.0) : mesh::read_mesh(o.mesh);
    if (!o.mesh.empty()) check_memory(o, mg::refined_grids(coarse.cells.size(), o.grids), o.mesh, "--grids " + std::to_string(o.grids));
    mg::check_nodes(coarse, name);
    for (int p : o.procs) mesh::check_part_count(p, coarse.cells.size(), name);  // before any output
    grids = mg::build_hierarchy(std::move(coarse), o.grids, name);
  } else {
    std::vector<mesh::Mesh> meshes = mg::read_checked_meshes(o.sequence);
    std::vector<std::uint64_t> cells;
    for (const mesh::Mesh& m : meshes) cells.push_back(m.cells.size());
    check_memory(o, mg::grid_sequence(cells), o.sequence.back(), "--mesh-sequence");
    for (int p : o.procs) mesh::check_part_count(p, meshes.front().cells.size(), o.sequence.front());
    grids = mg::build_sequence(std::move(meshes), o.sequence);
    name = "sequence " + o.sequence.front() + " .. " + o.sequence.back();
  }
  const std::vector<mg::CycleStep> steps = mg::cycle_steps(o.grids, o.cycle);
  const std::size_t finest = grids.back().cell_count();
  std::printf("multigrid-model: %s, %d grids (finest %zu cells), %zu supersteps per cycle\n", name.c_str(), o.grids,
              finest, steps.size());
  std::printf("  %s, per cell and application; LogGOPS machine %s; eq. 5's l, g: %s\n", c1.describe(0, "").c_str(),
              o.loggps.c_str(), o.machine.empty() ? "(no --machine: not shown)" : o.machine.c_str());
  for (const mg::C1Point& point : c1.points())
    if (!point.unreliable_because.empty())
      std::printf("%s\n", instrument::calibration_unreliable_line(point.source, point.unreliable_because, "projection").c_str());
  std::printf("%8s %12s %10s %12s %14s %14s %8s\n", "P", "cells/P", "imbalance", "h grid 1 (B)", "replay [s]",
              "eq. 5 [s]", "ratio");
  // The replay's split is its slowest process's: work against everything else (sends,
  // receives, waits, the barriers of bsp_sync); eq. 5's is its C1 term against C2 g + C3 l.
  std::ostringstream csv;
  csv << "procs,cells_per_proc,imbalance,h_grid1_bytes,replay_seconds,replay_work,replay_comm_sync,eq5_seconds,"
         "eq5_work,eq5_comm_sync\n";
  for (int p : o.procs) {
    const std::vector<std::vector<std::int32_t>> parts = mg::partition_grids(grids, p, name);
    const mg::Traffic traffic = mg::count_traffic(grids, parts, p);
    const instrument::replay::Result r = instrument::replay::simulate(*mg::cycle_program(traffic, steps, c1_at), machine);
    const std::vector<std::int64_t>& top = traffic.cells.back();
    const double most = static_cast<double>(*std::max_element(top.begin(), top.end()));
    double eq5 = 0, eq5_work = 0;
    if (!o.machine.empty()) {
      std::vector<mg::Eq5GridCount> counts;  // grid 1 (the finest) first
      for (std::size_t l = grids.size(); l-- > 0;) {
        double applications = 0, supersteps = 0;
        for (const mg::CycleStep& s : steps)
          if ((s.kind == mg::CycleStep::apply && s.level == static_cast<int>(l))) ++applications, ++supersteps;
          else if (s.level + 1 == static_cast<int>(l) && s.kind != mg::CycleStep::apply) ++supersteps;  // l's transfers
        // The coarsest grid's cells are in no family (the partitions' edges are left out).
        const double cells = static_cast<double>(grids[l].cell_count());
        counts.push_back({cells, applications, supersteps, traffic.h_bytes[l], l == 0 ? cells : 0.0});
      }
      const mg::Eq5Inputs in =
          mg::eq5_inputs_from_counts(p, c1_at, c1_loose, bsp.l_seconds, bsp.g_seconds_per_byte, counts);
      const mg::Eq5Terms sum = mg::eq5_w_cycle(in).back();
      eq5 = sum.total();
      eq5_work = sum.compute;
    }
    std::size_t slowest = 0;
    for (std::size_t q = 0; q < r.ranks.size(); ++q)
      if (r.ranks[q].end > r.ranks[slowest].end) slowest = q;
    const double replay_work = r.ranks.empty() ? 0 : r.ranks[slowest].compute;
    csv << p << ',' << static_cast<double>(finest) / p << ',' << most * p / static_cast<double>(finest) << ','
        << traffic.h_bytes.back() << ',' << r.total << ',' << replay_work << ',' << r.total - replay_work << ',';
    if (o.machine.empty()) csv << ",,\n";
    else csv << eq5 << ',' << eq5_work << ',' << eq5 - eq5_work << '\n';
    std::printf("%8d %12.0f %10.3f %12.0f %14.6g %14s %8s\n", p, static_cast<double>(finest) / p, most * p / static_cast<double>(finest),
                traffic.h_bytes.back(), r.total, o.machine.empty() ? "-" : std::to_string(eq5).c_str(),
                o.machine.empty() ? "-" : std::to_string(eq5 / r.total).substr(0, 5).c_str());
    std::fflush(stdout);
  }
  if (!o.csv.empty()) {
    instrument::write_text_output(o.csv, "the projection's CSV", csv.str());
    std::printf("  CSV: %s\n", o.csv.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  instrument::OptionTable table("multigrid-model",
                                "multigrid-model [MESH] [--cube N] [--grids G | --mesh-sequence A,B,..] --procs P[,P...]\n"
                                "                       --calibration RUN.h5[,RUN.h5..] --loggps FILE [options]");
  declare_options(table, o);
  return instrument::run_serial_app(argc, argv, table, [&] {
    try {
      run(o);
    } catch (const std::bad_alloc&) {  // the last resort: check_memory refuses what it can foresee
      std::fflush(stdout);
      std::fputs("multigrid-model: error: out of memory (std::bad_alloc): the grids or the process counts ask for "
                 "more than this machine has; no CSV written\n", stderr);
      return 1;
    }
    return 0;
  });
}
