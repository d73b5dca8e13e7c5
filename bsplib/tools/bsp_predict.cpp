// bsp_predict: the paper's prediction ('fortune telling', Figures 8 and 9) from a bsplib
// profile. For each superstep the measured comm+sync is set beside l + h g and
// l + h g(h) (eq. 3) of each machine file given; totals add the measured computation w.
// The first machine file is the measured one: its rows go to /compare of the results file.
// Usage: bsp_predict PROFILE.csv MACHINE_FILE [MACHINE_FILE ...] [--csv OUT.csv] [--h5 OUT.h5]
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "cost_model.hpp"
#include "machine_params.hpp"
#include "profile_results.hpp"
#include "profile_table.hpp"

using namespace bspmodel;

namespace {

void print_table(const Profile& prof, const BspMachine& m, std::FILE* csv) {
  std::printf("\nmachine: %s (%s)%s\n  p = %d, l = %.3f us, g = %.4f ns/byte (%.4f us per 32-bit "
              "word), N1/2 = %.0f bytes\n",
              m.name.c_str(), m.file.c_str(),
              (m.p && m.p != prof.nprocs) ? "  [measured at another p: projection]" : "", m.p,
              m.l_seconds * 1e6, m.g_seconds_per_byte * 1e9, m.g_seconds_per_word() * 1e6,
              m.n_half_bytes);
  std::printf("%5s %-24s %11s %9s %12s %12s %12s %7s\n", "step", "label", "w_max[us]", "h[B]",
              "measured[us]", "l+hg[us]", "l+hg(h)[us]", "g(h)/meas");
  double tw = 0, tm = 0, ts = 0, tg = 0;
  for (const SuperstepSummary& s : prof.steps) {
    const double std_cost = comm_sync_standard(m, s.h_bytes);
    const double gran = comm_sync_granular(m, s.h_bytes);
    tw += s.w_max;
    tm += s.comm_sync;
    ts += std_cost;
    tg += gran;
    std::printf("%5d %-24.24s %11.2f %9.0f %12.2f %12.2f %12.2f %7.2f\n", s.index,
                s.label.c_str(), s.w_max * 1e6, s.h_bytes, s.comm_sync * 1e6, std_cost * 1e6,
                gran * 1e6, s.comm_sync > 0 ? gran / s.comm_sync : 0.0);
    if (csv)
      std::fprintf(csv, "%s,%d,%s,%.9g,%.0f,%.9g,%.9g,%.9g\n", m.name.c_str(), s.index,
                   s.label.c_str(), s.w_max, s.h_bytes, s.comm_sync, std_cost, gran);
  }
  std::printf("%5s %-24s %11.2f %9s %12.2f %12.2f %12.2f %7.2f\n", "total", "comm+sync only",
              tw * 1e6, "", tm * 1e6, ts * 1e6, tg * 1e6, tm > 0 ? tg / tm : 0.0);
  std::printf("  whole run: measured w + comm+sync = %.2f us; predicted w + l+hg = %.2f us, "
              "w + l+hg(h) = %.2f us (%+.1f%% vs measured)\n",
              (tw + tm) * 1e6, (tw + ts) * 1e6, (tw + tg) * 1e6,
              (tw + tm) > 0 ? 100.0 * ((tw + tg) - (tw + tm)) / (tw + tm) : 0.0);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> machines;
  std::string profile_path, csv_path, h5_path;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--csv" && i + 1 < argc) csv_path = argv[++i];
    else if (a == "--h5" && i + 1 < argc) h5_path = argv[++i];
    else if (profile_path.empty()) profile_path = a;
    else machines.push_back(a);
  }
  if (profile_path.empty() || machines.empty()) {
    std::fprintf(stderr, "usage: bsp_predict PROFILE.csv MACHINE_FILE [...] [--csv OUT.csv] "
                         "[--h5 OUT.h5]\n");
    return 2;
  }
  try {
    const Profile prof = read_profile(profile_path);
    std::printf("BSP profile %s: p = %d, %zu supersteps (comm+sync measured as the last "
                "process's time in bsp_sync)\n",
                prof.file.c_str(), prof.nprocs, prof.steps.size());
    std::printf("h-relations in bytes:");
    for (const SuperstepSummary& s : prof.steps) std::printf(" %.0f", s.h_bytes);
    std::printf("\n");
    std::FILE* csv = nullptr;
    if (!csv_path.empty()) {
      csv = std::fopen(csv_path.c_str(), "w");
      if (!csv) throw std::runtime_error(csv_path + ": cannot write");
      std::fprintf(csv, "machine,superstep,label,w_max_s,h_bytes,measured_comm_sync_s,"
                        "predicted_l_hg_s,predicted_l_hgh_s\n");
    }
    std::vector<BspMachine> ms;
    for (const std::string& path : machines) ms.push_back(read_machine_file(path));
    for (const BspMachine& m : ms) print_table(prof, m, csv);
    if (csv) std::fclose(csv);
    if (!h5_path.empty()) {
      write_profile_results(h5_path, prof, ms);
      std::printf("\nwrote %s\n", h5_path.c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bsp_predict: %s\n", e.what());
    return 1;
  }
  return 0;
}
