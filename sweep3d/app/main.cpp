// sweep3d: the Sweep3D 2.2b benchmark. Usage: see --help and README.md.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include <vector>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/option_file.hpp"
#include "instrument/phase_table.hpp"
#include "instrument/recorder.hpp"
#include "sweep3d/deck.hpp"
#include "sweep3d/deck_ranges.hpp"
#include "sweep3d/driver.hpp"
#include "sweep3d/model_report.hpp"
#include "sweep3d/results_output.hpp"
#include "sweep3d/run_resources.hpp"
#include "sweep3d/work_figures.hpp"

namespace {

constexpr long long kMaxTraceEvents = 1LL << 40;

const char* const kUsage =
    "usage: sweep3d [options] [deck]\n"
    "  deck               the input deck (default: ./input, as the original); the original\n"
    "                     5-record list-directed form or key = value lines (README.md)\n"
    "  --kernel K         fast (default) or ref (the plain reference kernel)\n"
    "  --isa I            fast kernel instruction set: sse2, avx2, avx512 (default: widest)\n"
    "  --threads N        OpenMP threads per rank inside the kernel (default 1)\n"
    "  --nonblocking      non-blocking sends in the sweep (default: blocking, as the original)\n"
    "  --grid IxJ         process grid npe_i x npe_j instead of the deck's (e.g. 1x2)\n"
    "  --mk N, --mmi N    block with N k-planes / N angles instead of the deck's (applies on\n"
    "                     one rank too, unlike the original); `auto`: the blocking with the\n"
    "                     least LogGP-predicted time (needs --machine and --calibration)\n"
    "  --machine FILE     machine file from loggps-probe: print the LogGP and pipeline models\n"
    "                     beside the measured times and write them to the results file\n"
    "  --calibration RUN[,RUN...]  earlier sweep3d results files whose W_g, W_before, W_after\n"
    "                     feed the models (default: this run's own, a consistency check only);\n"
    "                     W_g depends on mmi, threads and kernel, so one must match this run's\n"
    "                     (with --mmi auto: one per mmi to search)\n"
    "  --max-its N        stop a converged deck (epsi > 0) after N iterations (default 1000;\n"
    "                     0: no limit); the run then exits with status 2\n"
    "  --results FILE     results file (default sweep3d.h5); --no-results to skip\n"
    "  --trace N          keep up to N trace events per rank (default: 0, or with --machine\n"
    "                     enough for the measured critical path of every iteration)\n"
    "  -h, --help         this text\n";

[[noreturn]] void usage_error(const std::string& msg) {
  throw instrument::CollectiveError(msg + " (see sweep3d --help)");
}

// An integer option in [lo, hi] (`range` says why): decimal digits only, refused before it
// could overflow.
long long parse_integer(const std::string& opt, const std::string& v, long long lo, long long hi,
                        const std::string& range) {
  long long x = 0;
  bool ok = !v.empty() && v.size() <= 19;
  for (char c : v) ok = ok && c >= '0' && c <= '9';
  if (ok) x = std::stoll(v);
  if (!ok || x < lo || x > hi)
    usage_error("option " + opt + ": expected an integer in " + range + ", got " + instrument::quote_token(v));
  return x;
}

const std::string kExtentRange = "[1, 16777216]";

struct Options {
  sweep3d::RunOptions run;
  std::string deck_path = "input", results = "sweep3d.h5", isa;
  long long trace = -1;  // -1: as the models need it
  bool auto_mk = false, auto_mmi = false;
  sweep3d::ModelInputs models;
  sweep3d::GridOverride grid;
};

// A file option's value (option_file.hpp), its InputError made collective like every other.
template <class Read>
auto file_option(Read read) {
  try {
    return read();
  } catch (const instrument::InputError& e) {
    throw instrument::CollectiveError(e.what());
  }
}

// Every rank parses the same argv, so a bad option is a collective error.
Options parse_options(int argc, char** argv) {
  Options o;
  bool have_deck = false;
  for (int a = 1; a < argc; ++a) {
    const std::string s = argv[a];
    auto value = [&]() -> const char* {
      if (a + 1 >= argc) usage_error("option " + s + " needs a value");
      return argv[++a];
    };
    auto blocking = [&](const char* opt, bool& automatic, int& forced, long long hi, const std::string& range) {
      const std::string v = value();
      if (v == "auto") automatic = true;
      else forced = static_cast<int>(parse_integer(opt, v, 1, hi, range + " or auto"));
    };
    if (s == "--kernel") {
      const std::string k = value();
      if (k == "fast") o.run.kernel = sweep3d::KernelKind::fast;
      else if (k == "ref" || k == "reference") o.run.kernel = sweep3d::KernelKind::reference;
      else usage_error("option --kernel: expected fast or ref, got '" + k + "'");
    } else if (s == "--isa") {
      o.isa = value();
      if (o.isa != "sse2" && o.isa != "avx2" && o.isa != "avx512")
        usage_error("option --isa: expected sse2, avx2 or avx512, got '" + o.isa + "'");
      if (std::strcmp(sweep3d::fast_kernel_isa(o.isa.c_str()), o.isa.c_str()) != 0)
        usage_error("option --isa: this CPU or build has no " + o.isa + " kernel");
    } else if (s == "--threads") {
      o.run.threads = static_cast<int>(parse_integer(s, value(), 1, sweep3d::kMaxThreads,
                                                     "[1, 64] (OpenMP threads per rank: the kernel's limit)"));
    } else if (s == "--nonblocking") {
      o.run.nonblocking = true;
    } else if (s == "--grid") {
      const std::string g = value();
      const std::size_t x = g.find('x');
      if (x == std::string::npos) usage_error("option --grid: expected IxJ (e.g. 2x2), got " + instrument::quote_token(g));
      const std::string range = kExtentRange + " for I and J of IxJ";
      o.grid.npe_i = static_cast<int>(parse_integer(s, g.substr(0, x), 1, sweep3d::kMaxExtent, range));
      o.grid.npe_j = static_cast<int>(parse_integer(s, g.substr(x + 1), 1, sweep3d::kMaxExtent, range));
    } else if (s == "--mk") {
      blocking("--mk", o.auto_mk, o.run.force_mk, sweep3d::kMaxExtent, kExtentRange + " (k-planes per block)");
    } else if (s == "--mmi") {
      blocking("--mmi", o.auto_mmi, o.run.force_mmi, 6, "[1, 6] (angles per block, a factor of mm)");
    } else if (s == "--machine") {
      o.models.machine_file = file_option([&] { return instrument::file_option(s, value()); });
    } else if (s == "--calibration") {
      o.models.calibration_files = file_option([&] { return instrument::file_list_option(s, value()); });
    } else if (s == "--max-its") {
      o.run.max_iterations = static_cast<int>(
          parse_integer(s, value(), 0, sweep3d::kMaxIterations, "[0, 100000] (0: no limit)"));
    } else if (s == "--results") {
      o.results = file_option([&] { return instrument::output_file_option(s, value()); });
    } else if (s == "--no-results") {
      o.results.clear();
    } else if (s == "--trace") {
      // Bounded by memory: require_run_resources checks the figure on every rank.
      o.trace = parse_integer(s, value(), 0, kMaxTraceEvents, "[0, 2^40] (events per rank, as memory allows)");
    } else if (!s.empty() && s[0] == '-') {
      usage_error("unknown option '" + s + "'");
    } else if (have_deck) {
      usage_error("more than one deck given ('" + o.deck_path + "' and '" + s + "')");
    } else {
      o.deck_path = file_option([&] { return instrument::file_option("deck", s); });
      have_deck = true;
    }
  }
  if ((o.auto_mk || o.auto_mmi) && (o.models.machine_file.empty() || o.models.calibration_files.empty()))
    usage_error("--mk/--mmi auto: the blocking is chosen by the LogGP model, which needs --machine and --calibration");
  return o;
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
  s.models = sweep3d::prepare_models(o.models, comm);
  if (o.auto_mk || o.auto_mmi) sweep3d::choose_blocking(s.deck, s.models, o.auto_mk, o.auto_mmi, o.run, comm);
  sweep3d::require_calibration(s.deck, o.run, s.models, comm);
  // Last, with the blocking final: what the run allocates and sends, on every rank.
  sweep3d::require_run_resources(s.deck, o.run, trace_capacity(o, s.deck, comm.rank(), comm.size()), comm);
  return s;
}

int run(int argc, char** argv) {
  int rank = 0, nranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  for (int a = 1; a < argc; ++a)
    if (std::strcmp(argv[a], "-h") == 0 || std::strcmp(argv[a], "--help") == 0) {
      if (rank == 0) std::cout << kUsage;
      return 0;
    }
  Options o = parse_options(argc, argv);
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

int main(int argc, char** argv) { return instrument::run_mpi_main(argc, argv, "sweep3d", run); }
