// The `main` of every program in the suite: its option table read, --help answered, and the
// errors' verdicts given, the same way everywhere.
//
//   int main(int argc, char** argv) {
//     Options o;
//     instrument::OptionTable table("sweep3d_bench");
//     table.whole("--reps", "N", o.reps, 1, 100, "", "runs per kernel, the best kept");
//     return instrument::run_app(argc, argv, table, [&] { return bench(o); });
//   }
//
// -h or --help anywhere: the table's help on stdout (on rank 0 only), exit 0 (on every rank).
// A bad command line: one line on stderr, `PROGRAM: error: command line:OPTION: what was
// expected`, nothing on stdout, exit 1 (on every rank: every rank reads the same argv, so
// the verdict is collective and needs no message).
#pragma once
#include <functional>

#include "instrument/option_table.hpp"

namespace instrument {

// An MPI program: run_mpi_main (mpi_main.hpp) starts MPI, reads the table on every rank and
// runs `body`; its errors end the run as run_mpi_main says (collective or local). Before
// `body`: a one-rank run is pinned to one CPU (cpu_pinning.hpp; the table gets --no-pin and
// --pin-cpu N) and
// the machine's load is sampled (machine_load.hpp; gather_results takes the end sample).
int run_app(int argc, char** argv, OptionTable& table, const std::function<int()>& body);

// A program that never starts MPI (a model, a replay, a check of files): the table read,
// `body` run, and any exception it throws printed as `PROGRAM: error: what`, exit 1.
int run_serial_app(int argc, char** argv, OptionTable& table, const std::function<int()>& body);

}  // namespace instrument
