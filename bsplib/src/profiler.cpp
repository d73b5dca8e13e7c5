#include "profiler.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "fatal.hpp"

namespace bsplib {

namespace {
bool in_memory_requested = false;
SectionProfile ended_profile;
}  // namespace

void profile_in_memory() { in_memory_requested = true; }
const SectionProfile& ended_section_profile() { return ended_profile; }

Profiler::Profiler() {
  const char* path = std::getenv("BSP_PROFILE");
  if (path && *path) m_path = path;
  m_enabled = !m_path.empty() || in_memory_requested;
  if (m_enabled) {
    // Touched now: the first record would otherwise page-fault the reserved memory in, 16
    // faults of ~3.5 us in this VM, counted in the next superstep's w (58 us measured).
    m_records.resize(1024);
    m_records.clear();
  }
}

int Profiler::label_index() {
  if (!m_user_label.empty()) {
    auto [it, fresh] = m_user_labels.try_emplace(m_user_label, static_cast<int>(m_labels.size()));
    if (fresh) m_labels.push_back(m_user_label);
    m_user_label.clear();
    return it->second;
  }
  auto key = std::make_pair(m_site_file, m_site_line);
  auto [it, fresh] = m_site_labels.try_emplace(key, static_cast<int>(m_labels.size()));
  if (fresh) {
    if (!m_site_file) {
      m_labels.push_back(m_site_line < 0 ? "bsp_end" : "bsp_sync");
    } else {
      const char* base = std::strrchr(m_site_file, '/');
      m_labels.push_back(std::string(base ? base + 1 : m_site_file) + ":" +
                         std::to_string(m_site_line));
    }
  }
  return it->second;
}

void Profiler::record(double t_begin, double t_enter, double t_exit, long bytes_out,
                      long bytes_in, long msgs_out, long msgs_in, long gets_out, long pushes,
                      long pops) {
  const int label = label_index();
  m_records.push_back(SuperstepRecord{t_begin, t_enter, t_exit, double(bytes_out),
                                      double(bytes_in), double(msgs_out), double(msgs_in),
                                      double(gets_out), double(pushes), double(pops),
                                      double(label)});
  m_site_file = nullptr;
  m_site_line = 0;
}

SectionProfile Profiler::gather(MPI_Comm comm, int pid, int nprocs) const {
  constexpr int fields = sizeof(SuperstepRecord) / sizeof(double);
  const int mine = static_cast<int>(m_records.size()) * fields;
  std::vector<int> counts(nprocs), displs(nprocs);
  MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  std::vector<double> all;
  if (pid == 0) {
    int total = 0;
    for (int q = 0; q < nprocs; ++q) {
      displs[q] = total;
      total += counts[q];
    }
    all.resize(total);
  }
  MPI_Gatherv(m_records.data(), mine, MPI_DOUBLE, all.data(), counts.data(), displs.data(),
              MPI_DOUBLE, 0, comm);
  SectionProfile prof;
  if (pid != 0) return prof;
  // Every process syncs as often (bsp_sync checks it), so every process has as many records.
  const std::size_t steps = m_records.size();
  prof.nprocs = nprocs;
  prof.core_round_trip_seconds = m_round_trips;
  prof.steps.resize(steps * static_cast<std::size_t>(nprocs));
  // Labels are process 0's: the supersteps are the same on every process.
  for (const SuperstepRecord& r : m_records)
    prof.labels.push_back(m_labels[static_cast<std::size_t>(r.label)]);
  for (int q = 0; q < nprocs; ++q) {
    const auto* r = reinterpret_cast<const SuperstepRecord*>(all.data() + displs[q]);
    const std::size_t n = static_cast<std::size_t>(counts[q] / fields);
    for (std::size_t s = 0; s < n && s < steps; ++s)
      prof.steps[s * static_cast<std::size_t>(nprocs) + static_cast<std::size_t>(q)] =
          ProfiledStep{r[s].t_begin,  r[s].t_enter, r[s].t_exit,   r[s].bytes_out,
                       r[s].bytes_in, r[s].msgs_out, r[s].msgs_in, r[s].gets_out,
                       r[s].pushes,   r[s].pops};
  }
  return prof;
}

void Profiler::keep(SectionProfile prof) { ended_profile = std::move(prof); }

void Profiler::write(const SectionProfile& prof, int pid) const {
  if (pid != 0 || m_path.empty()) return;
  const std::string tmp = m_path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) fatal("bsp_end", pid, -1, "cannot write the profile file %s", tmp.c_str());
  std::fprintf(f, "# format = bsplib-profile-3, nprocs = %d, times in seconds since bsp_begin\n",
               prof.nprocs);
  // Not a row: the CSV readers take other comment lines as comments.
  if (!prof.core_round_trip_seconds.empty()) {
    std::fprintf(f, "# core_round_trip_seconds =");
    for (double rt : prof.core_round_trip_seconds) std::fprintf(f, " %.6g", rt);
    std::fprintf(f, "\n");
  }
  std::fprintf(f, "superstep,pid,label,t_begin,t_enter,t_exit,compute_s,comm_sync_s,"
                  "bytes_out,bytes_in,msgs_out,msgs_in,gets_out,pushes,pops\n");
  for (int q = 0; q < prof.nprocs; ++q)
    for (std::size_t s = 0; s < prof.supersteps(); ++s) {
      const ProfiledStep& r = prof.at(s, q);
      std::fprintf(f, "%zu,%d,%s,%.9f,%.9f,%.9f,%.9f,%.9f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f\n", s,
                   q, prof.labels[s].c_str(), r.t_begin, r.t_enter, r.t_exit,
                   r.t_enter - r.t_begin, r.t_exit - r.t_enter, r.bytes_out, r.bytes_in,
                   r.msgs_out, r.msgs_in, r.gets_out, r.pushes, r.pops);
    }
  std::fclose(f);
  if (std::rename(tmp.c_str(), m_path.c_str()) != 0)
    fatal("bsp_end", pid, -1, "cannot rename %s to %s", tmp.c_str(), m_path.c_str());
}

}  // namespace bsplib
