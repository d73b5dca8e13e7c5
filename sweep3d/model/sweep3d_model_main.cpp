// sweep3d-model: evaluates the LogGP and pipeline models of Sweep3D without running it, for
// any problem size, process grid (up to hundreds of thousands of processes), blocking and
// machine file; prints (and optionally plots) predicted time against processes, and finds
// the blocking (mk, mmi) with the least predicted time.
//
//   sweep3d-model --machine loggps.machine --wg 5e-9 --grid 50x50x50 --mm 6
//                 --procs 1,4,16,64,256 --mk 10 --mmi 3 [--iterations 12] [--csv F] [--plot F.png]
//   sweep3d-model ... --per-rank 6x6x1000 --procs 1,...   (weak scaling: grid grows with P)
//   sweep3d-model ... --npe 2x2 --mk auto --mmi auto       (best blocking for one grid)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "blocking_search.hpp"
#include "instrument/error.hpp"
#include "loggp_machine_costs.hpp"
#include "loggp_sweep_model.hpp"
#include "pipeline_model.hpp"

#ifndef SWEEP3D_MODEL_PLOT_SCRIPT
#define SWEEP3D_MODEL_PLOT_SCRIPT "plot_model_scaling.py"
#endif

using namespace sweep3d::model;
using instrument::InputError;

namespace {

struct Options {
  std::string machine;
  double w_g = -1.0, w_before = 0.0, w_after = 0.0;
  int gx = 0, gy = 0, gz = 0;  // global grid
  int rx = 0, ry = 0, rz = 0;  // per-rank grid (weak scaling)
  int mm = 6;
  std::string mk = "10", mmi = "3";
  std::vector<int> procs;
  std::vector<std::pair<int, int>> npes;
  int iterations = 1;
  std::string csv, plot;
};

const char* kUsage =
    "usage: sweep3d-model --machine FILE --wg SECONDS (--grid IxJxK | --per-rank IxJxK)\n"
    "         (--procs P1,P2,... | --npe IxJ[,IxJ...]) [--mm 3|6] [--mk N|auto] [--mmi N|auto]\n"
    "         [--iterations N] [--w-before S] [--w-after S] [--csv FILE] [--plot FILE.png]\n";

long parse_long(const std::string& opt, const std::string& text, long lo) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < lo)
    throw InputError("command line", opt, "an integer >= " + std::to_string(lo) + ", got '" + text + "'");
  return v;
}

double parse_seconds(const std::string& opt, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v >= 0.0) || !std::isfinite(v))
    throw InputError("command line", opt, "a non-negative number of seconds, got '" + text + "'");
  return v;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep)) out.push_back(item);
  return out;
}

void parse_triple(const std::string& opt, const std::string& text, int& a, int& b, int& c) {
  const auto parts = split(text, 'x');
  if (parts.size() != 3) throw InputError("command line", opt, "IxJxK, e.g. 50x50x50, got '" + text + "'");
  a = static_cast<int>(parse_long(opt, parts[0], 1));
  b = static_cast<int>(parse_long(opt, parts[1], 1));
  c = static_cast<int>(parse_long(opt, parts[2], 1));
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      std::exit(0);
    }
    if (i + 1 >= argc) throw InputError("command line", a, "an option followed by its value");
    const std::string v = argv[++i];
    if (a == "--machine") o.machine = v;
    else if (a == "--wg") o.w_g = parse_seconds(a, v);
    else if (a == "--w-before") o.w_before = parse_seconds(a, v);
    else if (a == "--w-after") o.w_after = parse_seconds(a, v);
    else if (a == "--grid") parse_triple(a, v, o.gx, o.gy, o.gz);
    else if (a == "--per-rank") parse_triple(a, v, o.rx, o.ry, o.rz);
    else if (a == "--mm") {
      o.mm = static_cast<int>(parse_long(a, v, 1));
      if (o.mm != 3 && o.mm != 6) throw InputError("command line", a, "3 (S4) or 6 (S6), got " + v);
    } else if (a == "--mk") o.mk = v;
    else if (a == "--mmi") o.mmi = v;
    else if (a == "--iterations") o.iterations = static_cast<int>(parse_long(a, v, 1));
    else if (a == "--procs") {
      for (const auto& p : split(v, ',')) o.procs.push_back(static_cast<int>(parse_long(a, p, 1)));
    } else if (a == "--npe") {
      for (const auto& g : split(v, ',')) {
        const auto ij = split(g, 'x');
        if (ij.size() != 2) throw InputError("command line", a, "IxJ, e.g. 2x2, got '" + g + "'");
        o.npes.emplace_back(static_cast<int>(parse_long(a, ij[0], 1)), static_cast<int>(parse_long(a, ij[1], 1)));
      }
    } else if (a == "--csv") o.csv = v;
    else if (a == "--plot") o.plot = v;
    else throw InputError("command line", a, "a known option (see --help)");
  }
  if (o.machine.empty()) throw InputError("command line", "--machine", "a machine file from loggps-probe");
  if (o.w_g < 0) throw InputError("command line", "--wg", "W_g, the seconds per cell-angle (from a sweep3d run)");
  if ((o.gx > 0) == (o.rx > 0)) throw InputError("command line", "--grid/--per-rank", "exactly one of them");
  for (int p : o.procs) {  // squarest grid with npe_i <= npe_j, as KBA runs are laid out
    int i = static_cast<int>(std::sqrt(static_cast<double>(p)));
    while (p % i) --i;
    o.npes.emplace_back(i, p / i);
  }
  if (o.npes.empty()) throw InputError("command line", "--procs/--npe", "at least one process grid");
  return o;
}

