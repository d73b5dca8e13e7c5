// instrument-demo: the hooks and the end-of-run report on a toy problem.
//
// Each rank owns a 1-D strip of `--cells` values on a ring. A step smooths the strip
// (compute: a 3-point average, `--passes` times over every cell) and exchanges a halo of
// `--bytes` bytes with both ring neighbours (non-blocking, through the Comm wrappers).
//
// The model, and where its inputs come from (printed in the table's last column):
//   T_compute = steps x cells x passes / rate, rate = cell updates per second of the slowest
//               rank's median step in a separate warm-up of `--warmup` steps before the
//               timed run (same run, same machine, but not the steps it predicts);
//   T_halo_transfer = steps x Total_Comm(bytes), LogGP eq. (1)/(2) of Sundaram-Stukel &
//               Vernon with the machine file's loggp.* parameters (only with --machine FILE;
//               the two neighbours' messages overlap, so one message time per step), against
//               the measured halo time less the sender/receiver synchronisation waits that
//               the Comm wrappers split off (LogGPS §2);
//   T_step    = T_compute + T_halo_transfer.
// Measured values are the slowest rank's (max over ranks): a step ends when its last rank does.
//
//   mpiexec -n 2 instrument-demo [--cells N] [--steps N] [--warmup N] [--passes N]
//                                [--bytes N] [--machine FILE] [--out demo.h5] [--trace FILE]
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "instrument/comm.hpp"
#include "instrument/comparison.hpp"
#include "instrument/error.hpp"
#include "instrument/option_table.hpp"
#include "instrument/loggp.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/memory_budget.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/phase_table.hpp"
#include "instrument/rank_reduce.hpp"
#include "instrument/recorder.hpp"
#include "instrument/results_file.hpp"
#include "instrument/run_app.hpp"
#include "instrument/run_results.hpp"
#include "instrument/trace_export.hpp"

using namespace instrument;

namespace {

struct DemoOptions {
  std::int64_t cells = 200000, steps = 20, warmup = 5, passes = 4, bytes = 4096;
  std::string machine, out = "demo.h5", trace;
  std::map<std::string, std::string> given;  // every option as typed, for /input
};

// The command line, bound to `o` (every rank reads the same argv: run_app's verdict is
// collective). Ranges: --cells per rank up to 2^31 (two strips of doubles: 32 GiB, checked
// against memory too); --steps, --warmup up to 10^6 and --passes up to 10^4 (time, not
// memory); --bytes, the halo message, up to 1 GiB and at most 8 x --cells (the strip's own
// cells are sent).
void declare_options(OptionTable& t, DemoOptions& o) {
  t.notes("The instrument hooks and the end-of-run report on a toy ring of 1-D strips.")
      .whole("--cells", "N", o.cells, 1, std::int64_t{1} << 31, "", "cells of a rank's strip")
      .whole("--steps", "N", o.steps, 1, 1000000, "", "timed steps")
      .whole("--warmup", "N", o.warmup, 1, 1000000, "", "warm-up steps that measure the compute rate")
      .whole("--passes", "N", o.passes, 1, 10000, "", "smoothing passes a step")
      .whole("--bytes", "N", o.bytes, 1, std::int64_t{1} << 30, "", "halo bytes to each neighbour, at most 8 x --cells")
      .shown_default("4096, or 8 x --cells if fewer")
      .input_file("--machine", "FILE", o.machine, "machine file from loggps-probe: the LogGP halo model")
      .output_file("--out", "FILE", o.out, "results file")
      .output_file("--trace", "FILE", o.trace, "Chrome trace of the run")
      .after_reading([&t, &o] {
        for (const auto& [name, text] : t.given_texts()) o.given[name.substr(2)] = text;
        // A halo is sent from the strip's own first and last cells: a wider one would send from
        // the other end's ghost cells while they are being received into (overlapping MPI
        // buffers: MPICH aborts on it at 1 rank, `--cells 1000 --bytes 2^30`). The default is
        // narrowed to fit (--cells 100: 800 bytes); a --bytes given is refused.
        if (!o.given.count("bytes")) o.bytes = std::min(o.bytes, 8 * o.cells);
        if (o.bytes > 8 * o.cells)
          throw InputError("command line", "--bytes",
                           "expected at most 8 x --cells = " + std::to_string(8 * o.cells) +
                               " bytes (a halo is sent from the strip's own cells), got " + std::to_string(o.bytes));
        for (const auto& [k, v] : std::map<std::string, std::int64_t>{{"cells", o.cells},
                                                                      {"steps", o.steps},
                                                                      {"warmup", o.warmup},
                                                                      {"passes", o.passes},
                                                                      {"bytes", o.bytes}})
          o.given.emplace(k, std::to_string(v));  // defaults too: a run must say what it ran
      });
}

// One rank's strip with `halo` ghost values at each end; `next` holds the interior only (its
// halos would never be read or written: 2 x --bytes a rank less).
struct Strip {
  std::vector<double> u, next;
  std::size_t halo;
  Strip(std::int64_t cells, std::int64_t halo_values, int rank)
      : u(static_cast<std::size_t>(cells + 2 * halo_values)),
        next(static_cast<std::size_t>(cells)),
        halo(static_cast<std::size_t>(halo_values)) {
    for (std::size_t i = 0; i < u.size(); ++i)
      u[i] = static_cast<double>((i * 7 + static_cast<std::size_t>(rank)) % 13);
  }
  std::size_t first() const { return halo; }
  std::size_t last() const { return u.size() - halo; }  // one past the interior
};

void smooth(Strip& s, std::int64_t passes) {
  for (std::int64_t p = 0; p < passes; ++p) {
    for (std::size_t i = s.first(); i < s.last(); ++i)
      s.next[i - s.halo] = (s.u[i - 1] + s.u[i] + s.u[i + 1]) / 3.0;
    for (std::size_t i = s.first(); i < s.last(); ++i) s.u[i] = s.next[i - s.halo];
  }
}

void exchange_halo(Strip& s, Comm& comm) {
  const int p = comm.size(), me = comm.rank();
  const int left = (me + p - 1) % p, right = (me + 1) % p;
  const int n = static_cast<int>(s.halo);
  Comm::Request req[4];
  req[0] = comm.irecv(s.u.data(), n, MPI_DOUBLE, left, 1);
  req[1] = comm.irecv(s.u.data() + s.last(), n, MPI_DOUBLE, right, 0);
  req[2] = comm.isend(s.u.data() + s.first(), n, MPI_DOUBLE, left, 0);
  req[3] = comm.isend(s.u.data() + s.last() - s.halo, n, MPI_DOUBLE, right, 1);
  comm.wait_all(req, 4);
}

// max over ranks of (halo - send_sync_wait - recv_sync_wait): the measured message time.
double halo_less_waits(const RunResults& run) {
  const GatheredPhase* halo = run.find_phase("halo");
  const GatheredPhase* sw = run.find_phase("send_sync_wait");
  const GatheredPhase* rw = run.find_phase("recv_sync_wait");
  if (!halo || !sw || !rw) return 0.0;
  double m = 0.0;
  for (std::size_t r = 0; r < halo->inclusive.size(); ++r)
    m = std::max(m, halo->inclusive[r] - sw->inclusive[r] - rw->inclusive[r]);
  return m;
}

int run(const DemoOptions& opt) {
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);

