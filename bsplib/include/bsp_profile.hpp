// The superstep profile of a BSPlib program, in memory, for C++ programs built on the
// library (the profiler's C route is BSP_PROFILE=<file>, a CSV written at bsp_end).
//
//   bsplib::profile_in_memory();   // before bsp_begin
//   bsp_begin(p); ... bsp_end();
//   const bsplib::SectionProfile& prof = bsplib::ended_section_profile();  // on process 0
//
// bspmodel::profile_from_section (bsplib/model/profile_table.hpp) reduces it per
// superstep and bspmodel::add_bsp_comparison sets each superstep beside l + h g(h) of a machine file,
// so the program prints its measured-versus-modelled table at its end.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace bsplib {

// One process's record of one superstep: seconds since bsp_begin, data bytes and messages
// to and from other processes (a process's copies to itself are not communication), and the
// gets this process asked of other processes (bsp_get, bsp_hpget: each costs the superstep
// a request before its reply, which the bytes alone do not show).
struct ProfiledStep {
  double t_begin;  // the end of the previous sync (or bsp_begin)
  double t_enter;  // entry into bsp_sync
  double t_exit;   // exit from bsp_sync
  double bytes_out, bytes_in, msgs_out, msgs_in;
  double gets_out;
  double pushes, pops;  // registrations this superstep commits (bsp_push_reg, bsp_pop_reg)
};

struct SectionProfile {
  int nprocs = 0;                   // 0: no section has ended with the profiler on
  std::vector<std::string> labels;  // [superstep]: bsp_sync's call site or bsp_profile_label
  std::vector<ProfiledStep> steps;  // [superstep * nprocs + pid]
  // The round trip of a cache line between the processes' CPUs at bsp_begin and at bsp_end,
  // seconds (bsp_round_trip.hpp): the host's placement of the CPUs the run had, which sets
  // what its small supersteps cost. Empty at p = 1 or when the processes span nodes.
  std::vector<double> core_round_trip_seconds;
  std::size_t supersteps() const { return labels.size(); }
  const ProfiledStep& at(std::size_t superstep, int pid) const {
    return steps[superstep * static_cast<std::size_t>(nprocs) + static_cast<std::size_t>(pid)];
  }
};

// Records the supersteps of the next SPMD section even when BSP_PROFILE is not set (no
// file is written then). Call before bsp_begin.
void profile_in_memory();

// The profile of the SPMD section that ended last, gathered at its bsp_end, on process 0;
// empty (nprocs 0) on the other processes, before a section has ended, or when the section
// was not profiled.
const SectionProfile& ended_section_profile();

}  // namespace bsplib
