// sweep3d: the Sweep3D 2.2b benchmark. Usage: see --help and README.md.
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "instrument/mpi_main.hpp"
#include "instrument/recorder.hpp"
#include "sweep3d/deck.hpp"
#include "blocking_search.hpp"
#include "loggp_machine_costs.hpp"
#include "sweep3d/driver.hpp"
#include "sweep3d/model_report.hpp"
#include "sweep3d/results_output.hpp"

namespace {

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
    "  --calibration RUN  an earlier sweep3d results file whose W_g, W_before, W_after feed the\n"
    "                     models (default: this run's own, a consistency check only)\n"
    "  --max-its N        stop a converged deck (epsi > 0) after N iterations (default 1000;\n"
    "                     0: no limit); the run then exits with status 2\n"
    "  --results FILE     results file (default sweep3d.h5); --no-results to skip\n"
    "  --trace N          keep up to N trace events per rank (default 0: totals only)\n"
    "  -h, --help         this text\n";

[[noreturn]] void usage_error(const std::string& msg) {
  throw instrument::CollectiveError(msg + " (see sweep3d --help)");
}

int parse_int(const char* opt, const char* v) {
  char* end = nullptr;
  const long x = std::strtol(v, &end, 10);
  if (end == v || *end != '\0' || x < 0 || x > 1000000000)
    usage_error(std::string("option ") + opt + ": expected a non-negative integer, got '" + v + "'");
  return static_cast<int>(x);
}

// --mk/--mmi auto: the blocking the LogGP model predicts fastest for this grid, with the
// calibration run's W_g and the machine file (both read and checked on every rank already).
void choose_blocking(const sweep3d::Deck& deck, const sweep3d::ModelInputs& models, bool auto_mk, bool auto_mmi,
                     sweep3d::RunOptions& opt, bool print) {
  const auto shape = sweep3d::kba_shape(deck, deck.npe_i, deck.npe_j, deck.mk, deck.mmi);
  const sweep3d::Calibration cal = sweep3d::read_calibration(models.calibration_file);
  const auto machine = sweep3d::model::read_machine_costs(models.machine_file);
  // Only the free parameters vary: a fixed --mk or --mmi (or the deck's) stays as given.
  const auto best = sweep3d::model::best_blocking(shape, cal.wg_s, machine,
                                                  auto_mk ? 0 : (opt.force_mk > 0 ? opt.force_mk : deck.mk),
                                                  auto_mmi ? 0 : (opt.force_mmi > 0 ? opt.force_mmi : deck.mmi));
  if (best.mk == 0) usage_error("--mk/--mmi auto: no blocking fits the fixed one");
  opt.force_mk = best.mk;
  opt.force_mmi = best.mmi;
  if (print)
    std::cout << " Blocking chosen by the LogGP model: mk = " << best.mk << ", mmi = " << best.mmi
              << " (predicted " << best.predicted << " s per iteration; W_g " << cal.source << ")\n";
}

int run(int argc, char** argv) {
  sweep3d::RunOptions opt;
  std::string deck_path = "input", results = "sweep3d.h5", isa;
  std::size_t trace = 0;
  bool have_deck = false, auto_mk = false, auto_mmi = false;
  sweep3d::ModelInputs models;
  sweep3d::GridOverride grid;
  for (int a = 1; a < argc; ++a) {
    const std::string s = argv[a];
    auto value = [&]() -> const char* {
      if (a + 1 >= argc) usage_error("option " + s + " needs a value");
      return argv[++a];
    };
    if (s == "-h" || s == "--help") {
      int rank = 0;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      if (rank == 0) std::cout << kUsage;
      return 0;
    } else if (s == "--kernel") {
      const std::string k = value();
      if (k == "fast") opt.kernel = sweep3d::KernelKind::fast;
      else if (k == "ref" || k == "reference") opt.kernel = sweep3d::KernelKind::reference;
      else usage_error("option --kernel: expected fast or ref, got '" + k + "'");
    } else if (s == "--isa") {
      isa = value();
      if (isa != "sse2" && isa != "avx2" && isa != "avx512")
        usage_error("option --isa: expected sse2, avx2 or avx512, got '" + isa + "'");
      if (std::strcmp(sweep3d::fast_kernel_isa(isa.c_str()), isa.c_str()) != 0)
        usage_error("option --isa: this CPU or build has no " + isa + " kernel");
    } else if (s == "--threads") {
      opt.threads = parse_int("--threads", value());
      if (opt.threads < 1) usage_error("option --threads: expected at least 1");
    } else if (s == "--nonblocking") {
      opt.nonblocking = true;
    } else if (s == "--grid") {
      const std::string g = value();
      const std::size_t x = g.find('x');
      if (x == std::string::npos) usage_error("option --grid: expected IxJ (e.g. 2x2), got '" + g + "'");
      grid.npe_i = parse_int("--grid", g.substr(0, x).c_str());
      grid.npe_j = parse_int("--grid", g.substr(x + 1).c_str());
      if (grid.npe_i < 1 || grid.npe_j < 1) usage_error("option --grid: expected positive IxJ, got '" + g + "'");
    } else if (s == "--mk") {
      const std::string v = value();
      if (v == "auto") {
        auto_mk = true;
      } else {
        opt.force_mk = parse_int("--mk", v.c_str());
        if (opt.force_mk < 1) usage_error("option --mk: expected at least 1 or auto");
      }
    } else if (s == "--mmi") {
      const std::string v = value();
      if (v == "auto") {
        auto_mmi = true;
      } else {
        opt.force_mmi = parse_int("--mmi", v.c_str());
        if (opt.force_mmi < 1) usage_error("option --mmi: expected at least 1 or auto");
      }
    } else if (s == "--machine") {
      models.machine_file = value();
    } else if (s == "--calibration") {
      models.calibration_file = value();
    } else if (s == "--max-its") {
      opt.max_iterations = parse_int("--max-its", value());
    } else if (s == "--results") {
      results = value();
    } else if (s == "--no-results") {
      results.clear();
    } else if (s == "--trace") {
      trace = static_cast<std::size_t>(parse_int("--trace", value()));
    } else if (!s.empty() && s[0] == '-') {
      usage_error("unknown option '" + s + "'");
    } else if (have_deck) {
      usage_error("more than one deck given ('" + deck_path + "' and '" + s + "')");
    } else {
      deck_path = s;
      have_deck = true;
    }
  }
  if (!isa.empty()) opt.isa = isa.c_str();

  instrument::Recorder recorder(trace);
  instrument::Comm comm(MPI_COMM_WORLD, recorder);
  const sweep3d::Deck deck = sweep3d::distribute_deck(deck_path, comm, grid);
  if (opt.force_mmi > 0 && deck.mm % opt.force_mmi != 0)
    usage_error("option --mmi: " + std::to_string(opt.force_mmi) + " does not divide mm = " + std::to_string(deck.mm));
  if ((auto_mk || auto_mmi) && (models.machine_file.empty() || models.calibration_file.empty()))
    usage_error("--mk/--mmi auto: the blocking is chosen by the LogGP model, which needs --machine and --calibration");
  sweep3d::check_model_inputs(models, comm);
  if (auto_mk || auto_mmi) choose_blocking(deck, models, auto_mk, auto_mmi, opt, comm.rank() == 0);
  opt.out = &std::cout;
  const sweep3d::RunResult result = sweep3d::run_sweep3d(deck, comm, recorder, opt);
  comm.publish_split();

  const sweep3d::ModelReport report = sweep3d::build_model_report(result, models, comm);
  if (comm.rank() == 0 && report.enabled) {
    std::cout << "\n";
    report.comparison.print(std::cout);
  }
  if (!results.empty()) {
    sweep3d::write_results_file(results, result, recorder, comm, deck_path, report);
    if (comm.rank() == 0) std::cout << " Results file: " << results << "\n";
  }
  if (!result.converged) {
    if (comm.rank() == 0)
      std::cerr << "sweep3d: error: not converged: err = " << result.iterations.back().err << " > epsi = "
                << deck.epsi << " after " << result.iterations.size() << " iterations (--max-its)\n";
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return instrument::run_mpi_main(argc, argv, "sweep3d", run); }
