// What bsplib's benchmarks declare beyond the app shell's typed options (instrument/
// option_table.hpp, run_app.hpp): positional counts ("bench_empty_sync [N] [R]"), each read
// whole and in its range, and the process count a benchmark cannot measure below. Every
// process reads the same command line and the same MPI_COMM_WORLD, so every process refuses
// alike: run_app prints the refusal once and every process exits 1 (no MPI_Abort, no figure
// printed first).
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "instrument/mpi_main.hpp"
#include "instrument/option_number.hpp"
#include "instrument/option_table.hpp"

namespace bsplib_bench {

// The next positional argument, optional: a whole number in [lo, hi] into `value`, whose
// value now is the default the help shows.
inline instrument::OptionTable& count(instrument::OptionTable& t, const std::string& name, std::int64_t lo,
                                      std::int64_t hi, int& value, const std::string& help) {
  const std::string text = help + "; " + name + " in [" + instrument::shown_value(lo) + ", " +
                           instrument::shown_value(hi) + "] (default: " + std::to_string(value) + ")";
  return t.positional(
      name, instrument::Arity::optional,
      [&value, lo, hi](const std::string& n, const std::string& v) {
        value = static_cast<int>(instrument::whole_option(n, v, lo, hi));
      },
      text);
}

// Every positional argument after the counts: whole numbers in [lo, hi] appended to `values`.
inline instrument::OptionTable& rest(instrument::OptionTable& t, const std::string& name, std::int64_t lo,
                                     std::int64_t hi, std::vector<int>& values, const std::string& help) {
  const std::string text = help + "; each in [" + instrument::shown_value(lo) + ", " + instrument::shown_value(hi) + "]";
  return t.positional(
      name, instrument::Arity::any,
      [&values, lo, hi](const std::string& n, const std::string& v) {
        values.push_back(static_cast<int>(instrument::whole_option(n, v, lo, hi)));
      },
      text);
}

// At least `least` processes in MPI_COMM_WORLD, `why` saying what needs them.
inline void require_processes(int least, const std::string& why) {
  int p = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (p < least)
    throw instrument::CollectiveError("needs " + std::to_string(least) + " or more processes (" + why + "); got " +
                                      std::to_string(p));
}

}  // namespace bsplib_bench
