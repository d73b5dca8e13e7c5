// A rank that is writing an output when its process ends without unwinding the stack, to show
// that OutputFile's temporary goes with it (output_interrupted.cmake runs it):
//
//   output_interrupted_program DIR MODE
//
// Rank 0 opens DIR/run.h5 through OutputFile, writes half a file to the temporary, prints
// "temporary written: <path>" and then, by MODE:
//   SIGTERM, SIGINT, SIGQUIT          raises that signal on itself (as mpiexec forwards Ctrl-C
//                                     or a batch system's SIGTERM)
//   abort                             std::abort (SIGABRT: a failed assertion, std::terminate)
//   exit                              std::exit(3)
//   wait                              writes DIR/ready and sleeps (20 s at most) until a signal
//                                     sent from outside (to mpiexec) ends it
// Rank 0 does all this inside write_on_root, as the apps write their results file: the other
// ranks wait with the job's termination signals deferred (write_on_root.hpp), so that a
// signal sent to the whole job ("wait") cannot end a waiting rank first and have the
// launcher SIGKILL rank 0 before it removed its temporary.
#include <mpi.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>

#include "instrument/mpi_main.hpp"
#include "instrument/output_file.hpp"
#include "instrument/write_on_root.hpp"

int main(int argc, char** argv) {
  return instrument::run_mpi_main(argc, argv, "output_interrupted_program", [](int ac, char** av) {
    if (ac != 3) throw instrument::CollectiveError("usage: output_interrupted_program DIR MODE");
    const std::string dir = av[1], mode = av[2];
    const std::map<std::string, int> signals{
        {"SIGTERM", SIGTERM}, {"SIGINT", SIGINT}, {"SIGQUIT", SIGQUIT}};
    if (signals.count(mode) == 0 && mode != "abort" && mode != "exit" && mode != "wait")
      throw instrument::CollectiveError("unknown MODE " + mode);
    instrument::write_on_root(MPI_COMM_WORLD, 0, [&] {
      instrument::OutputFile out(dir + "/run.h5", "results file");
      std::ofstream(out.temp_path()) << "half a results file";
      if (!std::ifstream(out.temp_path())) throw std::runtime_error("the temporary was not written");
      std::printf("temporary written: %s\n", out.temp_path().c_str());
      std::fflush(stdout);
      if (signals.count(mode)) ::raise(signals.at(mode));
      if (mode == "abort") std::abort();
      if (mode == "exit") std::exit(3);
      std::ofstream(dir + "/ready") << "ready\n";
      ::sleep(20);
      throw std::runtime_error("no signal came within 20 s");
    });
    return 0;  // never reached on rank 0; the others end with it (the launcher ends them)
  });
}