  // A missing or malformed machine file is the same verdict on every rank (all read it).
  MachineFile machine;
  loggp::LogGpParams loggp_params;
  if (!opt.machine.empty()) {
    std::string error;
    try {
      machine = MachineFile::read(opt.machine);
      loggp_params = loggp::read_params(machine);
    } catch (const std::exception& e) {
      error = e.what();
    }
    throw_if_any_rank_failed(MPI_COMM_WORLD, error);
  }

  const std::int64_t halo_values = std::max<std::int64_t>(1, opt.bytes / 8);
  const std::size_t events_per_step = 12;  // step, compute, halo, 4 posts, 4 waits, spare
  const int on_node = instrument::processes_on_node(MPI_COMM_WORLD);  // collective: before any rank can fail
  {  // Everything the run allocates for --cells and --bytes, before allocating, on every rank:
     // the strip u (cells and two halos), next (cells), and the trace; times the ranks of
     // this node, which share its memory (2 ranks at --bytes 2^30 once took 8 GiB). The
     // halo messages are sent from and received into u: MPI gets no buffer of ours. A
     // verdict every rank learns.
    std::string error;
    try {
      const auto u = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
      const std::uint64_t strip =
          saturating_product({2 * u(opt.cells) + 2 * u(halo_values), sizeof(double)});
      const std::uint64_t trace = saturating_product({u(opt.steps), events_per_step, sizeof(RecordedEvent)});
      require_node_memory(strip + (opt.trace.empty() ? 0 : trace), on_node, "command line",
                          "--cells " + std::to_string(opt.cells) + " --bytes " + std::to_string(opt.bytes),
                          "a strip of " + std::to_string(opt.cells) + " cells with halos of " +
                              std::to_string(halo_values) + " values" +
                              (opt.trace.empty() ? "" : ", and its trace,"));
    } catch (const InputError& e) {
      error = e.what();
    }
    throw_if_any_rank_failed(MPI_COMM_WORLD, error);
  }
  Recorder rec(opt.trace.empty() ? 0 : static_cast<std::size_t>(opt.steps) * events_per_step);
  Comm comm(MPI_COMM_WORLD, rec);
  const PhaseId ph_step = rec.define_phase("step"), ph_compute = rec.define_phase("compute"),
                ph_halo = rec.define_phase("halo");
  const CounterId cnt_cells = rec.define_counter("cell_updates");
  Strip strip(opt.cells, halo_values, me);

  // Warm-up: calibrates the compute rate on steps that are not part of the measurement.
  std::vector<double> warm_steps;
  {
    smooth(strip, opt.passes);  // first touch of the arrays (page faults) is not the rate
    comm.barrier();
    for (std::int64_t s = 0; s < opt.warmup; ++s) {
      const double t0 = now_seconds();
      smooth(strip, opt.passes);
      warm_steps.push_back(now_seconds() - t0);
    }
  }
  // The median step resists a step disturbed by another process on a shared core.
  const double slowest_step = max_over_ranks(rank_stats(warm_steps).median, MPI_COMM_WORLD);
  const double rate = static_cast<double>(opt.cells * opt.passes) / slowest_step;
  comm.barrier();
  rec.reset();  // the barrier above is set-up, not the run

