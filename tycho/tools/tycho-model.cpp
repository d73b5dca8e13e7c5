// tycho-model: the GM and the TM of Kerbyson, Hoisie & Pautz projected to rank counts this
// machine cannot run (the paper's Figure 9), side by side, from a mesh, a machine file and
// calibration runs. No MPI: one process.
//
//   tycho-model MESH --machine FILE --calibration RUN[,RUN...] --ranks P[,P...]
//               [--refine K] [--sn N] [--groups G] [--mcps N] [--pce X] [--telem-fit FIT]
//               [--csv FILE]
//
// Per P: METIS k-way into P parts (as tycho does), the sweep's schedule of one iteration made
// in lockstep rounds (schedule_projection.hpp), its PCE (eq. 4); the GM (eq. 6, 8, 9) with
// that PCE, or --pce's; the TM: that schedule replayed on the machine file's LogGOPS with
// T_elem(E_p) from the calibration runs (instrument/replay.hpp). --refine K refines the mesh
// K times (8^K the cells) first. A bad mesh, file or option: one line
// `tycho-model: error: ...`, exit status 1.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include "instrument/calibration_reader.hpp"
#include "instrument/error.hpp"
#include "instrument/statistics.hpp"
#include "instrument/input_file.hpp"
#include "instrument/loggps.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/memory_budget.hpp"
#include "instrument/option_file.hpp"
#include "instrument/option_number.hpp"
#include "instrument/option_table.hpp"
#include "instrument/output_file.hpp"
#include "instrument/replay.hpp"
#include "instrument/run_app.hpp"
#include "instrument/text_split.hpp"
#include "mesh/mesh_reader.hpp"
#include "tycho/model/gm.hpp"
#include "tycho/model/machine_comm.hpp"
#include "tycho/model/pce.hpp"
#include "tycho/model/telem.hpp"
#include "tycho/model/trace_program.hpp"
#include "mesh/partition.hpp"
#include "tycho/quadrature.hpp"
#include "mesh/refine.hpp"
#include "tycho/results_calibration.hpp"
#include "tycho/schedule_projection.hpp"
#include "tycho/tool_memory.hpp"
#include "tycho/sweep_partition.hpp"