int blocking_value(const std::string& opt, const std::string& text, int limit) {
  const long v = parse_long(opt, text, 1);
  if (v > limit) throw InputError("command line", opt, "at most " + std::to_string(limit) + ", got " + text);
  return static_cast<int>(v);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options o = parse(argc, argv);
    const MachineCosts machine = read_machine_costs(o.machine);

    std::ofstream csv;
    if (!o.csv.empty() || !o.plot.empty()) {
      const std::string path = o.csv.empty() ? o.plot + ".csv" : o.csv;
      csv.open(path);
      if (!csv) throw InputError(path, "", "a writable path for the CSV");
      csv << "processes,npe_i,npe_j,it,jt,kt,mk,mmi,loggp_seconds,loggp_computation,"
             "loggp_communication,loggp_synchronization,pipeline_seconds\n";
    }
    std::printf("Sweep3D models: W_g = %.4g s per cell-angle, machine %s, %d iteration(s)\n",
                o.w_g, o.machine.c_str(), o.iterations);
    std::printf("%9s %11s %13s %5s %4s %13s %11s %11s %11s %13s\n", "procs", "npe", "cells/rank",
                "mk", "mmi", "LogGP [s]", "comp", "comm", "sync", "pipeline [s]");
    for (const auto& [ni, nj] : o.npes) {
      KbaShape s;
      s.npe_i = ni;
      s.npe_j = nj;
      s.it_g = o.gx > 0 ? o.gx : o.rx * ni;
      s.jt_g = o.gy > 0 ? o.gy : o.ry * nj;
      s.kt = o.gz > 0 ? o.gz : o.rz;
      s.mm = o.mm;
      if (s.it_g < ni || s.jt_g < nj)
        std::fprintf(stderr, "sweep3d-model: note: %dx%d grid has ranks with no cells\n", ni, nj);
      if (o.mk == "auto" || o.mmi == "auto") {
        const auto best = rank_blockings(s, o.w_g, machine).front();
        s.mk = o.mk == "auto" ? best.mk : blocking_value("--mk", o.mk, s.kt);
        s.mmi = o.mmi == "auto" ? best.mmi : blocking_value("--mmi", o.mmi, s.mm);
      } else {
        s.mk = std::min(blocking_value("--mk", o.mk, 1 << 30), s.kt);
        s.mmi = blocking_value("--mmi", o.mmi, s.mm);
      }
      if (s.mm % s.mmi) throw InputError("command line", "--mmi", "a factor of mm = " + std::to_string(s.mm));
      const auto lg = predict_loggp(s, o.w_g, machine, o.w_before, o.w_after);
      const auto pl = predict_pipeline(s, o.w_g, machine, o.w_before, o.w_after);
      const double n = o.iterations;
      char npe[32], cells[48];
      std::snprintf(npe, sizeof npe, "%dx%d", ni, nj);
      std::snprintf(cells, sizeof cells, "%dx%dx%d", s.it_of(0), s.jt_of(0), s.kt);
      std::printf("%9d %11s %13s %5d %4d %13.6g %11.4g %11.4g %11.4g %13.6g\n", ni * nj, npe, cells,
                  s.mk, s.mmi, n * lg.per_iteration, n * lg.computation, n * lg.communication,
                  n * lg.synchronization, n * pl.per_iteration);
      if (csv.is_open())
        csv << ni * nj << ',' << ni << ',' << nj << ',' << s.it_of(0) << ',' << s.jt_of(0) << ',' << s.kt
            << ',' << s.mk << ',' << s.mmi << ',' << n * lg.per_iteration << ',' << n * lg.computation << ','
            << n * lg.communication << ',' << n * lg.synchronization << ',' << n * pl.per_iteration << '\n';
    }
    if (!o.plot.empty()) {
      csv.close();
      const std::string cmd = std::string("/usr/bin/python3 '") + SWEEP3D_MODEL_PLOT_SCRIPT + "' '" +
                              (o.csv.empty() ? o.plot + ".csv" : o.csv) + "' '" + o.plot + "'";
      if (std::system(cmd.c_str()) != 0) throw InputError(o.plot, "", "a plot (python3-matplotlib failed)");
      std::printf("plot: %s\n", o.plot.c_str());
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sweep3d-model: error: %s\n", e.what());
    return 1;
  }
}
