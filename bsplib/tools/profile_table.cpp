#include "profile_table.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace bspmodel {

Profile read_profile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the profile");
  Profile prof;
  prof.file = path;
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line[0] == '#' || line.rfind("superstep,", 0) == 0) continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) f.push_back(cell);
    if (f.size() != 12)
      throw std::runtime_error(path + ":" + std::to_string(lineno) +
                               ": expected 12 comma-separated fields");
    int step = 0, pid = 0;
    ProcessStep ps{};
    try {
      step = std::stoi(f[0]);
      pid = std::stoi(f[1]);
      ps = ProcessStep{std::stod(f[3]), std::stod(f[4]), std::stod(f[5]),  std::stod(f[8]),
                       std::stod(f[9]), std::stod(f[10]), std::stod(f[11])};
    } catch (const std::exception&) {
      throw std::runtime_error(path + ":" + std::to_string(lineno) + ": expected numbers");
    }
    if (step < 0 || pid < 0 || step > 10000000 || pid > 100000)
      throw std::runtime_error(path + ":" + std::to_string(lineno) + ": bad superstep or pid");
    if (static_cast<int>(prof.steps.size()) <= step) prof.steps.resize(step + 1);
    SuperstepSummary& s = prof.steps[step];
    s.index = step;
    if (pid == 0 || s.label.empty()) s.label = f[2];
    if (static_cast<int>(s.per_process.size()) <= pid) s.per_process.resize(pid + 1);
    s.per_process[pid] = ps;
    prof.nprocs = std::max(prof.nprocs, pid + 1);
  }
  for (SuperstepSummary& s : prof.steps) {
    s.comm_sync = 1e300;
    for (const ProcessStep& ps : s.per_process) {
      s.w_max = std::max(s.w_max, ps.t_enter - ps.t_begin);
      s.h_bytes = std::max({s.h_bytes, ps.bytes_out, ps.bytes_in});
      s.total_bytes += ps.bytes_out;
      s.comm_sync = std::min(s.comm_sync, ps.t_exit - ps.t_enter);
    }
    if (s.per_process.empty()) s.comm_sync = 0;
  }
  return prof;
}

}  // namespace bspmodel