namespace {

struct Options {
  std::string mesh, machine, csv;
  std::vector<std::string> calibrations;
  std::vector<int> ranks;
  int refine = 0, sn = 8, groups = 2;
  std::int64_t mcps = 512;
  double pce = 0.0;
  tycho::model::TelemFit telem_fit = tycho::model::TelemFit::points;
  tycho::Priority priority = tycho::Priority::band_octant;
};

// The command line, bound to `o`. --calibration and --ranks add to their lists when repeated.
void declare_options(instrument::OptionTable& t, Options& o) {
  t.notes("Projects the GM and the TM (Kerbyson, Hoisie & Pautz) to rank counts this machine cannot run,\n"
          "side by side, from a mesh, a machine file and calibration runs. No MPI: one process.")
      .positional_file("MESH", o.mesh, instrument::Arity::required, "a tetrahedral mesh: Tycho2 .smesh or Gmsh .msh")
      .input_file("--machine", "FILE", o.machine, "machine file from loggps-probe (T_comm, and LogGOPS for the replay)")
      .text("--calibration", "RUN[,RUN...]",
            [&o](const std::string& n, const std::string& v) {
              for (const std::string& f : instrument::file_list_option(n, v)) o.calibrations.push_back(f);
            },
            "tycho results files whose T_elem(E_p) feeds both models; their groups and directions must be "
            "this projection's")
      .text("--ranks", "LIST",
            [&o](const std::string& n, const std::string& v) {
              for (const std::string& p : instrument::split(v, ","))
                o.ranks.push_back(static_cast<int>(instrument::whole_option(n, p, 1, 1 << 24, "ranks")));
            },
            "rank counts to project to, e.g. 2,16,128,1024,4096; each in [1, 2^24] and at most the cells")
      .whole("--refine", "K", o.refine, 0, 3, "refinements", "refine the mesh uniformly K times first (8^K the cells)")
      .whole("--sn", "N", o.sn, 2, 16, "(the S_N order)", "level-symmetric S_N, N even (8: 80 directions)")
      .whole("--groups", "G", o.groups, 1, 64, "groups", "energy groups")
      .whole("--mcps", "N", o.mcps, 1, std::int64_t{1} << 40, "cell-angle tasks", "at most N cell-angle tasks a step")
      .choice("--priority", "P", o.priority, {{"band-octant", tycho::Priority::band_octant}, {"blevel", tycho::Priority::blevel}, {"octant", tycho::Priority::octant}},
              "the order of ready tasks the schedule follows, as tycho's --priority (band-octant, blevel, octant)")
      .text("--pce", "X",
            [&o](const std::string& n, const std::string& v) {
              char* end = nullptr;
              o.pce = std::strtod(v.c_str(), &end);
              if (end == v.c_str() || *end != '\0' || !(o.pce > 0 && o.pce <= 1))
                throw instrument::InputError("command line", n, "expected a PCE in (0, 1], found " + instrument::quote_token(v));
            },
            "the GM's PCE, in (0, 1] (default: the projected schedule's own, eq. 4)")
      .choice("--telem-fit", "FIT", o.telem_fit,
              {{"points", tycho::model::TelemFit::points}, {"line", tycho::model::TelemFit::line}},
              "how T_elem(E_p) is drawn from the calibrations: points, through each measured E_p; "
              "line, the paper's least-squares a ln(E_p) + b")
      .output_file("--csv", "FILE", o.csv, "the table as CSV too")
      .after_reading([&o] {
        if (o.machine.empty()) throw instrument::InputError("command line", "--machine", "expected a machine file");
        if (o.calibrations.empty()) throw instrument::InputError("command line", "--calibration", "expected a results file");
        if (o.ranks.empty()) throw instrument::InputError("command line", "--ranks", "expected a list of rank counts");
      });
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// The projection's size is known once the mesh is read: refused before minutes of refining
// and scheduling (tool_memory.hpp); `--refine 3` once ran for minutes into a bad_alloc.
void check_memory(const Options& o, std::uint64_t mesh_cells, int directions) {
  const std::uint64_t cells = tycho::refined_cell_count(mesh_cells, o.refine);
  const std::string field = "--refine " + std::to_string(o.refine) + " --sn " + std::to_string(o.sn);
  // project_schedule numbers a task direction x cells + cell in 32 bits.
  if (instrument::saturating_product({cells, static_cast<std::uint64_t>(directions)}) > (std::uint64_t{1} << 32))
    throw instrument::InputError("command line", field,
                                 "at most 2^32 cell-direction tasks in the schedule, got " + std::to_string(cells) +
                                     " cells x " + std::to_string(directions) + " directions");
  const int largest_p = *std::max_element(o.ranks.begin(), o.ranks.end());
  const std::uint64_t peak = std::max(tycho::model_tool_peak_bytes(cells, directions, o.mcps, largest_p,
                                                                 o.priority),
                                      o.refine > 0 ? tycho::refine_tool_peak_bytes(cells) : 0);
  instrument::require_node_memory(peak, 1, "command line", field,
                                  "projecting " + o.mesh + " (" + std::to_string(mesh_cells) + " cells) refined to " +
                                      std::to_string(cells) + " cells x " + std::to_string(directions) + " directions");
}

void run(const Options& o) {
  // A CSV path that cannot be written (a symbolic link, a device) refused before any work.
  if (!o.csv.empty()) instrument::check_output_file(o.csv, "the model's CSV");
  mesh::Mesh mesh = mesh::read_mesh(o.mesh);
  const tycho::Quadrature quadrature = tycho::level_symmetric(o.sn, "--sn");
  const int directions = static_cast<int>(quadrature.size());
  check_memory(o, mesh.cells.size(), directions);
  for (int k = 0; k < o.refine; ++k) mesh = mesh::refine_uniform(mesh, o.mesh);

  std::vector<tycho::model::TelemPoint> points;
  std::vector<double> steps;  // T_step of the one-rank calibrations (results_calibration.hpp)
  std::vector<std::string> marked;  // per calibration: its run's mark, or ""
  for (const std::string& path : o.calibrations) {
    const tycho::TychoCalibration c = tycho::read_tycho_calibration(path);
    if (c.groups != o.groups)
      throw instrument::InputError(path, "/tycho/calibration/groups", "the projection's " + std::to_string(o.groups) +
                                                                         " (T_elem depends on it), found " + std::to_string(c.groups));
    if (c.directions != directions)
      throw instrument::InputError(path, "/tycho/calibration/directions",
                                   "the projection's " + std::to_string(directions) + ", found " + std::to_string(c.directions));
    if (tycho::calibration_priority(c) != tycho::priority_name(o.priority))
      throw instrument::InputError(path, "/tycho/calibration/priority",
                                   std::string("the projection's ") + tycho::priority_name(o.priority) +
                                       " (T_elem depends on it), found " + tycho::calibration_priority_found(c));
    points.push_back(tycho::telem_point(c));
    if (c.step_s >= 0) steps.push_back(c.step_s);
    marked.push_back(instrument::calibration_unreliable_line(path, c.unreliable_because, "projection"));
  }
  const double t_step = steps.empty() ? 0.0 : instrument::median(steps);
  const tycho::model::TelemCurve t_elem(points, o.telem_fit);
  const instrument::MachineFile file = instrument::MachineFile::read(o.machine);
  const tycho::model::CommCost t_comm = tycho::model::comm_cost_from_machine(file);
  const instrument::replay::Machine machine = instrument::replay::machine_from(file);
  for (int p : o.ranks) mesh::check_part_count(p, mesh.cells.size(), o.mesh);

  std::printf("tycho-model: %s%s, %zu cells; S%d (%d directions), %d groups, MCPS %lld\n", o.mesh.c_str(),
              o.refine ? (" refined x" + std::to_string(o.refine)).c_str() : "", mesh.cells.size(), o.sn, directions,
              o.groups, static_cast<long long>(o.mcps));
  std::printf("  T_elem: %s\n  machine: %s (T_comm: LogGPS; TM: LogGOPS replay)\n  GM PCE: %s\n",
              t_elem.describe().c_str(), o.machine.c_str(),
              o.pce > 0 ? "given (--pce)" : "the projected schedule's (eq. 4)");
  for (const std::string& line : marked)
    if (!line.empty()) std::printf("%s\n", line.c_str());
  if (steps.empty()) std::printf("  T_step: not priced (no one-rank calibration measured it)\n");
  else std::printf("  T_step: %.3g s a step (median of %zu one-rank calibrations)\n", t_step, steps.size());
  std::printf("%7s %10s %8s %7s %7s %13s %13s %8s %9s %9s\n", "P", "E_p", "steps", "rounds", "PCE", "GM T_sweep[s]",
              "TM T_sweep[s]", "TM/GM", "GM comm", "time[s]");
  std::ostringstream csv;
  csv << "ranks,cells_per_rank,steps,rounds,pce,gm_seconds,gm_compute,gm_comm,tm_seconds,tm_compute,tm_send,"
         "tm_receive,t_elem_seconds,records\n";
  for (int p : o.ranks) {
    const auto start = std::chrono::steady_clock::now();
    const mesh::Partition partition = tycho::sweep_partition(mesh, p, o.mesh);
    const tycho::ProjectedSchedule schedule = tycho::project_schedule(mesh, partition, quadrature.omega, o.groups, o.mcps, o.priority);
    const tycho::model::PceOfIteration pce = tycho::model::parallel_computational_efficiency(schedule.ranks, 0);
    const double e_p = static_cast<double>(mesh.cells.size()) / p;

    tycho::model::GmInputs gm;
    gm.cells = static_cast<double>(mesh.cells.size());
    gm.ranks = p;
    gm.directions = directions;
    gm.mcps = o.mcps;
    gm.pce = o.pce > 0 ? o.pce : pce.pce;
    gm.bytes_per_boundary_cell_angle = 8.0 + 24.0 * o.groups;
    gm.t_elem = t_elem;
    gm.t_comm = t_comm;
    gm.step_overhead_s = t_step;
    const tycho::model::GmPrediction g = tycho::model::general_model(gm);
    const tycho::model::TraceModelTime tm =
        tycho::model::trace_model_time(schedule.ranks, {0}, t_elem(e_p, static_cast<double>(o.mcps)), machine, t_step);
    double tm_compute = 0, tm_send = 0, tm_receive = 0;  // the slowest rank's split
    std::size_t slowest = 0;
    for (std::size_t r = 0; r < tm.replay.ranks.size(); ++r)
      if (tm.replay.ranks[r].end > tm.replay.ranks[slowest].end) slowest = r;
    if (!tm.replay.ranks.empty()) {
      tm_compute = tm.replay.ranks[slowest].compute;
      tm_send = tm.replay.ranks[slowest].send;
      tm_receive = tm.replay.ranks[slowest].receive;
    }
    std::printf("%7d %10.1f %8lld %7lld %7.4f %13.6g %13.6g %8.3f %8.1f%% %9.2f\n", p, e_p,
                static_cast<long long>(pce.steps), static_cast<long long>(schedule.rounds), pce.pce, g.total_s,
                tm.seconds_per_iteration, tm.seconds_per_iteration / g.total_s, 100 * g.comm_share, seconds_since(start));
    std::fflush(stdout);
    csv << p << ',' << e_p << ',' << pce.steps << ',' << schedule.rounds << ',' << pce.pce << ',' << g.total_s << ','
        << g.compute_s << ',' << g.comm_s << ',' << tm.seconds_per_iteration << ',' << tm_compute << ',' << tm_send << ','
        << tm_receive << ',' << t_elem(e_p, static_cast<double>(o.mcps)) << ',' << schedule.records << '\n';
  }
  if (!o.csv.empty()) {
    instrument::write_text_output(o.csv, "the model's CSV", csv.str());
    std::printf("  CSV: %s\n", o.csv.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  instrument::OptionTable table("tycho-model",
                                "tycho-model MESH --machine FILE --calibration RUN[,RUN...] --ranks P[,P...] [options]");
  declare_options(table, o);
  return instrument::run_serial_app(argc, argv, table, [&] {
    try {
      run(o);
    } catch (const std::bad_alloc&) {  // the last resort: check_memory refuses what it can foresee
      std::fflush(stdout);
      std::fputs("tycho-model: error: out of memory (std::bad_alloc): the mesh, --refine, --sn or --ranks ask for more "
                 "than this machine has; no CSV written\n", stderr);
      return 1;
    }
    return 0;
  });
}
