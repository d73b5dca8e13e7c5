// One multigrid run (driver.hpp).
#include "multigrid/driver.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <optional>
#include <ostream>
#include <stdexcept>

#include "bsp.h"
#include "bsp_profile.hpp"
#include "instrument/clock.hpp"
#include "instrument/error.hpp"
#include "instrument/heap_reuse.hpp"
#include "instrument/memory_budget.hpp"
#include "instrument/mpi_main.hpp"
#include "mesh/mesh_examples.hpp"
#include "multigrid/grid_partition.hpp"
#include "multigrid/p1_operator.hpp"
#include "multigrid/run_memory.hpp"
#include "multigrid/speed_check.hpp"
#include "mesh/mesh_reader.hpp"

namespace mg {

namespace {

const double kPi = std::acos(-1.0);

std::vector<std::uint64_t> cell_counts(const std::vector<mesh::Mesh>& meshes) {
  std::vector<std::uint64_t> cells;
  for (const mesh::Mesh& m : meshes) cells.push_back(m.cells.size());
  return cells;
}

// The memory the run will take on this node (every process holds the whole hierarchy and the
// processes of a node share its memory; run_memory.hpp), refused before anything is built;
// else this process's share advised for huge pages before anything touches it (heap_reuse.hpp:
// a 4 KiB fault costs 10-13 us on a guest with shadow paging, 6000-7500 of them a set-up).
void claim_memory(const GridsShape& grids, int p, int on_node, const std::string& source, const std::string& field) {
  const std::uint64_t bytes = run_peak_bytes(grids, p);
  instrument::require_node_memory(bytes, on_node, source, field,
                                  "a run of " + std::to_string(grids.finest) + " finest cells at " + std::to_string(p) +
                                      (p == 1 ? " process" : " processes"));
  instrument::advise_heap_huge_pages(static_cast<std::size_t>(bytes));
}

void check_part_count(const mesh::Mesh& coarse, int p, const std::string& name) {
  if (static_cast<std::size_t>(p) > coarse.cells.size())
    throw instrument::InputError(name, "P", "at most one process per coarse cell: " + std::to_string(p) +
                                                " processes for " + std::to_string(coarse.cells.size()) + " cells");
}

ProblemInput prepare_input(const RunOptions& o, int p, int me, int on_node) {
  ProblemInput in;
  const std::string grids_option = "--grids " + std::to_string(o.grids);
  if (!o.mesh_sequence.empty()) {
    std::vector<mesh::Mesh> meshes;
    {
      SetupTimer t(&in.setup, "mesh");
      meshes = read_checked_meshes(o.mesh_sequence);
    }
    claim_memory(grid_sequence(cell_counts(meshes)), p, on_node, o.mesh_sequence.front(), "--mesh-sequence");
    check_part_count(meshes.front(), p, o.mesh_sequence.front());
    {
      SetupTimer t(&in.setup, "point-location");
      in.grids = build_sequence(std::move(meshes), o.mesh_sequence);
    }
    in.mesh_name = "sequence";
    for (const std::string& path : o.mesh_sequence) in.mesh_name += (path == o.mesh_sequence.front() ? " " : ", ") + path;
  } else {
    mesh::Mesh coarse;
    const std::string name = o.mesh_path.empty() ? std::string("the default cube") : o.mesh_path;
    {
      SetupTimer t(&in.setup, "mesh");
      if (o.mesh_path.empty()) {
        // Known from the options alone: refused before the cube is built (6 n^3 cells).
        const std::uint64_t n = static_cast<std::uint64_t>(o.cube);
        claim_memory(refined_grids(6 * n * n * n, o.grids, o.partition_path.empty()), p, on_node, "command line",
                     "--cube " + std::to_string(o.cube) + " " + grids_option);
        coarse = mesh::kuhn_cube_mesh(o.cube, 1.0);
        in.mesh_name = "unit cube, " + std::to_string(o.cube) + "^3 cubes x 6 tetrahedra";
      } else {
        coarse = mesh::read_mesh(o.mesh_path);
        in.mesh_name = o.mesh_path;
        claim_memory(refined_grids(coarse.cells.size(), o.grids, o.partition_path.empty()), p, on_node, o.mesh_path,
                     grids_option);
      }
      check_nodes(coarse, name);
      check_part_count(coarse, p, name);
    }
    SetupTimer t(&in.setup, "refinement");
    // METIS finds a grid's faces if it needs them. The finest grid's cells are kept by parent
    // (its largest array, 5x smaller), unless the partition is to be read for it; at P > 1
    // each process splits and checks its own parents below.
    const FinestCells finest = !o.partition_path.empty() || o.grids < 2 ? FinestCells::stored
                               : p == 1                                 ? FinestCells::by_parent
                                                                        : FinestCells::by_parent_deferred;
    in.grids = build_hierarchy(std::move(coarse), o.grids, name, GridFaces::omitted, finest);
  }
  const std::string name = o.mesh_sequence.empty() ? (o.mesh_path.empty() ? std::string("the default cube") : o.mesh_path)
                                                   : o.mesh_sequence.back();
  // METIS on a coarse grid (metis_grid), a partition file on the finest.
  const std::size_t at = o.partition_path.empty() ? metis_grid(in.grids, p) : in.grids.size() - 1;
  if (at == in.grids.size() - 1 && in.grids[at].cells_by_parent()) {  // METIS partitions the finest grid: its cells stored
    SetupTimer t(&in.setup, "refinement");
    store_finest_cells(in.grids, name);
  }
  mesh::Partition part;
  {
    SetupTimer t(&in.setup, o.partition_path.empty() ? "METIS" : "partition-file");
    part = o.partition_path.empty() ? metis_partition_grid(in.grids[at], p, name)
                                    : mesh::read_partition_file(o.partition_path, in.grids[at].cell_count(), p);
  }
  {
    SetupTimer t(&in.setup, "inheritance");
    // The finest grid's parts kept by parent as its cells are (its parts list 4 B a cell).
    in.parts = inherit_parts(in.grids, at, part,
                             in.grids.back().cells_by_parent() ? FinestParts::by_parent : FinestParts::stored);
  }
  if (p > 1 && in.grids.back().cells_by_parent()) {  // this process's parents of the finest grid split and checked
    SetupTimer t(&in.setup, "refinement");
    split_finest_cells(in.grids, in.parts[in.grids.size() - 2], me, name);
  }
  return in;
}

void register_all(std::vector<LocalLevel>& levels) {
  for (LocalLevel& L : levels) {
    register_exchange(L.assemble);
    register_exchange(L.restrict_sum);
    register_exchange(L.prolong_fetch);
  }
}

void unregister_all(std::vector<LocalLevel>& levels) {
  for (LocalLevel& L : levels) {
    bsp_pop_reg(L.assemble.recv.data());
    bsp_pop_reg(L.restrict_sum.recv.data());
    bsp_pop_reg(L.prolong_fetch.recv.data());
  }
}

double sine_pi(double t) { return std::sin(kPi * t); }

double max_over(double v) {
  double m = v;
  MPI_Allreduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m;
}

double sum_over(double v) {
  double s = v;
  MPI_Allreduce(&v, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

// The residual norm is a global sum, the same on every rank: a NaN or an infinity there is
// an error every rank sees at once, never a line of "residual -nan" and an exit of 0.
void require_finite_residual(double residual, int cycle) {
  if (!std::isfinite(residual))
    throw instrument::CollectiveError("multigrid: the residual is " + std::string(std::isnan(residual) ? "NaN" : "infinite") +
                                      (cycle == 0 ? " before the first cycle" : " after cycle " + std::to_string(cycle)) +
                                      "; expected a finite residual (a degenerate mesh or options out of range?)");
}

}  // namespace

double exact_solution(double x, double y, double z) { return std::sin(kPi * x) * std::sin(kPi * y) * std::sin(kPi * z); }

ProblemInput load_problem(const RunOptions& o) {
  int p = 1, me = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const double t0 = instrument::now_seconds();
  const instrument::ProcessUsage u0 = instrument::process_usage();
  const int on_node = instrument::processes_on_node(MPI_COMM_WORLD);  // collective: before any rank can fail
  ProblemInput in;
  std::string error;
  try {
    // A rank's own error (a degenerate cell of the finest grid is found by the rank that holds
    // it): the lowest failing rank's line is every rank's.
    in = prepare_input(o, p, me, on_node);
  } catch (const std::exception& e) {
    error = e.what();
  }
  instrument::throw_if_any_rank_failed(MPI_COMM_WORLD, error);
  in.seconds = instrument::now_seconds() - t0;
  in.usage = instrument::process_usage() - u0;
  return in;
}

RunResult run_multigrid(const RunOptions& o, std::ostream* out) { return run_multigrid(load_problem(o), o, out); }

RunResult run_multigrid(ProblemInput&& in, const RunOptions& o, std::ostream* out) {
  const double t_input = in.seconds;
  const instrument::ProcessUsage input_usage = in.usage;
  int p = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  bsplib::profile_in_memory();
  bsp_begin(p);
  RunResult res = solve_in_section(std::move(in), o, out);
  bsp_end();
  res.setup_seconds += t_input;
  res.setup_usage += input_usage;
  if (rank == 0) {
    res.profile = bspmodel::profile_from_section(bsplib::ended_section_profile(), "this run");
    res.superstep_tags = tag_supersteps(res.profile, cycle_labels(res.grids.size()));
  }
  return res;
}

namespace {

// The solve of solve_in_section. `consumed`: the same input when the caller gives it up; its
// grids and parts are then freed once the levels are numbered, before the levels' six vectors
// and loose cells' batches are written (batch_local_levels), which then reuse the grids'
// memory (with instrument::reuse_freed_memory, as the program runs) rather than fault in
// fresh pages: each process holds the whole grids but only its share of the levels.
RunResult solve(const ProblemInput& in, ProblemInput* consumed, const RunOptions& o, std::ostream* out) {
  if (in.grids.empty() || in.parts.size() != in.grids.size())
    throw std::invalid_argument("solve_in_section: an input with no grids, or not a part list a grid (one already given up?)");
  const int p = bsp_nprocs(), me = bsp_pid();
  const double t_setup = instrument::now_seconds();
  const instrument::ProcessUsage u_setup = instrument::process_usage();
  Multigrid mgd;
  mgd.options = o.cycle;
  RunResult res;
  res.setup_phases = in.setup;
  mgd.levels = number_local_levels(in.grids, in.parts, me, p, &res.setup_phases);
  const std::size_t n = mgd.levels.size(), top = n - 1;
  std::vector<std::vector<std::int64_t>> part_cells;  // per level: each process's cells
  for (std::size_t l = 0; l < in.grids.size(); ++l) part_cells.push_back(grid_part_sizes(in.grids, in.parts, l, p));
  if (consumed) {
    std::vector<Grid>().swap(consumed->grids);
    std::vector<std::vector<std::int32_t>>().swap(consumed->parts);
  }
  batch_local_levels(mgd.levels, &res.setup_phases);

  res.p = p;
  res.mesh = in.mesh_name;
  std::optional<SetupTimer> phase(std::in_place, &res.setup_phases, "registration");
  register_all(mgd.levels);
  GlobalSum sums(p);
  bsp_profile_label("setup registration");
  bsp_sync();
  phase.emplace(&res.setup_phases, "load");

  LocalLevel& F = mgd.levels[top];
  // f = -lap u = 3 pi^2 u, and u itself, as products of one sine per axis: the bits of
  // 3 * kPi * kPi * exact_solution(x, y, z) and of exact_solution(x, y, z).
  const ProductFunction f{3 * kPi * kPi, sine_pi}, u{1.0, sine_pi};
  // The finest grid's diagonal in the load's pass over its cells (prepare exchanges and
  // inverts it): its element vectors computed once, not twice.
  std::fill(F.diag_inv.begin(), F.diag_inv.end(), 0.0);
  add_cell_load(F, f, F.b.data(), mgd.options.cell_kernel, F.diag_inv.data());
  run_exchange(F.assemble, F.b.data(), "setup load");
  for (std::size_t s = 0; s < F.n_local; ++s)
    if (F.dirichlet[s]) F.x[s] = exact_solution(F.xyz[s].x, F.xyz[s].y, F.xyz[s].z);
  phase.emplace(&res.setup_phases, "operator");
  prepare(mgd, sums, FinestDiagonal::summed);
  phase.reset();
  mgd.clock.assign(n, {});
  res.setup_seconds = instrument::now_seconds() - t_setup;
  res.setup_usage = instrument::process_usage() - u_setup;

  // The cycles' lines are written after the last cycle, from what it kept: a line written
  // between cycles would be timed in process 0's first superstep of the next (its w runs from
  // the sync before it), which C1, the replay and the uneven-CPU check read (13 us a line
  // against ~20 us a smoothing superstep at --cube 4 --grids 3; the first line, after the
  // set-up's, 4 ms). A residual that is not finite ends the run: the lines so far first.
  const auto write_cycle_lines = [&] {
    if (!out) return;
    *out << " cycle  0  residual " << std::scientific << std::setprecision(3) << res.residuals[0] << "\n";
    for (std::size_t c = 1; c < res.residuals.size(); ++c) {
      const double before = res.residuals[c - 1];
      *out << " cycle " << std::setw(2) << c << "  residual " << res.residuals[c] << "  factor " << std::fixed
           << std::setprecision(4);
      if (before > 0) *out << res.residuals[c] / before;
      else *out << "  -   ";  // nothing left to reduce (no free nodes, or an exact solve)
      *out << "  " << std::setprecision(2) << 1e3 * res.cycle_seconds[c - 1] << " ms\n" << std::scientific
           << std::setprecision(3);
    }
    *out << std::defaultfloat << std::setprecision(6);
  };
  // The speed check right before the cycles and right after them (speed_check.hpp), outside
  // every timed phase: before the first residual, so that it falls in the monitor's
  // superstep (grid 0, which neither C1, the replay nor the uneven-CPU check reads) and not in
  // process 0's first superstep of the first cycle, whose w runs from the sync before it. The
  // monitor's syncs bring the processes together again before the first cycle: no barrier.
  const double check_before = speed_check_ns(mgd.options.cell_kernel);
  res.residuals.push_back(residual_norm(mgd, sums));
  require_finite_residual(res.residuals.back(), 0);
  for (int c = 1; c <= o.cycles; ++c) {
    const double t0 = instrument::now_seconds();
    cycle(mgd, top);
    res.cycle_seconds.push_back(instrument::now_seconds() - t0);
    const double residual = residual_norm(mgd, sums);
    if (!std::isfinite(residual)) {
      write_cycle_lines();
      require_finite_residual(residual, c);
    }
    res.residuals.push_back(residual);
  }
  // After the last cycle's monitor: in the error norm's superstep (grid 0), as the lines are.
  const double check_after = speed_check_ns(mgd.options.cell_kernel);
  write_cycle_lines();
  res.threads = mgd.cell_loop_team;
  const double err2 = sums.sum(cell_l2_error_squared(F, F.x.data(), u, mgd.options.cell_kernel), "error norm");
  res.l2_error = std::sqrt(err2);
  if (o.keep_solution)
    for (std::size_t s = 0; s < F.n_local; ++s) res.solution.emplace_back(F.node_global[s], F.x[s]);
  unregister_all(mgd.levels);
  sums.release();
  bsp_profile_label("teardown");
  bsp_sync();  // the pops take effect here, before the buffers are freed
  res.speed_check = instrument::gather_speed_check(check_before, check_after, MPI_COMM_WORLD);

  // The factors of the cycles before the residual reaches round-off (1e-11 of the first):
  // the last one (the rate the cycle settles to: the early cycles remove the rough error
  // faster) and their geometric mean.
  int counted = 0;
  double log_sum = 0;
  for (std::size_t k = 1; k < res.residuals.size(); ++k) {
    if (!(res.residuals[k - 1] > 1e-11 * res.residuals[0])) break;
    const double f = res.residuals[k] / res.residuals[k - 1];
    log_sum += std::log(f);
    res.convergence_factor = f;
    ++counted;
  }
  res.mean_factor = counted ? std::exp(log_sum / counted) : 0;
  res.free_nodes = counted > 0;

  for (std::size_t l = n; l-- > 0;) {
    const LocalLevel& L = mgd.levels[l];
    const LevelClock& clk = mgd.clock[l];
    GridReport g;
    g.grid = static_cast<int>(n - l);
    g.cells = static_cast<std::int64_t>(L.global_cells);
    g.nodes = static_cast<std::int64_t>(L.global_nodes);
    const std::vector<std::int64_t>& sizes = part_cells[l];
    g.imbalance = static_cast<double>(*std::max_element(sizes.begin(), sizes.end())) * p / static_cast<double>(g.cells);
    g.process_cells = sizes;
    g.h_bytes = max_over(static_cast<double>(std::max(L.assemble.bytes_out(), L.assemble.bytes_in())));
    g.working_set_bytes = max_over(working_set_bytes(L));
    g.loose_cells = sum_over(static_cast<double>(L.loose_cells.size()));
    g.applications = static_cast<double>(clk.operator_applications) / o.cycles;
    std::int64_t steps = 0;
    for (int ph = 0; ph < kPhases; ++ph) {
      steps += clk.supersteps[static_cast<std::size_t>(ph)];
      g.seconds[static_cast<std::size_t>(ph)] = max_over(clk.seconds[static_cast<std::size_t>(ph)]) / o.cycles;
    }
    g.supersteps = static_cast<double>(steps) / o.cycles;
    g.lambda_max = mgd.lambda_max[l];
    res.grids.push_back(g);
    res.own_clock.push_back(clk);
  }
  return res;
}

}  // namespace

RunResult solve_in_section(const ProblemInput& in, const RunOptions& o, std::ostream* out) {
  return solve(in, nullptr, o, out);
}

RunResult solve_in_section(ProblemInput&& in, const RunOptions& o, std::ostream* out) { return solve(in, &in, o, out); }

}  // namespace mg
