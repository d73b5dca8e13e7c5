// machine-check: does a machine file meet the constraints of the models that read it?
//
//   machine-check FILE...
//
// For each file, reads the LogGP (loggp.*) and LogGPS (loggps.*) parameters it holds exactly
// as the apps' --machine does (loggp::read_params, loggps::read_params, which validate them:
// the constraints are listed in instrument/loggp.hpp and loggps.hpp) and prints one line per
// file saying what it found. The first file that fails ends the program with one line
// `machine-check: error: FILE:KEY: what was expected` and exit status 1. A file with neither
// kind of key is an error too (there is nothing to check). No MPI: run it directly.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "instrument/error.hpp"
#include "instrument/loggp.hpp"
#include "instrument/loggps.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/option_table.hpp"
#include "instrument/run_app.hpp"

namespace {

bool has_prefix(const instrument::MachineFile& f, const std::string& prefix) {
  for (const std::string& k : f.keys())
    if (k.rfind(prefix, 0) == 0) return true;
  return false;
}

std::string check(const std::string& path) {
  const auto f = instrument::MachineFile::read(path);
  std::string line = path + ":";
  const bool gp = has_prefix(f, "loggp."), gps = has_prefix(f, "loggps.");
  if (!gp && !gps) throw instrument::InputError(path, "", "no loggp.* or loggps.* keys to check");
  if (gp) {
    const auto p = instrument::loggp::read_params(f);
    line += " loggp ok (" + f.get_string("loggp.derivation").value_or("derivation not recorded") + ", " +
            std::to_string(p.bands.size()) + " bands, per-byte cost " +
            (p.per_byte == instrument::loggp::PerByteCost::cumulative ? "cumulative" : "band-rate") + ")";
  }
  if (gps) {
    const auto p = instrument::loggps::read_params(f);
    line += std::string(gp ? "," : "") + " loggps ok (" +
            f.get_string("loggps.derivation").value_or("derivation not recorded") + ", " +
            std::to_string(p.gap_steps.size()) + " gap steps)";
  }
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> files;
  instrument::OptionTable table("machine-check");
  table.positional_files("FILE", files, instrument::Arity::one_or_more,
                         "a machine file (loggps-probe's, or written by hand) to check");
  return instrument::run_serial_app(argc, argv, table, [&] {
    for (const std::string& f : files) std::printf("%s\n", check(f).c_str());
    return 0;
  });
}
