// One tycho run (driver.hpp).
#include "tycho/driver.hpp"

#include <algorithm>
#include <ostream>
#include <set>

#include "instrument/error.hpp"
#include "instrument/memory_budget.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/rank_gather.hpp"
#include "tycho/materials_file.hpp"
#include "mesh/mesh_reader.hpp"
#include "tycho/quadrature.hpp"
#include "tycho/run_memory.hpp"
#include "tycho/speed_check.hpp"
#include "tycho/sweep_partition.hpp"

namespace tycho {

namespace {

// Runs `f` on every rank; an InputError on any rank becomes one collective error line.
template <class F>
void collectively(MPI_Comm comm, F&& f) {
  std::string error;
  try {
    f();
  } catch (const instrument::InputError& e) {
    error = e.what();
  }
  instrument::throw_if_any_rank_failed(comm, error);
}

Quadrature make_quadrature(const RunOptions& o) {
  if (o.product_polar > 0) return product_quadrature(o.product_polar, o.product_azimuthal, "--product");
  return level_symmetric(o.sn, "--sn");
}

// The run's size is known once the mesh is partitioned and MCPS chosen: refused before the
// plan and the sweep (run_memory.hpp), naming the options that ask for it. `--product 64x256
// --groups 64` on cube-10717 once planned for 39 s and then ran out of memory.
void check_memory(const RunOptions& o, const Mesh& mesh, const mesh::Partition& partition, std::int64_t mcps,
                  int directions, int on_node) {
  RunShape shape = partition_shape(mesh, partition);
  shape.directions = directions;
  shape.groups = o.groups;
  shape.mcps = mcps;
  shape.nonblocking = o.sweep.nonblocking;
  shape.priority = o.priority;
  // With --tol the run may stop after any sweep: only the first is certain, and a run that
  // converges must not be refused for the history of a cap it never reaches.
  shape.iterations = o.tolerance > 0 ? 1 : o.iterations;
  const std::uint64_t peak = run_peak_bytes(shape);
  std::string field = o.product_polar > 0
                          ? "--product " + std::to_string(o.product_polar) + "x" + std::to_string(o.product_azimuthal)
                          : "--sn " + std::to_string(o.sn);
  field += " --groups " + std::to_string(o.groups);
  if (history_bytes(shape) > peak / 2)  // the steps' records, not the fluxes, fill it
    field += " --mcps " + std::to_string(mcps) + " --iterations " + std::to_string(shape.iterations);
  const std::string cells = std::to_string(shape.mesh_cells) + " cells" +
                            (shape.ranks > 1 ? ", " + std::to_string(shape.cells) + " on the largest of " +
                                                   std::to_string(shape.ranks) + " ranks"
                                             : "");
  instrument::require_node_memory(peak, on_node, "command line", field,
                                  "sweeping " + o.mesh_path + " (" + cells + ") in " + std::to_string(directions) +
                                      " directions x " + std::to_string(o.groups) + " groups");
}

}  // namespace

TychoInput read_tycho_input(const RunOptions& o, MPI_Comm comm, bool mcps_final) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  const double t0 = MPI_Wtime();
  TychoInput in;
  in.on_node = instrument::processes_on_node(comm);  // collective: before any rank can fail
  collectively(comm, [&] {
    in.problem.quadrature = make_quadrature(o);
    in.problem.groups = o.groups;
    in.problem.scheme = o.scheme;
    in.problem.fallback = default_material(o.groups);
    in.problem.max_iterations = o.iterations;
    in.problem.tolerance = o.tolerance;
    check_material(in.problem.fallback, o.groups, 0, "default problem");
    in.mesh = mesh::read_mesh(o.mesh_path);
    mesh::check_part_count(size, in.mesh.cells.size(), o.mesh_path + " on " + std::to_string(size) + " ranks");
    if (!o.materials_path.empty()) {
      in.problem.materials = read_materials_file(o.materials_path, o.groups);
      std::set<std::uint32_t> in_mesh;
      for (const Cell& c : in.mesh.cells) in_mesh.insert(c.material);
      for (const auto& [m, data] : in.problem.materials)
        if (!in_mesh.count(m))
          throw instrument::InputError(o.materials_path, "material " + std::to_string(m),
                                       "a material number some cell of " + o.mesh_path + " has (a typo would " +
                                           "silently leave the default data), found none");
    }
  });
  collectively(comm, [&] {
    in.partition = o.partition_path.empty() ? sweep_partition(in.mesh, size, o.mesh_path)
                                            : mesh::read_partition_file(o.partition_path, in.mesh.cells.size(), size);
  });
  collectively(comm, [&] {  // the plan's limits, this rank's share (make_sweep_plan checks them again)
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const auto mine = static_cast<std::size_t>(
        std::count(in.partition.part_of_cell.begin(), in.partition.part_of_cell.end(), rank));
    check_plan_limits(mine, in.problem.quadrature.size(), o.priority, o.mesh_path);
  });
  if (mcps_final) {
    collectively(comm, [&] {
      check_memory(o, in.mesh, in.partition, o.sweep.mcps, static_cast<int>(in.problem.quadrature.size()), in.on_node);
    });
    in.memory_checked_for_mcps = o.sweep.mcps;
  }
  in.read_s = MPI_Wtime() - t0;
  return in;
}

