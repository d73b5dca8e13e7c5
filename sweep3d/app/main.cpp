// sweep3d: the Sweep3D 2.2b benchmark. Usage: see --help and README.md.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include <vector>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/machine_cache.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/option_file.hpp"
#include "instrument/option_table.hpp"
#include "instrument/phase_table.hpp"
#include "instrument/recorder.hpp"
#include "instrument/core_round_trip.hpp"
#include "instrument/run_app.hpp"
#include "sweep3d/deck.hpp"
#include "sweep3d/deck_ranges.hpp"
#include "sweep3d/driver.hpp"
#include "sweep3d/model_report.hpp"
#include "sweep3d/results_output.hpp"
#include "sweep3d/run_resources.hpp"
#include "sweep3d/work_figures.hpp"

namespace {

constexpr long long kMaxTraceEvents = 1LL << 40;

// The options' ranges (sweep3d/deck_ranges.hpp): the kernel's thread limit, the extents a
// deck may have, the iterations a converged deck may take; --trace is bounded by memory,
// which require_run_resources checks on every rank.
const std::string kExtentRange = "[1, 16777216]";

[[noreturn]] void usage_error(const std::string& msg) {
  throw instrument::CollectiveError(msg + " (see sweep3d --help)");
}

struct Options {
  sweep3d::RunOptions run;
  std::string deck_path = "input", results = "sweep3d.h5", isa;
  long long trace = -1;  // -1: as the models need it
  bool auto_mk = false, auto_mmi = false;
  bool no_machine = false;  // --no-machine: no models, so no probe either
  sweep3d::ModelInputs models;
  sweep3d::GridOverride grid;
};

// The command line, bound to `o` (every rank reads the same argv: run_app's verdict is
// collective). --machine is read here only, into o.models.machine_file.
void declare_options(instrument::OptionTable& t, Options& o) {
  using instrument::InputError;
  t.positional_file("deck", o.deck_path, instrument::Arity::optional,
                    "the input deck: the original's 5-record list-directed form or key = value lines "
                    "(README.md)")
      .choice("--kernel", "K", o.run.kernel,
              {{"fast", sweep3d::KernelKind::fast}, {"ref", sweep3d::KernelKind::reference},
               {"reference", sweep3d::KernelKind::reference}},
              "fast, or ref (reference): the plain reference kernel")
      .text("--isa", "I",
            [&o](const std::string& n, const std::string& v) {
              if (v != "sse2" && v != "avx2" && v != "avx512")
                throw InputError("command line", n, "expected sse2, avx2 or avx512, got " + instrument::quote_token(v));
              if (std::strcmp(sweep3d::fast_kernel_isa(v.c_str()), v.c_str()) != 0)
                throw InputError("command line", n, "expected an instruction set this CPU and build have; there is no " +
                                                        v + " kernel");
              o.isa = v;
            },
            "fast kernel instruction set: sse2, avx2 or avx512")
      .shown_default("the widest this CPU has")
      .whole("--threads", "N", o.run.threads, 1, sweep3d::kMaxThreads, "(OpenMP threads per rank: the kernel's limit)",
             "OpenMP threads per rank inside the kernel")
      .flag("--nonblocking", o.run.nonblocking, "non-blocking sends in the sweep (default: blocking, as the original)")
      .text("--grid", "IxJ",
            [&o](const std::string& n, const std::string& g) {
              const std::size_t x = g.find('x');
              if (x == std::string::npos)
                throw InputError("command line", n, "expected IxJ (e.g. 2x2), got " + instrument::quote_token(g));
              const std::string range = "for I and J of IxJ";
              o.grid.npe_i = static_cast<int>(instrument::whole_option(n, g.substr(0, x), 1, sweep3d::kMaxExtent, range));
              o.grid.npe_j = static_cast<int>(instrument::whole_option(n, g.substr(x + 1), 1, sweep3d::kMaxExtent, range));
            },
            "process grid npe_i x npe_j instead of the deck's (e.g. 1x2); I, J in " + kExtentRange)
      .whole_or_word("--mk", "N", o.run.force_mk, "auto", o.auto_mk, 1, sweep3d::kMaxExtent, "(k-planes per block)",
                     "block with N k-planes instead of the deck's (on one rank too, unlike the original); auto: "
                     "the blocking with the least LogGP-predicted time (needs --calibration and a machine file)")
      .shown_default("the deck's")
      .whole_or_word("--mmi", "N", o.run.force_mmi, "auto", o.auto_mmi, 1, 6, "(angles per block, a factor of mm)",
                     "block with N angles instead of the deck's; auto as for --mk")
      .shown_default("the deck's")
      .input_file("--machine", "FILE", o.models.machine_file,
                  "machine file from loggps-probe: print the LogGP and pipeline models beside the measured times "
                  "and write them to the results file")
      .shown_default("this host's file in the per-user cache (~/.cache/hpc-perfmodel-suite), else a short probe "
                     "saved there (at 2 ranks or more)")
      .flag("--no-machine", o.no_machine, "no models: no machine file is read and no probe is run")
      .file_list("--calibration", "RUN[,RUN...]", o.models.calibration_files,
                 "earlier sweep3d results files whose W_g, W_before, W_after feed the models (default: this run's "
                 "own, a consistency check only); W_g depends on mmi, threads and kernel, so one must match this "
                 "run's (with --mmi auto: one per mmi to search)")
      .whole("--max-its", "N", o.run.max_iterations, 0, sweep3d::kMaxIterations, "(0: no limit)",
             "stop a converged deck (epsi > 0) after N iterations; the run then exits with status 2")
      .output_file("--results", "FILE", o.results, "results file")
      .clear_flag("--no-results", o.results, "write no results file")
      .whole("--trace", "N", o.trace, 0, kMaxTraceEvents, "(events per rank, as memory allows)",
             "keep up to N trace events per rank")
      .shown_default("0, or when the models run enough for the measured critical path of every iteration")
      .after_reading([&o] {
        if (o.no_machine && !o.models.machine_file.empty())
          throw InputError("command line", "--no-machine", "no --machine beside it");
        if (o.no_machine && !o.models.calibration_files.empty())
          throw InputError("command line", "--no-machine",
                           "no --calibration beside it (the calibration feeds the models it turns off)");
        if (o.no_machine && (o.auto_mk || o.auto_mmi))
          throw InputError("command line", "--no-machine", "no --mk/--mmi auto beside it (auto needs the models)");
        if ((o.auto_mk || o.auto_mmi) && o.models.calibration_files.empty())
          throw InputError("command line", o.auto_mk ? "--mk" : "--mmi",
                           "auto: the blocking is chosen by the LogGP model, which needs --calibration");
      });
}

// Trace events a rank keeps: --trace N as given; else, when the models run, enough for the
// critical path of every iteration (each block: the kernel and at most four messages, each
// up to two events when non-blocking), at most 2^20 events (about 50 MB): a longer run's
// breakdown is measured on its first iterations.
std::size_t trace_capacity(const Options& o, const sweep3d::Deck& deck, int rank, int nranks) {
  if (o.trace >= 0) return static_cast<std::size_t>(o.trace);
  if (o.models.machine_file.empty()) return 0;
  const sweep3d::KbaDecomposition d = sweep3d::run_decomposition(deck, rank, nranks, o.run);
  const long long its = deck.epsi < 0.0 ? deck.fixed_iterations() : (o.run.max_iterations > 0 ? o.run.max_iterations : 1000);
  // kb <= 2^24 and its <= 100000: no overflow in 64 bits.
  const long long per_iteration = 8LL * d.mmo * d.kb * 9 + 32;
  return static_cast<std::size_t>(std::min(its * per_iteration, 1LL << 20));
}

// Set-up, before anything is measured (its own small Recorder): the deck, read by rank 0 and
// broadcast; the models' inputs, read and checked on every rank; the blocking --mk/--mmi
// auto chose; and the calibration checked against it. Collective errors end every rank in a
// second, before the run.
struct SetUp {
  sweep3d::Deck deck;
  sweep3d::PreparedModels models;
};

SetUp set_up(Options& o) {
  instrument::Recorder setup_recorder;
  instrument::Comm comm(MPI_COMM_WORLD, setup_recorder);
  SetUp s{sweep3d::distribute_deck(o.deck_path, comm, o.grid), {}};
  // A results path that cannot be written (a symbolic link, a device) refused before the run.
  if (!o.results.empty()) instrument::check_output_file_on_root(o.results, "results file", MPI_COMM_WORLD);
  if (o.run.force_mmi > 0 && s.deck.mm % o.run.force_mmi != 0)
    usage_error("option --mmi: " + std::to_string(o.run.force_mmi) + " does not divide mm = " + std::to_string(s.deck.mm) +
                (s.deck.mm == 3 ? " (1 or 3)" : " (1, 2, 3 or 6)"));
  // No --machine: this host's machine file from the per-user cache, or a short probe's (the
  // models compare with what the hooks measure: none in a build without them). After the
  // checks above, so that a bad deck or option is refused without probing first.
  if (INSTRUMENT_ENABLED && o.models.machine_file.empty() && !o.no_machine)
    o.models.machine_file = instrument::machine_cache::machine_for_this_host(
        "sweep3d", instrument::machine_cache::loggps_probe("sweep3d", MPI_COMM_WORLD), MPI_COMM_WORLD, std::cout);
  if ((o.auto_mk || o.auto_mmi) && o.models.machine_file.empty())
    usage_error(std::string(o.auto_mk ? "option --mk" : "option --mmi") +
                " auto: the LogGP model needs a machine file, and there is none (the line above says why)");
  if (INSTRUMENT_ENABLED && !o.no_machine && !o.models.calibration_files.empty() && o.models.machine_file.empty() &&
      comm.size() > 1)
    usage_error("option --calibration: the models need a machine file as well, and there is none (the line above "
                "says why; or give --machine FILE)");
  s.models = sweep3d::prepare_models(o.models, comm);
  if (o.auto_mk || o.auto_mmi) sweep3d::choose_blocking(s.deck, s.models, o.auto_mk, o.auto_mmi, o.run, comm);
  sweep3d::require_calibration(s.deck, o.run, s.models, comm);
  // Last, with the blocking final: what the run allocates and sends, on every rank.
  sweep3d::require_run_resources(s.deck, o.run, trace_capacity(o, s.deck, comm.rank(), comm.size()), comm);
  return s;
}

int run(Options& o) {
  int rank = 0, nranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  if (!o.isa.empty()) o.run.isa = o.isa.c_str();
  const SetUp s = set_up(o);
  const sweep3d::Deck& deck = s.deck;
  const sweep3d::PreparedModels& models = s.models;

  // Sized for the blocking the run will use (set_up may have chosen it).
  instrument::Recorder recorder(trace_capacity(o, deck, rank, nranks));
  instrument::Comm comm(MPI_COMM_WORLD, recorder);
  o.run.out = &std::cout;
  const sweep3d::RunResult result = sweep3d::run_sweep3d(deck, comm, recorder, o.run);
  comm.publish_split();

  instrument::RunResults gathered = instrument::gather_results(recorder, sweep3d::run_info(result, comm), comm.mpi());
  sweep3d::WorkFigures figures;
  sweep3d::ModelReport report;
  if (rank == 0) {
    figures = sweep3d::work_figures(result, gathered);
    sweep3d::print_our_timing(std::cout, result, figures);
    std::cout << "\n";
    instrument::print_phase_table(std::cout, gathered);
    report = sweep3d::build_model_report(result, figures, gathered, models);
    if (report.enabled) {
      std::cout << "\n";
      sweep3d::print_model_report(std::cout, report);
    }
  }
  if (!o.results.empty()) {
    sweep3d::write_results_file(o.results, result, figures, std::move(gathered), report, comm);
    if (rank == 0) std::cout << " Results file: " << o.results << "\n";
  }
  if (!result.converged) {
    if (rank == 0)
      std::cerr << "sweep3d: error: not converged: err = " << result.iterations.back().err << " > epsi = "
                << deck.epsi << " after " << result.iterations.size() << " iterations (--max-its)\n";
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  instrument::OptionTable table("sweep3d");
  declare_options(table, o);
  return instrument::run_app(argc, argv, table, [&] {
    instrument::start_core_round_trip_sample();  // where the host put the CPUs (core_round_trip.hpp)
    return run(o);
  });
}
