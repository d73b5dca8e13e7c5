// BSP machine parameters and their plain-text file (`format = suite-machine-1`, then
// `key = value` lines, `#` comments). Seconds and bytes are the units of record; flops and
// 32-bit words (the paper's Table 1 units) are derived with s and word_bytes.
// Keys read: name, source, bsp.p, bsp.s_flops_per_second, bsp.l_seconds,
// bsp.g_seconds_per_byte, bsp.n_half_bytes, bsp.word_bytes, and the superstep curves
// (bsp.empty_superstep_seconds, bsp.curve.h_bytes, bsp.curve.{one_way,exchange,gets}_seconds:
// lists of numbers separated by spaces, all four lists or none), the after-gap costs
// (bsp.after_gap.gap_seconds, bsp.after_gap.{empty,one_way_64,one_way_2048}_seconds: all four
// or none; after_gap.hpp prices with them), the after-stream costs
// (bsp.after_stream.working_set_bytes, bsp.after_stream.{empty,one_way_64,one_way_2048}_seconds:
// all four or none; after_stream.hpp), a fresh process's first supersteps
// (bsp.first_use.h_bytes, bsp.first_use.{first_superstep,exchange,one_way,gets}_seconds: all
// five or none, and bsp.first_use.pop_seconds, optional, only with them; first_use.hpp),
// bsp.core_round_trip_seconds (the placement the
// file was measured at, core_round_trip.hpp; 0 or absent: not measured); other keys are ignored (the
// same file may hold LogGP parameters). Parsing and writing are instrument::MachineFile's.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "instrument/machine_file.hpp"

namespace bspmodel {

// What bspprobe measured of whole supersteps by pattern (superstep_model.hpp): comm+sync at
// each h (bytes per process, BSP's h) for three patterns of one transfer of h bytes per pair
// of processes, and the empty superstep. Empty when the file has none (the paper's machine
// files, a probe at p = 1): then only eq. 3 predicts.
constexpr std::size_t kMaxCurvePoints = 64;  // points of a curve in a machine file

struct SuperstepCurves {
  double empty_seconds = 0;                      // bsp.empty_superstep_seconds
  std::vector<double> h_bytes;                   // bsp.curve.h_bytes: increasing, > 0
  std::vector<double> one_way, exchange, gets;   // seconds at each h
  bool empty() const { return h_bytes.empty(); }
};

// What bspprobe measured of supersteps that follow a compute gap (after_gap.hpp): at each gap
// (seconds of spinning on the clock between two syncs; 0 first, rising), the median
// comm+sync of an empty superstep and of one put of 64 B and of 2 KiB one way. A superstep
// after a long compute costs more than one back to back (the sync's code and data went
// cold), which the curves above, measured back to back, do not see. Empty when the file
// has none (older files, the paper's): then no gap term is charged.
struct AfterGapCosts {
  std::vector<double> gap_seconds;                               // bsp.after_gap.gap_seconds
  std::vector<double> empty, one_way_64, one_way_2048;           // seconds at each gap
  bool none() const { return gap_seconds.empty(); }
};

// What bspprobe measured of supersteps that follow computation over a working set
// (after_stream.hpp): at each working set (bytes each process went over, read and written,
// since the previous sync; 0 first, rising), the median comm+sync of an empty superstep and
// of one put of 64 B and of 2 KiB one way. Empty when the file has none (older files): then
// only the gap term is charged.
struct AfterStreamCosts {
  std::vector<double> working_set_bytes;                         // bsp.after_stream.working_set_bytes
  std::vector<double> empty, one_way_64, one_way_2048;           // seconds at each working set
  bool none() const { return working_set_bytes.empty(); }
};

// What bspprobe measured of a fresh process's first supersteps (first_use.hpp): right after
// bsp_begin, its first superstep (one registration, as a program's first superstep is), then
// its first exchange, first one-way put and first get of h bytes a pair, then (files since
// bsp.first_use.pop_seconds) its first pop of a registration, each once, the comm+sync of the
// last process to enter. A program's first superstep and its first of each
// pattern cost more than the curves' back-to-back supersteps (code, data and the transport's
// state not yet warm), which is most of what a short run's prediction misses. h_bytes 0 when
// the file has none (older files, the paper's, the apps' built-in probe, p = 1): then no
// first-use term is charged.
struct FirstUseCosts {
  double h_bytes = 0;                       // bsp.first_use.h_bytes
  double first_superstep = 0;               // bsp.first_use.first_superstep_seconds
  double exchange = 0, one_way = 0, gets = 0;  // bsp.first_use.{exchange,one_way,gets}_seconds
  // bsp.first_use.pop_seconds: the fresh process's first superstep that pops a registration
  // (an empty one, after the supersteps above); 0 if the file has none (older files).
  double pop = 0;
  bool none() const { return h_bytes == 0; }
};

struct BspMachine {
  std::string name = "unnamed";
  std::string source;
  std::string file;            // where it was read from (for reports)
  int p = 0;                   // processes it was measured on
  double s_flops = 0;          // s: flop/s (0 if unknown)
  double l_seconds = 0;        // l
  double g_seconds_per_byte = 0;  // g_inf
  double n_half_bytes = 0;     // N_1/2 (eq. 3)
  double word_bytes = 4;       // the paper's word: 32 bits
  SuperstepCurves curves;      // bsp.curve.* and bsp.empty_superstep_seconds, if measured
  AfterGapCosts after_gap;     // bsp.after_gap.*, if measured
  AfterStreamCosts after_stream;  // bsp.after_stream.*, if measured
  FirstUseCosts first_use;     // bsp.first_use.*, if measured
  // bsp.core_round_trip_seconds: the round trip of a cache line between the processes' CPUs
  // when the file was measured (core_round_trip.hpp); 0 if not measured (older files, the
  // paper's, processes on several nodes). Not a cost term: it says which placement of the
  // CPUs l and the curves are true of.
  double core_round_trip_seconds = 0;
  std::map<std::string, std::string> extra;  // other key = value lines, written back as is

  double l_flops() const { return l_seconds * s_flops; }
  double g_flops_per_word() const { return g_seconds_per_byte * word_bytes * s_flops; }
  double g_seconds_per_word() const { return g_seconds_per_byte * word_bytes; }
};

// Throws std::runtime_error("file:key: what was expected"), also for a value outside its
// range (machine_params.cpp lists them: l, g_inf, N_1/2 >= 0, p >= 1, ...).
BspMachine read_machine_file(const std::string& path);
// The same from a parsed file (`path` names it in errors); throws instrument::InputError.
BspMachine machine_from(const instrument::MachineFile& file, const std::string& path);
// Throws instrument::InputError(source, key, "<key> must be a finite number in [lo, hi]
// unit; got v") for the first value of `m` outside its range.
void validate_machine(const BspMachine& m, const std::string& source);
// Writes through instrument's OutputFile (a temporary, then rename; a symbolic link, a
// device, FIFO or directory is refused). An existing machine file of the suite (e.g.
// loggps-probe's) is merged into: its bsp.* keys are replaced, the others kept; a file that
// is not a machine file is refused. `m` is validated first. Throws std::runtime_error.
void write_machine_file(const std::string& path, const BspMachine& m,
                        const std::string& comment);

}  // namespace bspmodel