RunResult run_tycho(const RunOptions& o, TychoInput&& input, MPI_Comm comm, instrument::Recorder& recorder,
                    std::ostream* out) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  RunResult r;
  r.ranks = size;
  const double t0 = MPI_Wtime();
  Mesh mesh = std::move(input.mesh);
  const mesh::Partition partition = std::move(input.partition);
  r.problem = std::move(input.problem);
  r.mesh_cells = mesh.cells.size();
  SweepOptions sweep_options = o.sweep;
  if (o.choose_mcps) sweep_options.mcps = o.choose_mcps(r.mesh_cells, r.mcps_reason);
  r.mcps = sweep_options.mcps;
  if (r.mcps != input.memory_checked_for_mcps)
    collectively(comm, [&] {
      check_memory(o, mesh, partition, r.mcps, static_cast<int>(r.problem.quadrature.size()), input.on_node);
    });
  r.mesh_faces = mesh.faces.size();
  SweepPlan plan;
  collectively(comm, [&] { plan = make_sweep_plan(mesh, partition, r.problem, rank, o.priority, o.mesh_path); });
  r.local_cells = plan.cells.size();
  r.lagged_faces = plan.lagged_faces_global;
  mesh = Mesh();  // the plan holds what the sweep needs
  SweepEngine engine(plan, r.problem, sweep_options, comm, recorder);
  double setup = input.read_s + (MPI_Wtime() - t0);
  MPI_Allreduce(MPI_IN_PLACE, &setup, 1, MPI_DOUBLE, MPI_MAX, comm);
  r.setup_s = setup;
  if (out && rank == 0)
    *out << " tycho: " << o.mesh_path << ", " << r.mesh_cells << " cells on " << size << " ranks; "
         << r.problem.quadrature.name << " (" << r.problem.quadrature.size() << " directions), " << o.groups
         << " groups, " << (o.scheme == Scheme::step ? "step" : "LD") << "; MCPS " << r.mcps
         << (r.mcps_reason.empty() ? "" : " (auto: " + r.mcps_reason + ")") << ", priority "
         << priority_name(o.priority) << ", " << (o.sweep.nonblocking ? "non-blocking" : "blocking") << ", "
         << o.sweep.threads << " thread(s); lagged (face, direction) pairs: " << r.lagged_faces << "; set-up "
         << setup << " s\n";
  // The speed check right before the first sweep and right after the last (speed_check.hpp),
  // outside every timed phase.
  const double check_before = speed_check_ns();
  MPI_Barrier(comm);  // the ranks start the sweeps together, as without the check
  r.transport = run_source_iteration(plan, r.problem, engine, comm, rank == 0 ? out : nullptr);
  const double check_after = speed_check_ns();
  r.speed_check = instrument::gather_speed_check(check_before, check_after, comm);
  r.digest = phi_digest(plan, r.transport.phi, comm);
  const auto steps = instrument::gather_to_root(comm, std::span<const StepRecord>(r.transport.history.steps), 0,
                                                "tycho's step records");
  const auto messages = instrument::gather_to_root(comm, std::span<const MessageRecord>(r.transport.history.messages),
                                                   0, "tycho's message records");
  const std::int64_t mine_tasks = static_cast<std::int64_t>(plan.tasks());
  const auto compute = instrument::gather_to_root(comm, std::span<const double>(&r.transport.compute_s, 1));
  const auto solve = instrument::gather_to_root(comm, std::span<const double>(&r.transport.gather_solve_s, 1));
  const auto tasks = instrument::gather_to_root(comm, std::span<const std::int64_t>(&mine_tasks, 1));
  if (rank == 0) {
    for (int p = 0; p < size; ++p) {
      const auto s = steps.of_rank(p);
      const auto m = messages.of_rank(p);
      r.histories.push_back(RankHistory{{s.begin(), s.end()}, {m.begin(), m.end()}});
      r.compute_s.push_back(compute.all.at(static_cast<std::size_t>(p)));
      r.gather_solve_s.push_back(solve.all.at(static_cast<std::size_t>(p)));
      r.tasks.push_back(tasks.all.at(static_cast<std::size_t>(p)));
    }
  }
  return r;
}

}  // namespace tycho
