// Helpers shared by the sweep3d tests: decks from text, runs on a communicator, the
// original's output parsed into numbers.
#pragma once
#include <mpi.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "instrument/comm.hpp"
#include "instrument/recorder.hpp"
#include "sweep3d/deck.hpp"
#include "sweep3d/driver.hpp"

namespace sweep3d::test {

inline std::string read_text(const std::string& path) {
  std::ifstream f(path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

inline std::string golden_dir() { return SWEEP3D_GOLDEN_DIR; }

// Runs `deck` on `comm` (npe_i*npe_j must equal its size), quietly unless `out` is given.
inline RunResult run(const Deck& deck, MPI_Comm comm, RunOptions opt = {}, std::ostream* out = nullptr) {
  instrument::Recorder rec;
  instrument::Comm c(comm, rec);
  opt.out = out;
  return run_sweep3d(deck, c, rec, opt);
}

// The numbers of an original Sweep3D report.
struct Report {
  std::vector<std::string> header;        // lines before the monitor
  std::vector<std::string> monitor;       // "  its = ..." lines verbatim
  std::vector<double> err;
  std::vector<long long> fixs;
  std::vector<std::string> balance_lines; // the 6 balance lines verbatim
  double source = 0, absorption = 0, leak[6] = {};
};

inline Report parse_report(const std::string& text) {
  Report r;
  std::istringstream in(text);
  std::string line;
  bool in_header = true;
  int balance = -1;
  while (std::getline(in, line)) {
    if (line.rfind("  its =", 0) == 0) {
      in_header = false;
      r.monitor.push_back(line);
      std::istringstream l(line);
      std::string tok;
      int its;
      double err;
      long long fixs;
      l >> tok >> tok >> its >> tok >> tok >> err >> tok >> tok >> fixs;
      r.err.push_back(err);
      r.fixs.push_back(fixs);
      continue;
    }
    if (line == " Balance quantities:") {
      balance = 0;
      r.balance_lines.push_back(line);
      continue;
    }
    if (balance >= 0 && balance < 5) {
      r.balance_lines.push_back(line);
      const std::string nums = line.substr(line.find(':') + 1);
      std::istringstream l(nums);
      if (balance == 0) l >> r.source;
      else if (balance == 1) l >> r.absorption;
      else l >> r.leak[2 * (balance - 2)] >> r.leak[2 * (balance - 2) + 1];
      ++balance;
      continue;
    }
    if (in_header) r.header.push_back(line);
  }
  return r;
}

inline double rel_diff(double a, double b) {
  const double s = std::max(std::abs(a), std::abs(b));
  return s == 0.0 ? 0.0 : std::abs(a - b) / s;
}

}  // namespace sweep3d::test
