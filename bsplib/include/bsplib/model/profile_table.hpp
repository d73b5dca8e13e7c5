// A profile written by the bsplib profiler (BSP_PROFILE=<file>, CSV, one row per superstep
// and process), reduced per superstep the way the paper's tool does:
//  - w: the largest local computation time of any process (the white space of Figure 2);
//  - h: the largest number of bytes entering or leaving one process;
//  - the most gets any process asked (the library's own model, superstep_model.hpp, reads
//    a get superstep by it);
//  - comm+sync: the time of the last process to enter bsp_sync until it leaves, i.e. the
//    smallest (t_exit - t_enter) over processes: this needs no synchronised clocks.
//
// The reader is strict, because a hole or a bad number would otherwise come out as a
// plausible-looking prediction: every field is the whole token, finite and in its range
// (profile_table.cpp lists them); t_begin <= t_enter <= t_exit; compute_s and comm_sync_s
// agree with the times; every superstep 0..S-1 has exactly one row for every process
// 0..P-1 (P from the `# format = bsplib-profile-3, nprocs = P` line if there is one, else
// the largest pid + 1); at least one row. Labels may hold commas (the profiler writes
// bsp_profile_label's text as it is): the label is everything between the second field and
// the last twelve. Format 2 (no pushes and pops columns, the last ten) is read with the
// registrations unknown; format 1 (no gets_out column) is refused with a line that says so.
// The format is the format line's, else the header's; a profile with neither is read as
// format 2 (as before format 3). A comment
// line `# core_round_trip_seconds = ...` (one to eight numbers in [0, 1] s) is read into
// Profile::core_round_trip_seconds; other comment lines are skipped.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "bsp_profile.hpp"

namespace bspmodel {

using ProcessStep = bsplib::ProfiledStep;

struct SuperstepSummary {
  int index = 0;
  std::string label;
  double w_max = 0;        // seconds
  double h_bytes = 0;
  double total_bytes = 0;  // sum of bytes out over processes
  double gets_max = 0;     // most gets one process asked of others
  double pushes = 0, pops = 0;  // registrations the superstep commits (the same on every process)
  double comm_sync = 0;    // seconds, measured
  std::vector<ProcessStep> per_process;  // [pid]
};

struct Profile {
  std::string file;
  int nprocs = 0;                        // at least 1
  // The run's cache-line round trips between its processes' CPUs, at bsp_begin and bsp_end
  // (a `# core_round_trip_seconds = a b` line; bsp_round_trip.hpp), seconds; empty if the
  // profile has none (p = 1, several nodes, older profiles).
  std::vector<double> core_round_trip_seconds;
  // Whether pushes and pops were recorded (format 3, or a profile kept in memory); format 2
  // has them 0.
  bool registrations_known = false;
  std::vector<SuperstepSummary> steps;   // [superstep], at least one
};

// Parses the text of a profile; `name` is the file named in errors. Throws
// instrument::InputError(name, "line N" or "", what was expected).
Profile parse_profile(std::string_view text, const std::string& name);

// The profile a program kept in memory (bsplib::ended_section_profile()), reduced the same
// way; `name` says where it came from (the run). Throws instrument::InputError if it is
// empty (no section ended with the profiler on).
Profile profile_from_section(const bsplib::SectionProfile& section, const std::string& name);

// Reads `path` with instrument::read_input_file (a regular file of at most 64 MiB) and
// parses it. Throws instrument::InputError.
Profile read_profile(const std::string& path);

}  // namespace bspmodel
