// The suite's program `main` (run_app.hpp).
#include "instrument/run_app.hpp"

#include <mpi.h>
#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <iostream>

#include "instrument/cpu_pinning.hpp"
#include "instrument/error.hpp"
#include "instrument/machine_load.hpp"
#include "instrument/mpi_main.hpp"

namespace instrument {

namespace {
// The OpenMP threads a program's --threads option asks for (1 without one: the apps' default).
int threads_asked(const OptionTable& table) {
  const auto it = table.given_texts().find("--threads");
  if (it == table.given_texts().end()) return 1;
  try {
    return static_cast<int>(std::stoll(it->second));
  } catch (const std::exception&) {
    return 1;  // the table has read it as a whole number; unreachable
  }
}
}  // namespace

int run_app(int argc, char** argv, OptionTable& table, const std::function<int()>& body) {
  // Every program's: a one-rank run is pinned to one CPU unless asked not to (cpu_pinning.hpp).
  bool no_pin = false;
  const auto names = table.option_names();
  if (std::find(names.begin(), names.end(), "--no-pin") == names.end())
    table.flag("--no-pin", no_pin, "leave a one-rank run unpinned (by default it is pinned to the lowest "
                                   "CPU of its affinity mask, the same CPU every run)");
  int pin_cpu = -1;
  if (std::find(names.begin(), names.end(), "--pin-cpu") == names.end())
    table
        .whole("--pin-cpu", "N", pin_cpu, 0, CPU_SETSIZE - 1, "",
               "pin a one-rank run to CPU N, whatever the launcher bound it to (to time or calibrate "
               "each CPU of a node on its own)")
        .shown_default("the lowest free CPU of the affinity mask");
  int beside = 0;
  if (std::find(names.begin(), names.end(), "--beside") == names.end())
    table.whole("--beside", "N", beside, 0, CPU_SETSIZE - 1, "",
                "N processes run beside this one-rank run on purpose, a CPU each (a one-rank calibration "
                "made beside copies of itself, as the campaign runner's companions do): their CPU time is "
                "not counted as a load on the machine");
  return run_mpi_main(argc, argv, table.program().c_str(), [&](int c, char** v) {
    if (OptionTable::asks_for_help(c, v)) {
      int rank = 0;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      if (rank == 0) std::cout << table.help() << std::flush;
      return 0;
    }
    try {
      table.read(c, v);
    } catch (const InputError& e) {
      throw CollectiveError(e.what());  // the same argv on every rank: the same verdict
    }
    int ranks = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    if (beside > 0 && ranks != 1)  // each rank would count the companions again
      throw CollectiveError(InputError("command line", "--beside",
                                       "expected a one-rank run (" + std::to_string(ranks) + " ranks: run the companions "
                                       "beside a one-rank calibration)").what());
    if (pin_cpu >= 0) {
      if (no_pin) throw CollectiveError(InputError("command line", "--pin-cpu", "expected it without --no-pin").what());
      try {
        pin_one_rank_run_to(pin_cpu, ranks, threads_asked(table));
      } catch (const InputError& e) {
        throw CollectiveError(e.what());  // every rank the same verdict (ranks, threads, the CPU)
      }
    } else if (!no_pin) {
      pin_one_rank_run(ranks, threads_asked(table));
    }
    start_machine_load_sample(beside);  // the end one is gather_results' (machine_load.hpp)
    return body();
  });
}

int run_serial_app(int argc, char** argv, OptionTable& table, const std::function<int()>& body) {
  try {
    if (OptionTable::asks_for_help(argc, argv)) {
      std::cout << table.help() << std::flush;
      return 0;
    }
    table.read(argc, argv);
    return body();
  } catch (const std::exception& e) {
    std::cout.flush();
    std::fflush(stdout);
    std::fprintf(stderr, "%s: error: %s\n", table.program().c_str(), e.what());
    return 1;
  }
}

}  // namespace instrument
