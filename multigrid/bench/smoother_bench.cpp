// multigrid_smoother_bench: the speed of the smoother's sweep alone (mg::apply_cells and the
// damped Jacobi update) on the finest grid held whole by one process, without bsplib or a
// shared-node exchange, beside the memory bandwidth it would need: how close C1 of eq. 5
// comes to the memory bound. Under mpirun -np P each process sweeps a copy of its own, all
// at once (a barrier before each sweep), so that P processes' traffic is measured against
// the memory bandwidth of P cores (stream_triad --threads P). With --threads T one process's
// T OpenMP threads share its sweep (cell_loop_split.hpp), the same bits as one thread: a
// 1-process 2-thread run is compared with 2 processes of 1 thread against the same
// two-thread triad.
//
// A sweep is what one smoothing iteration does on one process besides the exchange: y += A x
// over the cells, then x += omega D^-1 (b - y) at the free nodes and y back to 0 in one
// pass over the nodes.
// D^-1 and b are 1 here (the values do not change the work); x starts smooth.
//
// Minimal memory traffic of a sweep, in bytes: 40 per family + 16 per cell in none + 73 per
// node. Per family of 8 cells its 10 node slots (10 x uint32); per other cell its four
// corner slots (4 x uint32). Per node, once: its coordinates (24; the program reads 32, the
// record's padding is left out of the bound), x read by the gathers (8), y
// read by the update and written back as 0 (16: the cell loop's read-modify-write of y
// stays in cache), x written by the update (8), D^-1 and b read (16), the Dirichlet flag (1).
// The gathers touch each node's data from every cell around it (about 23 cells a node on
// these grids), but the cells are in Morton order and the nodes numbered by first touch
// (local_level.hpp), so a node's neighbourhood is in cache while its cells are swept and its
// data comes from memory once. This is a lower bound on the memory traffic, so bytes / time
// is the effective bandwidth, and its ratio to STREAM's (--stream-gbs, from stream_triad) is
// how close the sweep runs to the memory bound. It is only that while the arrays do not fit
// in the last-level cache: --cube 16 --grids 3 is 1.57M cells, ~28 MB by this count (45 MB
// cell by cell).
//
// The variants run alternately, sweep by sweep, so their ratios come from one run; each
// starts from the same x: the cell loop's builds that run here (p1_operator.hpp: portable,
// avx2, avx512) on families, as the program runs them, and the fastest build cell by cell
// (no families). With --without-parts, also the AVX-512 loop with each of its parts left out
// in turn (cell_loop_parts.hpp), against the same loop whole: where its time goes. With
// --slot-by-slot, also each build on families with its sums added to y slot by slot, as
// before the batch tables (batch_node_sums.hpp): the tables' gain, alternated sweep by sweep
// (only the AVX-512 build uses them; the others' ratio is 1 but for the noise). With
// --family-of-families, also the AVX-512 loop on families of families (family_of_families.hpp:
// 64 cells of one grandparent a batch, its scatter scheduled at compile time; a measurement of
// that layout's ceiling, not a build: other bits), checked against the program's sums.
//
// Usage: [mpirun -np P] multigrid_smoother_bench [--cube N] [--grids G] [--reps R] [--stream-gbs B]
//                                 [--kernel all|portable|avx2|avx512] [--threads T] [--without-parts]
//                                 [--slot-by-slot] [--family-of-families]
// Defaults: 16, 3, 20; no bandwidth bound without --stream-gbs; all builds; 1 thread.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <numbers>
#include <string>
#include <vector>

#include <mpi.h>

#include "instrument/clock.hpp"
#include "instrument/error.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/option_table.hpp"
#include "instrument/run_app.hpp"
#include "instrument/statistics.hpp"
#include "mesh/mesh_examples.hpp"
#include "multigrid/cell_loop_split.hpp"
#include "multigrid/grid_partition.hpp"
#include "multigrid/hierarchy.hpp"
#include "multigrid/local_level.hpp"
#include "multigrid/node_update.hpp"
#include "multigrid/p1_operator.hpp"
#include "mesh/partition.hpp"
#include "family_of_families.hpp"
#ifdef MULTIGRID_HAVE_AVX512
#include "cell_loop_parts.hpp"
#endif

