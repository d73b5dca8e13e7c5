// A profile written by the bsplib profiler (BSP_PROFILE=<file>, CSV, one row per superstep
// and process), reduced per superstep the way the paper's tool does:
//  - w: the largest local computation time of any process (the white space of Figure 2);
//  - h: the largest number of bytes entering or leaving one process;
//  - comm+sync: the time of the last process to enter bsp_sync until it leaves, i.e. the
//    smallest (t_exit - t_enter) over processes: this needs no synchronised clocks.
#pragma once
#include <string>
#include <vector>

namespace bspmodel {

struct ProcessStep {
  double t_begin, t_enter, t_exit, bytes_out, bytes_in, msgs_out, msgs_in;
};

struct SuperstepSummary {
  int index = 0;
  std::string label;
  double w_max = 0;        // seconds
  double h_bytes = 0;
  double total_bytes = 0;  // sum of bytes out over processes
  double comm_sync = 0;    // seconds, measured
  std::vector<ProcessStep> per_process;  // [pid]
};

struct Profile {
  std::string file;
  int nprocs = 0;
  std::vector<SuperstepSummary> steps;
};

// Throws std::runtime_error("file:line: what was expected").
Profile read_profile(const std::string& path);

}  // namespace bspmodel
