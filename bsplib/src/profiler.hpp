// The superstep profiler: per superstep and per process, the local computation time, the
// time in communication + synchronisation, bytes and messages out and in, gets asked (data of
// other processes only: a process's copy to itself is not communication, as in the paper),
// and a label (the bsp_sync call site or bsp_profile_label). Off unless BSP_PROFILE names an
// output file; when off, the per-superstep cost is one branch.
// At bsp_end the records are gathered to process 0, kept in memory there (bsp_profile.hpp)
// and, with BSP_PROFILE, written as CSV (columns in README). profile_in_memory() switches the
// profiler on without a file.
#pragma once
#include <mpi.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "bsp_profile.hpp"

namespace bsplib {

struct SuperstepRecord {
  double t_begin;   // end of the previous sync (or bsp_begin), seconds since bsp_begin
  double t_enter;   // entry into bsp_sync
  double t_exit;    // exit from bsp_sync
  double bytes_out, bytes_in, msgs_out, msgs_in;
  double gets_out;  // get requests to other processes
  double pushes, pops;  // registrations committed by this superstep's sync
  double label;     // index into the label table (double so one MPI type carries it all)
};

class Profiler {
 public:
  Profiler();  // reads BSP_PROFILE and whether profile_in_memory() was called
  bool enabled() const { return m_enabled; }
  void set_site(const char* file, int line) {
    m_site_file = file;
    m_site_line = line;
  }
  void set_label(const char* label) {
    m_user_label = label ? label : "";
    for (char& c : m_user_label)
      if (c == ',' || c == '\n') c = ';';  // keep the CSV one field per label
  }
  void record(double t_begin, double t_enter, double t_exit, long bytes_out, long bytes_in,
              long msgs_out, long msgs_in, long gets_out, long pushes, long pops);
  // A cache-line round trip between the processes' CPUs (bsp_begin's, then bsp_end's):
  // written with the profile, to say at which placement of the CPUs the run ran.
  void add_round_trip(double seconds) { m_round_trips.push_back(seconds); }
  // Collective over comm: every process's records to process 0 (empty elsewhere).
  SectionProfile gather(MPI_Comm comm, int pid, int nprocs) const;
  // Process 0, with BSP_PROFILE: the gathered profile as the CSV file.
  void write(const SectionProfile& prof, int pid) const;
  // Keeps the gathered profile for ended_section_profile().
  static void keep(SectionProfile prof);

 private:
  int label_index();
  bool m_enabled = false;
  std::string m_path;
  const char* m_site_file = nullptr;
  int m_site_line = 0;
  std::string m_user_label;
  std::map<std::pair<const char*, int>, int> m_site_labels;
  std::map<std::string, int> m_user_labels;
  std::vector<std::string> m_labels;
  std::vector<SuperstepRecord> m_records;
  std::vector<double> m_round_trips;  // the same on every process
};

}  // namespace bsplib