namespace {

constexpr double kOmega = 0.8;
constexpr double kBytesPerCell = 16, kBytesPerFamily = 40, kBytesPerNode = 73;

struct Options {
  int cube = 16, grids = 3, reps = 20, threads = 1;
  double stream_gbs = 0;  // 0: not given
  std::string kernel = "all";
  bool without_parts = false;
  bool slot_by_slot = false;
  bool family_of_families = false;
};

// The command line, bound to `o`.
void declare_options(instrument::OptionTable& t, Options& o) {
  t.notes("The smoother's sweep alone on one process (or P at once), beside the memory bandwidth.")
      .whole("--cube", "N", o.cube, 1, 200, "(cubes per side)", "the Kuhn cube's cubes per side")
      .whole("--grids", "G", o.grids, 1, 8, "(grids)", "grids; the finest is swept")
      .whole("--reps", "R", o.reps, 1, 100000, "", "sweeps per variant, alternated")
      .real("--stream-gbs", "B", o.stream_gbs, 1e-3, 1e6, "GB/s", "the memory bandwidth (stream_triad's) to compare with")
      .shown_default("none: no bandwidth bound")
      .choice("--kernel", "all|portable|avx2|avx512", o.kernel,
              {{"all", std::string("all")}, {"portable", std::string("portable")}, {"avx2", std::string("avx2")},
               {"avx512", std::string("avx512")}},
              "the cell loop's builds to time (all: each that runs here, and the fastest cell by cell)")
      .whole("--threads", "T", o.threads, 1, 256, "(OpenMP threads per process)",
             "OpenMP threads of each process sharing its sweep (OMP_NUM_THREADS is not read)")
      .flag("--without-parts", o.without_parts,
            "also time the AVX-512 loop with each part left out in turn (prefetch, loads of u, product, scatter), "
            "against the same loop whole: where its time goes (1 thread; the sums are wrong by design)")
      .flag("--slot-by-slot", o.slot_by_slot,
            "also time each build with its sums added slot by slot, without the batch tables (the same bits)")
      .flag("--family-of-families", o.family_of_families,
            "also time the AVX-512 loop on families of families (a batch the 64 cells of one grandparent, the "
            "scatter scheduled at compile time): the layout's ceiling, not a build (its sums in another order)");
}

// The finest grid as one process holds it, built the way the multigrid program builds it
// (so the cell and node order, which decides the traffic, is the program's).
mg::LocalLevel finest_level(const Options& o, std::vector<mg::Grid>& grids) {
  grids = mg::build_hierarchy(mesh::kuhn_cube_mesh(o.cube, 1.0), o.grids, "bench");
  const std::size_t cells = grids.back().cell_count();
  const mesh::Partition one_part{1, std::vector<std::int32_t>(cells, 0)};
  std::vector<mg::LocalLevel> levels = mg::build_local_levels(grids, mg::inherit_parts(grids, one_part), 0, 1);
  return std::move(levels.back());
}

// One damped Jacobi iteration as the program's smoother does it (cycle.cpp): y += A x over
// the cells, then one pass over the nodes, x += omega D^-1 (b - y) at the free ones and y
// back to 0 for the next iteration, on the split's threads. Returns the cell loop's team.
int sweep(mg::LocalLevel& L, mg::CellLoopSplit& split, mg::CellKernel kernel, int threads) {
  const int team = mg::apply_cells(L, split, L.x.data(), L.y.data(), kernel);
  mg::jacobi_update(L, kOmega, threads);
  return team;
}

// A copy of the level (one process's, no ghosts) with its nodes numbered by first touch in
// the families of families' order, as the program would number them if it swept them
// (local_level.cpp numbers by first touch in its cell order): the batches' slots renumbered.
mg::LocalLevel renumbered_for(mg::bench::FofBatches& fof, const mg::LocalLevel& L) {
  const std::size_t n = L.slots();
  std::vector<std::uint32_t> to(n, mg::kNoSlot);
  std::uint32_t next = 0;
  for (mg::bench::FamilyOfFamilies& b : fof.batches)
    for (std::uint32_t& s : b.slot) {
      if (to[s] == mg::kNoSlot) to[s] = next++;
      s = to[s];
    }
  for (std::uint32_t& t : to)
    if (t == mg::kNoSlot) t = next++;
  mg::LocalLevel F = L;
  const auto permute = [&](auto& v, const auto& from) {
    for (std::size_t s = 0; s < n; ++s) v[to[s]] = from[s];
  };
  permute(F.xyz, L.xyz);
  permute(F.dirichlet, L.dirichlet);
  permute(F.owned, L.owned);
  permute(F.node_global, L.node_global);
  for (auto p : {&mg::LocalLevel::x, &mg::LocalLevel::b, &mg::LocalLevel::r, &mg::LocalLevel::y,
                 &mg::LocalLevel::diag_inv, &mg::LocalLevel::d})
    permute(F.*p, L.*p);
  return F;
}

// The variants timed and printed (on process 0); every process sweeps its own copy.
int run(const Options& o) {
  int me = 0, procs = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  mg::LocalLevel L;
  std::vector<mg::Grid> grids;
  try {
    L = finest_level(o, grids);
  } catch (const std::exception& e) {
    throw instrument::CollectiveError(e.what());  // the same hierarchy on every process
  }
  const std::size_t n = L.n_local;
  for (std::size_t s = 0; s < n; ++s) {
    const mg::NodePoint& p = L.xyz[s];
    L.x[s] = std::sin(std::numbers::pi * p.x) * std::sin(std::numbers::pi * p.y) * std::sin(std::numbers::pi * p.z);
  }
  std::fill(L.diag_inv.begin(), L.diag_inv.end(), 1.0);
  std::fill(L.b.begin(), L.b.end(), 1.0);

  // The variants: each build of the loop on families, as the program runs them, and the
  // fastest build cell by cell (the families dropped: the loop before families), for
  // comparison.
  struct Variant {
    std::string name;
    mg::CellKernel kernel;
    bool families;
    int left_out = -1;  // >= 0: the loop with a part left out (cell_loop_parts.hpp), not a build
    bool slot_by_slot = false;  // the split without its batch tables
    int fof = -1;               // >= 0: the families of families' loop, with a part left out (FofPart)
  };
  std::vector<Variant> variants;
  for (mg::CellKernel k : {mg::CellKernel::portable, mg::CellKernel::avx2, mg::CellKernel::avx512}) {
    const std::string name = mg::cell_kernel_name(k);
    if ((o.kernel == "all" || o.kernel == name) && mg::cell_kernel_runs_here(k))
      variants.push_back({name + ", families", k, true});
  }
  if (variants.empty())
    throw instrument::CollectiveError("command line:--kernel: " + o.kernel + " does not run here");
  const std::size_t builds = variants.size();
  if (o.slot_by_slot)
    for (std::size_t k = 0; k < builds; ++k)
      variants.push_back({variants[k].name + ", slot by slot", variants[k].kernel, true, -1, true});
  if (o.kernel == "all") {
    const mg::CellKernel fastest = mg::fastest_cell_kernel();
    variants.push_back({std::string(mg::cell_kernel_name(fastest)) + ", cell by cell", fastest, false});
  }
  if (o.without_parts) {
    if (o.threads != 1) throw instrument::CollectiveError("command line:--without-parts: takes --threads 1");
#ifdef MULTIGRID_HAVE_AVX512
    if (!mg::cell_kernel_runs_here(mg::CellKernel::avx512))
      throw instrument::CollectiveError("command line:--without-parts: the AVX-512 build does not run here");
    if (!L.loose_cells.empty())
      throw instrument::CollectiveError("--without-parts: the finest grid has cells in no family");
    for (mg::bench::LeftOut part : mg::bench::kLeftOut)
      variants.push_back({std::string("avx512 families, left out: ") + mg::bench::left_out_name(part),
                          mg::CellKernel::avx512, true, static_cast<int>(part)});
#else
    throw instrument::CollectiveError("command line:--without-parts: this build has no AVX-512 loop");
#endif
  }
  mg::bench::FofBatches fof;
  double fof_seconds = 0;
  if (o.family_of_families) {
#ifdef MULTIGRID_HAVE_AVX512
    if (o.threads != 1) throw instrument::CollectiveError("command line:--family-of-families: takes --threads 1");
    if (!mg::cell_kernel_runs_here(mg::CellKernel::avx512))
      throw instrument::CollectiveError("command line:--family-of-families: the AVX-512 build does not run here");
    const double start = instrument::now_seconds();
    fof = mg::bench::family_of_families_batches(grids, L);
    fof_seconds = instrument::now_seconds() - start;
    if (8 * 8 * fof.batches.size() != L.cell_count())
      throw instrument::CollectiveError("--family-of-families: " + std::to_string(fof.refused) +
                                        " grandparents not in the fixed labelling");
    variants.push_back({"avx512, families of families (bench loop)", mg::CellKernel::avx512, true, -1, false,
                        static_cast<int>(mg::bench::FofPart::nothing)});
    variants.push_back({"avx512, families of families, u by gathers", mg::CellKernel::avx512, true, -1, false,
                        static_cast<int>(mg::bench::FofPart::gather_values)});
    variants.push_back({"avx512, families of families, relabel if any", mg::CellKernel::avx512, true, -1, false,
                        static_cast<int>(mg::bench::FofPart::relabel_if_any)});
    if (o.without_parts) {
      variants.push_back({"avx512, families of families, left out: the product", mg::CellKernel::avx512, true, -1,
                          false, static_cast<int>(mg::bench::FofPart::product)});
      variants.push_back({"avx512, families of families, left out: the scatter", mg::CellKernel::avx512, true, -1,
                          false, static_cast<int>(mg::bench::FofPart::scatter)});
    }
#else
    throw instrument::CollectiveError("command line:--family-of-families: this build has no AVX-512 loop");
#endif
  }
  grids.clear();
  grids.shrink_to_fit();
  mg::LocalLevel by_fof;  // L numbered in the families of families' order (with its batches)
  if (o.family_of_families) by_fof = renumbered_for(fof, L);
  mg::LocalLevel cell_by_cell = L;
  mg::dissolve_families(cell_by_cell, 0);
  mg::batch_cells(cell_by_cell);
  const auto level_of = [&](const Variant& v) -> mg::LocalLevel& {
    return v.fof >= 0 ? by_fof : v.families ? L : cell_by_cell;
  };
  const double split_start = instrument::now_seconds();
  mg::CellLoopSplit split = mg::split_cell_loop(L, o.threads);
  const double split_seconds = instrument::now_seconds() - split_start;  // a set-up cost (issue 40 goal 2)
  mg::CellLoopSplit split_by_cell = mg::split_cell_loop(cell_by_cell, o.threads);
  mg::CellLoopSplit split_slot_by_slot = split;
  for (mg::CellLoopSplit::Range& r : split_slot_by_slot.ranges) {
    r.families.by_node.clear();
    r.loose.by_node.clear();
  }
  const auto split_of = [&](const Variant& v) -> mg::CellLoopSplit& {
    return v.slot_by_slot ? split_slot_by_slot : v.families ? split : split_by_cell;
  };
  int team = 1;  // the most threads a sweep's cell loop ran on
  // One sweep of variant v: the program's (sweep), or the loop with a part left out and the
  // same node update.
  const auto sweep_variant = [&](const Variant& v) {
    mg::LocalLevel& V = level_of(v);
#ifdef MULTIGRID_HAVE_AVX512
    if (v.fof >= 0) {
      mg::bench::apply_families_of_families(V.xyz.data(), fof.batches, V.x.data(), V.y.data(),
                                            static_cast<mg::bench::FofPart>(v.fof));
      mg::jacobi_update(V, kOmega, o.threads);
      return 1;
    }
#endif
    if (v.left_out < 0) return sweep(V, split_of(v), v.kernel, o.threads);
#ifdef MULTIGRID_HAVE_AVX512
    mg::bench::apply_families_without(static_cast<mg::bench::LeftOut>(v.left_out), V.xyz.data(), V.family_batches,
                                      split.ranges.front().families, V.x.data(), V.y.data());
    mg::jacobi_update(V, kOmega, o.threads);
#endif
    return 1;
  };
  const std::vector<double> x0 = L.x;
  const std::vector<double> x0_fof = by_fof.x;  // the same values, renumbered
  std::fill(L.y.begin(), L.y.end(), 0.0);  // the program's sweep leaves it 0 for the next
  double fof_difference = 0, fof_scale = 0;
  bool fof_portable_same = true;
  if (o.family_of_families) {
    // The families of families' sums against the program's (round-off apart: another order),
    // and their portable loop against the AVX-512 one (bit for bit).
    std::vector<double> reference(n, 0.0), fast(n, 0.0), portable(n, 0.0);
    mg::apply_cells(L, split, L.x.data(), reference.data(), mg::CellKernel::avx512);
#ifdef MULTIGRID_HAVE_AVX512
    mg::bench::apply_families_of_families(by_fof.xyz.data(), fof.batches, by_fof.x.data(), fast.data());
#endif
    mg::bench::apply_families_of_families_portable(by_fof.xyz.data(), fof.batches, by_fof.x.data(), portable.data());
    for (std::size_t s = 0; s < n; ++s) {  // s: by_fof's slot of the node at L's slot_of[node]
      const double ref = reference[L.slot_of[by_fof.node_global[s]]];
      fof_difference = std::max(fof_difference, std::fabs(fast[s] - ref));
      fof_scale = std::max(fof_scale, std::fabs(ref));
      fof_portable_same = fof_portable_same && std::memcmp(&fast[s], &portable[s], sizeof(double)) == 0;
    }
  }
  std::fill(cell_by_cell.y.begin(), cell_by_cell.y.end(), 0.0);
  std::vector<std::vector<double>> seconds(variants.size());
  std::vector<double> checksum(variants.size(), 0.0);
  for (std::size_t k = 0; k < variants.size(); ++k) {
    mg::LocalLevel& V = level_of(variants[k]);
    V.x = variants[k].fof >= 0 ? x0_fof : x0;
    team = std::max(team, sweep_variant(variants[k]));  // warm-up, and the checksum of one sweep from x0
    for (std::size_t s = 0; s < n; ++s) checksum[k] += V.x[s];
  }
  for (int r = 0; r < o.reps; ++r)
    for (std::size_t k = 0; k < variants.size(); ++k) {
      mg::LocalLevel& V = level_of(variants[k]);
      V.x = variants[k].fof >= 0 ? x0_fof : x0;
      MPI_Barrier(MPI_COMM_WORLD);  // the processes sweep together: their traffic shares the memory
      const double t0 = instrument::now_seconds();
      sweep_variant(variants[k]);
      double t = instrument::now_seconds() - t0;
      MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);  // the slowest's
      seconds[k].push_back(t);
    }