  for (std::int64_t s = 0; s < opt.steps; ++s) {
    ScopedPhase step(rec, ph_step);
    {
      ScopedPhase c(rec, ph_compute);
      smooth(strip, opt.passes);
      c.set_work(opt.cells * opt.passes);
      rec.count(cnt_cells, opt.cells * opt.passes);
    }
    ScopedPhase h(rec, ph_halo);
    exchange_halo(strip, comm);
  }
  comm.publish_split();

  RunInfo info = make_run_info("instrument-demo", MPI_COMM_WORLD);
  info.inputs = opt.given;
  ResultsDocument doc;
  doc.run = gather_results(rec, info, MPI_COMM_WORLD);
  doc.write_trace = !opt.trace.empty();
  if (!opt.machine.empty()) doc.machine = machine_record(machine);

  if (me == 0) {
    const auto measured_max = [&](const char* phase) {
      const GatheredPhase* p = doc.run.find_phase(phase);
      return p ? rank_stats(p->inclusive).max : 0.0;
    };
    const double steps = static_cast<double>(opt.steps);
    const double t_compute = steps * static_cast<double>(opt.cells * opt.passes) / rate;
    const std::string rate_source = "rate " + std::to_string(static_cast<long long>(rate)) +
                                    " cell updates/s: slowest rank's median step of a " +
                                    std::to_string(opt.warmup) +
                                    "-step warm-up before the timed steps";
    Comparison& cmp = doc.comparison;
    cmp.add({.model = "toy",
             .term = "T_compute",
             .measured = measured_max("compute"),
             .modelled = t_compute,
             .source = rate_source,
             // With a machine file T_compute is one part of T_step; alone it is the model.
             .kind = opt.machine.empty() ? RowKind::total : RowKind::part});
    cmp.add_model_term({"toy", "T_compute", t_compute, "steps x cells x passes / rate"});
    if (!opt.machine.empty()) {
      const double t_halo = steps * loggp::total_comm(loggp_params, halo_values * 8);
      const std::string src = "machine: " + opt.machine + " (loggp.*), " +
                              std::to_string(halo_values * 8) + "-byte messages";
      // The halo phase also holds the wait for a neighbour still computing; the model is of
      // the messages alone, so it is compared with the halo time less the sync waits.
      cmp.add({.model = "toy",
               .term = "T_halo_transfer",
               .measured = halo_less_waits(doc.run),
               .modelled = t_halo,
               .source = src + "; measured: halo less the sync waits",
               .kind = RowKind::part});
      cmp.add({.model = "toy",
               .term = "T_step",
               .measured = measured_max("step"),
               .modelled = t_compute + t_halo,
               .source = "T_compute + T_halo_transfer"});
      cmp.add_model_term({"toy", "T_halo_transfer", t_halo,
                          "steps x Total_Comm(bytes), Sundaram-Stukel & Vernon eq. 1-2"});
      cmp.add_model_term({"toy", "T_step", t_compute + t_halo, "T_compute + T_halo_transfer"});
    }
    mark_if_busy(cmp, doc.run.machine_load);
    doc.extras.set_attribute("/demo", "calibrated_rate", rate);
    doc.extras.set_attribute("/demo", "calibrated_rate_units",
                             std::string("cell updates per second"));
    doc.extras.set_attribute("/demo", "warmup_median_step_seconds_slowest_rank", slowest_step);

    std::cout << "instrument-demo: " << doc.run.info.nranks << " ranks, " << opt.cells
              << " cells per rank, " << opt.steps << " steps, " << halo_values * 8
              << "-byte halo messages\n\n";
    print_phase_table(std::cout, doc.run);
    std::cout << '\n';
    print_counter_table(std::cout, doc.run);
    std::cout << '\n';
    doc.comparison.print(std::cout);
    if (opt.machine.empty())
      std::cout << "(no --machine FILE: T_halo_transfer and T_step are not modelled; run "
                   "loggps-probe first)\n";
  }
  write_results_on_root(opt.out, doc, MPI_COMM_WORLD);
  if (!opt.trace.empty()) {
    std::string error;
    if (me == 0) {
      try {
        write_chrome_trace_file(opt.trace, doc.run.trace);
      } catch (const std::exception& e) {
        error = e.what();
      }
    }
    throw_if_any_rank_failed(MPI_COMM_WORLD, error);
  }
  if (me == 0) {
    std::cout << "\nwrote " << opt.out;
    if (!opt.trace.empty())
      std::cout << " and " << opt.trace << " (Chrome trace JSON: open in ui.perfetto.dev)";
    std::cout << '\n';
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  DemoOptions o;
  OptionTable table("instrument-demo", "mpiexec -n P instrument-demo [options]");
  declare_options(table, o);
  return run_app(argc, argv, table, [&] { return run(o); });
}
