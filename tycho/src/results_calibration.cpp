// /tycho/calibration, written and read (results_calibration.hpp).
#include "tycho/results_calibration.hpp"

#include <cmath>
#include <sstream>
#include <variant>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/results_file.hpp"
#include "tycho/run_report.hpp"

namespace tycho {

namespace {

const char* const kGroup = "/tycho/calibration";
constexpr double kMinTelemSeconds = 1e-10, kMaxTelemSeconds = 1.0;

std::string where(const std::string& key) { return std::string(kGroup) + "/" + key; }

const instrument::AttributeValue& attribute(const instrument::Attributes& a, const std::string& key,
                                            const std::string& file) {
  const auto it = a.find(key);
  if (it == a.end())
    throw instrument::InputError(file, where(key), "this attribute (a tycho results file of this version; re-run it)");
  return it->second;
}

std::string show(double x) {
  std::ostringstream s;
  s.precision(6);
  s << x;
  return s.str();
}

// A number in [lo, hi]: a calibration constant outside what any machine measures (T_elem of
// 1e300 s, or 1e-300 s) is damage or a mistake, and would run a whole sweep before it failed.
double within(const instrument::Attributes& a, const std::string& key, const std::string& file, double lo, double hi,
              const std::string& what) {
  const auto& v = attribute(a, key, file);
  double x = 0;
  const std::string range = "in [" + show(lo) + ", " + show(hi) + "]";
  if (const auto* d = std::get_if<double>(&v)) x = *d;
  else if (const auto* i = std::get_if<std::int64_t>(&v)) x = static_cast<double>(*i);
  else throw instrument::InputError(file, where(key), "a number, " + what + ", " + range);
  if (!(x >= lo && x <= hi)) throw instrument::InputError(file, where(key), what + " " + range + "; got " + show(x));
  return x;
}

int whole(const instrument::Attributes& a, const std::string& key, const std::string& file, std::int64_t lo,
          std::int64_t hi, const std::string& what) {
  const auto* i = std::get_if<std::int64_t>(&attribute(a, key, file));
  if (!i || *i < lo || *i > hi)
    throw instrument::InputError(file, where(key),
                                 "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "] (" + what +
                                     ")" + (i ? "; got " + std::to_string(*i) : std::string()));
  return static_cast<int>(*i);
}

std::string text(const instrument::Attributes& a, const std::string& key, const std::string& file,
                 const std::string& what) {
  const auto* s = std::get_if<std::string>(&attribute(a, key, file));
  if (!s) throw instrument::InputError(file, where(key), "a string (" + what + ")");
  return *s;
}

}  // namespace

const char* scheme_option_name(Scheme s) { return s == Scheme::step ? "step" : "ld"; }

TychoCalibration calibration_of(const RunOptions& o, const RunResult& r) {
  TychoCalibration c;
  c.e_p = static_cast<double>(r.mesh_cells) / r.ranks;
  c.t_elem_s = measured_t_elem(r);
  c.groups = r.problem.groups;
  c.directions = static_cast<int>(r.problem.quadrature.size());
  c.scheme = scheme_option_name(r.problem.scheme);
  c.threads = o.sweep.threads;
  c.mcps = r.mcps;
  c.mesh = o.mesh_path;
  return c;
}

void add_calibration(const TychoCalibration& c, instrument::ResultsExtras& x) {
  x.set_attribute(kGroup, "e_p", c.e_p);
  x.set_attribute(kGroup, "t_elem_s", c.t_elem_s);
  x.set_attribute(kGroup, "groups", static_cast<std::int64_t>(c.groups));
  x.set_attribute(kGroup, "directions", static_cast<std::int64_t>(c.directions));
  x.set_attribute(kGroup, "scheme", c.scheme);
  x.set_attribute(kGroup, "threads", static_cast<std::int64_t>(c.threads));
  if (c.mcps > 0) x.set_attribute(kGroup, "mcps", c.mcps);
  x.set_attribute(kGroup, "mesh", c.mesh);
  x.set_attribute(kGroup, "description",
                  std::string("T_elem = every rank's time in the cell solves of its tasks, summed, / every rank's "
                              "cell-angle tasks (each all groups), at E_p = mesh cells / ranks, with these groups, "
                              "directions, scheme, threads per rank and MCPS"));
}

TychoCalibration read_tycho_calibration(const std::string& path) {
  instrument::require_regular_input(path, "the calibration results file");
  return tycho_calibration_from(instrument::read_results(path), path);
}

TychoCalibration tycho_calibration_from(const instrument::ResultsDocument& doc, const std::string& path) {
  const auto g = doc.extras.group_attributes.find(kGroup);
  if (doc.run.info.app != "tycho" || g == doc.extras.group_attributes.end())
    throw instrument::InputError(path, kGroup,
                                 "a tycho results file with a calibration (this one is from " +
                                     instrument::quote_token(doc.run.info.app) + ")");
  const instrument::Attributes& a = g->second;
  TychoCalibration c;
  c.e_p = within(a, "e_p", path, 1, 0x1p40, "cells per rank");
  // A cell-angle task of 1 to 64 groups takes tens of ns to tens of us on any CPU of today,
  // 100x more under a sanitizer or valgrind: [0.1 ns, 1 s] leaves room for both.
  c.t_elem_s = within(a, "t_elem_s", path, kMinTelemSeconds, kMaxTelemSeconds, "seconds per cell-angle task");
  c.groups = whole(a, "groups", path, 1, 64, "energy groups");
  c.directions = whole(a, "directions", path, 1, 1 << 20, "directions of the quadrature");
  c.scheme = text(a, "scheme", path, "ld or step");
  if (c.scheme != "ld" && c.scheme != "step")
    throw instrument::InputError(path, where("scheme"), "ld or step; got " + instrument::quote_token(c.scheme));
  c.threads = whole(a, "threads", path, 1, 256, "OpenMP threads per rank");
  c.mesh = text(a, "mesh", path, "the mesh file of the calibration run");
  if (a.count("mcps")) {
    const auto* m = std::get_if<std::int64_t>(&a.at("mcps"));
    if (!m || *m < 1 || *m > (std::int64_t{1} << 40))
      throw instrument::InputError(path, where("mcps"),
                                   "an integer in [1, 2^40] (the run's MCPS)" +
                                       (m ? "; got " + std::to_string(*m) : std::string()));
    c.mcps = *m;
  }
  c.path = path;
  return c;
}

}  // namespace tycho
