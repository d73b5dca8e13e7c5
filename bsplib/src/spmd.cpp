#include "spmd.hpp"

#include <cstdlib>
#include <utility>

#include "bsp_sections.hpp"
#include "bsp_round_trip.hpp"
#include "bsp_sync_route.hpp"
#include "fatal.hpp"
#include "instrument/clock.hpp"

namespace bsplib {

Context* Spmd::s_context = nullptr;
int* Spmd::s_argc = nullptr;
char*** Spmd::s_argv = nullptr;
bool Spmd::s_owns_mpi = false;
bool Spmd::s_init_called = false;
bool Spmd::s_begun = false;
int Spmd::s_ended_nprocs = 0;

namespace {
int saved_argc = 0;
char** saved_argv = nullptr;
int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
}  // namespace

void Spmd::outside(const char* call) {
  prepare_to_fail(call);
  fatal(call, -1, -1, "called outside bsp_begin/bsp_end");
}

void Spmd::prepare_to_fail(const char* call) {
  int finalised = 0;
  MPI_Finalized(&finalised);
  if (!finalised) ensure_mpi(call);
}

void Spmd::ensure_mpi(const char* call) {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  if (finalised) fatal(call, -1, -1, "called after bsp_end finalised MPI");
  if (initialised) return;
  if (MPI_Init(s_argc, s_argv) != MPI_SUCCESS) fatal(call, -1, -1, "MPI_Init failed");
  s_owns_mpi = true;
  // Every process calls MPI_Init at its first library call, so every process makes this too.
  open_failure_channel(MPI_COMM_WORLD);
}

void Spmd::at_exit() {
  // A process that leaves the program inside bsp_begin/bsp_end would leave the others
  // waiting in bsp_sync for ever: end them all instead.
  if (s_context)
    fatal("exit", s_context->pid(), s_context->superstep(),
          "the process ended without calling bsp_end while the others may synchronise");
}

void Spmd::init(void (*spmd_part)(void), int argc, char** argv) {
  if (s_init_called || s_begun)
    fatal("bsp_init", -1, -1, "must be called once, at the start of main, before bsp_begin");
  if (!spmd_part) fatal("bsp_init", -1, -1, "null SPMD function");
  s_init_called = true;
  saved_argc = argc;
  saved_argv = argv;
  s_argc = &saved_argc;
  s_argv = &saved_argv;
  ensure_mpi("bsp_init");
  if (world_rank() != 0) {
    // Processes other than 0 run the SPMD part at once; process 0 joins in from main.
    spmd_part();
    if (s_context)
      fatal("bsp_init", s_context->pid(), s_context->superstep(),
            "the SPMD function returned without calling bsp_end");
    if (s_owns_mpi) MPI_Finalize();
    std::exit(0);
  }
}

void Spmd::begin(int maxprocs) {
  if (s_context)
    fatal("bsp_begin", s_context->pid(), s_context->superstep(),
          "called again inside bsp_begin/bsp_end");
  if (s_begun) fatal("bsp_begin", -1, -1, "called a second time (only one SPMD section)");
  ensure_mpi("bsp_begin");
  s_begun = true;
  // Every process of MPI_COMM_WORLD is here (also where the program initialised MPI itself):
  // a refusal of the request below is agreed on, and printed once.
  open_failure_channel(MPI_COMM_WORLD);
  // Process 0's request decides (it is the one running main when bsp_init was used).
  int requested = maxprocs;
  MPI_Bcast(&requested, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (requested <= 0)
    fatal("bsp_begin", world_rank(), 0, "asked for %d processes; need at least 1", requested);
  int world = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  const int p = requested < world ? requested : world;
  const int rank = world_rank();
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank < p ? 0 : MPI_UNDEFINED, rank, &comm);
  close_failure_channel();
  if (rank >= p) {
    // Not needed: take no part. MPI_Finalize returns once the others finalise too.
    MPI_Finalize();
    std::exit(0);
  }
  static bool registered = false;
  if (!registered) {
    std::atexit(at_exit);
    registered = true;
  }
  open_failure_channel(comm);  // from here only the section's processes can fail
  s_context = new Context(comm, 0);
  s_context->warm_up();
  // A profiled run records the placement of its processes' CPUs (bsp_round_trip.hpp): 200
  // round trips, 0.01-0.12 ms, before the clock starts.
  if (s_context->profiler().enabled())
    if (const double rt = s_context->core_round_trip(10, 20); rt > 0)
      s_context->profiler().add_round_trip(rt);
  MPI_Barrier(comm);  // so that every process's clock origin is the same instant
  s_context->start_clock(instrument::now_seconds());
}

void Spmd::allow_next_section() {
  const char* call = "bsplib::allow_next_section";
  if (s_context) fatal(call, s_context->pid(), s_context->superstep(), "called inside bsp_begin/bsp_end");
  // bsp_end finalised MPI where the library initialised it: no section can follow then.
  if (s_owns_mpi || s_init_called)
    fatal(call, -1, -1, "needs a program that initialises MPI itself and does not use bsp_init");
  s_begun = false;
}

void allow_next_section() { Spmd::allow_next_section(); }

double core_round_trip_seconds(int blocks, int per_block) {
  return Spmd::context("bsplib::core_round_trip_seconds")
      .core_round_trip(blocks < 1 ? 1 : blocks, per_block < 1 ? 1 : per_block);
}

long shared_header_exchanges() {
  return Spmd::context("bsplib::shared_header_exchanges").shared_header_exchanges();
}

unsigned long long shared_put_half_bytes() {
  return Spmd::context("bsplib::shared_put_half_bytes").shared_put_half_bytes();
}

void Spmd::end() {
  Context& c = context("bsp_end");
  c.profiler().set_site(nullptr, -1);
  c.sync(true);
  if (c.profiler().enabled()) {
    if (const double rt = c.core_round_trip(10, 20); rt > 0) c.profiler().add_round_trip(rt);
    SectionProfile prof = c.profiler().gather(c.comm(), c.pid(), c.nprocs());
    c.profiler().write(prof, c.pid());
    Profiler::keep(std::move(prof));
  }
  const int pid = c.pid();
  s_ended_nprocs = c.nprocs();
  MPI_Comm comm = c.comm();
  delete s_context;
  s_context = nullptr;
  close_failure_channel();
  MPI_Comm_free(&comm);
  if (s_owns_mpi) {
    // The definition continues only process 0 after bsp_end.
    MPI_Finalize();
    if (pid != 0) std::exit(0);
  }
}

int Spmd::available() {
  if (s_context) return s_context->nprocs();
  if (s_ended_nprocs > 0) return s_ended_nprocs;
  ensure_mpi("bsp_nprocs");
  int world = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  return world;
}

}  // namespace bsplib
