// The race of issue 36, finding 8, made deterministic: a signal sent to the whole job reaches
// the writing rank, which cannot act on it yet, while a waiting rank acts on its copy at once.
// MPICH's launcher SIGKILLs every rank once one has died, so the writer's temporary stayed
// unless the waiting ranks defer the signal until the write is over (write_on_root.hpp).
// output_signal_race.cmake runs it:
//
//   output_signal_race_program DIR TERM|INT
//
// The signal is blocked before MPI starts its threads (they inherit the mask), and unblocked
// at once in the main thread of every rank but 0. Rank 0 then writes half a file to
// DIR/run.h5's temporary inside write_on_root, prints "temporary written: <path>", creates
// DIR/ready (the driver now signals mpiexec) and waits for the signal to be pending: as a
// writer in an fsync or off the CPU, it cannot act on it. It holds it 2 s ("held 2 s" when
// it outlived them: no other rank died first), then unblocks it: the cleanup handler removes
// the temporary and the signal ends the process.
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

#include "instrument/mpi_main.hpp"
#include "instrument/output_file.hpp"
#include "instrument/write_on_root.hpp"

namespace {

void say(const std::string& line) {
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

bool pending(int sig) {
  sigset_t set;
  sigpending(&set);
  return sigismember(&set, sig) == 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string name = argc == 3 ? argv[2] : "";
  const int sig = name == "TERM" ? SIGTERM : name == "INT" ? SIGINT : 0;
  sigset_t blocked;
  sigemptyset(&blocked);
  if (sig != 0) sigaddset(&blocked, sig);
  pthread_sigmask(SIG_BLOCK, &blocked, nullptr);  // before MPI_Init: its threads inherit it
  return instrument::run_mpi_main(argc, argv, "output_signal_race_program", [&](int, char**) {
    if (sig == 0) throw instrument::CollectiveError("usage: output_signal_race_program DIR TERM|INT");
    const std::string dir = argv[1];
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0) pthread_sigmask(SIG_UNBLOCK, &blocked, nullptr);  // acts on it at once
    instrument::write_on_root(MPI_COMM_WORLD, 0, [&] {
      instrument::OutputFile out(dir + "/run.h5", "results file");
      std::ofstream(out.temp_path()) << "half a results file";
      if (!std::ifstream(out.temp_path())) throw std::runtime_error("the temporary was not written");
      say("temporary written: " + out.temp_path());
      std::ofstream(dir + "/ready") << "ready\n";
      for (int i = 0; i < 2000 && !pending(sig); ++i) ::usleep(10000);
      if (!pending(sig)) throw std::runtime_error("no SIG" + name + " came within 20 s");
      say("SIG" + name + " pending at the writer");
      ::sleep(2);
      say("held 2 s");
      pthread_sigmask(SIG_UNBLOCK, &blocked, nullptr);  // the cleanup handler, then the end
      throw std::runtime_error("SIG" + name + " did not end the writer");
    });
    return 0;
  });
}