  if (me != 0) return 0;
  const double cells = static_cast<double>(L.cell_count()), nodes = static_cast<double>(n);
  const double families = static_cast<double>(L.family_count());
  if (procs == 1)
    std::printf("multigrid_smoother_bench: Kuhn cube %d^3, finest of %d grids, one process of %d thread%s, %d sweeps "
                "per variant, alternated\n", o.cube, o.grids, o.threads, o.threads > 1 ? "s" : "", o.reps);
  else
    std::printf("multigrid_smoother_bench: Kuhn cube %d^3, finest of %d grids, %d processes of %d thread%s each "
                "sweeping its own copy at once, %d sweeps per variant, alternated; the time of a sweep is the slowest "
                "process's, the traffic and tetrahedra all processes'\n", o.cube, o.grids, procs, o.threads,
                o.threads > 1 ? "s" : "", o.reps);
  const auto label = [](const std::string& text) { std::printf(" %-36s ", text.c_str()); };
  label(procs == 1 ? "cells" : "cells (each process)");
  std::printf("%.0f\n", cells);
  label(procs == 1 ? "nodes" : "nodes (each process)");
  std::printf("%.0f\n", nodes);
  label("cells in families of 8");
  std::printf("%.0f\n", 8 * families);
  label(procs == 1 ? "OpenMP threads in the cell loop" : "OpenMP threads in each cell loop");
  std::printf("%d asked, %d ran; %zu range%s, %zu sums a sweep kept aside\n", o.threads, team, split.threads(),
              split.threads() > 1 ? "s" : "", split.kept_sums());
  label("the split and batch tables (set-up)");
  std::printf("%.4f s\n", split_seconds);
  if (o.family_of_families) {
    label("families of families (set-up)");
    std::size_t relabelled = 0, lanes = 0;
    for (const mg::bench::FamilyOfFamilies& b : fof.batches) {
      relabelled += (b.swap12 | b.swap13) != 0;
      lanes += static_cast<std::size_t>(__builtin_popcount(b.swap12 | b.swap13));
    }
    std::printf("%zu batches of 64 cells, %.4f s; %zu with relabelled lanes (%zu lanes)\n", fof.batches.size(),
                fof_seconds, relabelled, lanes);
    label("  largest |difference| from the program's");
    std::printf("%.3e (largest |y| %.3e)\n", fof_difference, fof_scale);
    label("  portable loop the same bits");
    std::printf("%s\n", fof_portable_same ? "yes" : "NO");
  }
  std::vector<double> medians;
  double whole = 0;  // the median of the loop with nothing left out, where --without-parts
  for (std::size_t k = 0; k < variants.size(); ++k)
    if (variants[k].left_out == 0) whole = instrument::median(seconds[k]);
  for (std::size_t k = 0; k < variants.size(); ++k) {
    if (variants[k].left_out >= 0) {
      // Not a build: its time against the same loop whole, and nothing else (its sums are wrong).
      const double median = instrument::median(seconds[k]);
      medians.push_back(median);
      std::printf(" %s\n", variants[k].name.c_str());
      label("  seconds per sweep");
      std::printf("median %.6g  best %.6g\n", median, *std::min_element(seconds[k].begin(), seconds[k].end()));
      label("  ns per cell (median)");
      std::printf("%.3f\n", 1e9 * median / cells);
      label("  time against the loop whole");
      std::printf("%.3f\n", median / whole);
      continue;
    }
    // Minimal traffic: the corner slots read (40 B a family, 16 B a loose cell) and the nodes.
    const double in_families = variants[k].families ? families : 0;  // the families' bound for the fof loop too
    const double bytes = procs * (kBytesPerFamily * in_families + kBytesPerCell * (cells - 8 * in_families) +
                                  kBytesPerNode * nodes);
    const double median = instrument::median(seconds[k]);
    const double best = *std::min_element(seconds[k].begin(), seconds[k].end());
    medians.push_back(median);
    std::printf(" %s\n", variants[k].name.c_str());
    label("  seconds per sweep");
    std::printf("median %.6g  best %.6g\n", median, best);
    label("  tetrahedra per second (median)");
    std::printf("%.4g\n", procs * cells / median);
    label(procs == 1 ? "  ns per cell (median)" : "  ns per cell of a process (median)");
    std::printf("%.3f\n", 1e9 * median / cells);
    // Counted flops: 292 a family (its geometry from the parent's), 85 a cell alone.
    const double flops = mg::kFlopsPerFamily * in_families + mg::kFlopsPerCell * (cells - 8 * in_families);
    label("  GFlop/s (median, counted flops)");
    std::printf("%.3f (%.1f flops a cell)\n", procs * flops / median * 1e-9, flops / cells);
    label("  minimal traffic per sweep");
    std::printf("%.2f MB\n", bytes * 1e-6);
    label("  effective GB/s (median)");
    std::printf("%.3f\n", bytes / median * 1e-9);
    if (o.stream_gbs > 0) {
      char gbs[32];
      std::snprintf(gbs, sizeof gbs, "%g", o.stream_gbs);
      label(std::string("  fraction of the bound at ") + gbs + " GB/s");
      std::printf("%.3f\n", bytes / (o.stream_gbs * 1e9) / median);
    }
    label("  checksum of x after one sweep");
    std::printf("%.15e\n", checksum[k]);
  }
  if (builds > 1) {
    // The fastest build on families against each other variant.
    const std::size_t best = builds - 1;
    label("speed-up of " + std::string(mg::cell_kernel_name(variants[best].kernel)) + " (ratio of medians)");
    for (std::size_t k = 0; k < variants.size(); ++k)
      if (k != best && variants[k].left_out < 0)
        std::printf("%s%.2f over %s", k == 0 ? "" : ", ", medians[k] / medians[best], variants[k].name.c_str());
    std::printf("\n");
  }
  if (o.slot_by_slot)
    for (std::size_t k = 0; k < builds; ++k) {  // variant builds + k: build k slot by slot
      label(std::string("node by node against slot by slot, ") + mg::cell_kernel_name(variants[k].kernel));
      std::printf("%.3f (ratio of medians)\n", medians[k] / medians[builds + k]);
    }
  if (o.family_of_families)
    for (std::size_t k = 0; k < variants.size(); ++k)
      if (variants[k].fof >= 0)
        for (std::size_t m = 0; m < builds; ++m)
          if (variants[m].kernel == mg::CellKernel::avx512) {
            label(variants[k].fof == 0 ? std::string("families of families against avx512 families")
                                       : "  " + variants[k].name.substr(variants[k].name.rfind(", ") + 2) + ", the same");
            std::printf("%.3f (ratio of medians)\n", medians[k] / medians[m]);
          }
  if (builds > 1 || o.slot_by_slot) {
    label("the builds' checksums equal");
    bool equal = true;
    for (std::size_t k = 1; k < variants.size(); ++k)
      if (k < builds || variants[k].slot_by_slot) equal = equal && checksum[k] == checksum[0];
    std::printf("%s\n", equal ? "yes (bit for bit)" : "NO");
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  instrument::OptionTable table("multigrid_smoother_bench", "[mpirun -np P] multigrid_smoother_bench [options]");
  declare_options(table, o);
  return instrument::run_app(argc, argv, table, [&] { return run(o); });
}
