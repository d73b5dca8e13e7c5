#include "sweep3d/model/calibration.hpp"

#include <sstream>
#include <variant>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/results_file.hpp"
#include "sweep3d/model/model_ranges.hpp"

namespace sweep3d::model {

namespace {

const char* kGroup = "/sweep3d/calibration";

const instrument::AttributeValue& attribute(const instrument::Attributes& a, const std::string& key,
                                            const std::string& file) {
  const auto it = a.find(key);
  if (it == a.end())
    throw instrument::InputError(file, std::string(kGroup) + "/" + key,
                                 "this attribute (a sweep3d results file of this version; re-run the calibration)");
  return it->second;
}

std::string show(double x) {
  std::ostringstream s;
  s.precision(6);
  s << x;
  return s.str();
}

// Seconds in [lo, hi] (model_ranges.hpp); NaN and infinities are outside every range.
double seconds(const instrument::Attributes& a, const std::string& key, const std::string& file, double lo, double hi,
               const std::string& range) {
  const auto& v = attribute(a, key, file);
  double x = 0.0;
  if (const auto* d = std::get_if<double>(&v)) x = *d;
  else if (const auto* i = std::get_if<std::int64_t>(&v)) x = static_cast<double>(*i);
  else throw instrument::InputError(file, std::string(kGroup) + "/" + key, "a number of seconds " + range);
  if (!(x >= lo && x <= hi))
    throw instrument::InputError(file, std::string(kGroup) + "/" + key,
                                 "must be " + range + "; got " + show(x));
  return x;
}

int count(const instrument::Attributes& a, const std::string& key, const std::string& file, long long lo, long long hi,
          const std::string& range) {
  const auto& v = attribute(a, key, file);
  const auto* i = std::get_if<std::int64_t>(&v);
  if (!i || *i < lo || *i > hi || (key == "mmi" && (*i == 4 || *i == 5)))
    throw instrument::InputError(file, std::string(kGroup) + "/" + key,
                                 "must be an integer " + range + (i ? "; got " + std::to_string(*i) : ""));
  return static_cast<int>(*i);
}

}  // namespace

std::string WorkCalibration::describe() const {
  std::string s = file.empty() ? "this run itself, a consistency check, not a prediction" : file;
  s += " (" + std::to_string(nranks) + (nranks == 1 ? " rank" : " ranks") + ", mmi = " + std::to_string(mmi) +
       ", mk = " + std::to_string(mk) + ", " + kernel + ", " + std::to_string(threads) +
       (threads == 1 ? " thread)" : " threads)");
  return s;
}

void CalibrationSet::add(WorkCalibration c) {
  for (auto& e : entries_)
    if (e.mmi == c.mmi && e.threads == c.threads && e.kernel == c.kernel) {
      e = std::move(c);
      return;
    }
  entries_.push_back(std::move(c));
}

const WorkCalibration* CalibrationSet::find(int mmi, int threads, const std::string& kernel) const {
  for (const auto& e : entries_)
    if (e.mmi == mmi && e.threads == threads && e.kernel == kernel) return &e;
  return nullptr;
}

const WorkCalibration* CalibrationSet::find_mmi(int mmi) const {
  for (const auto& e : entries_)
    if (e.mmi == mmi) return &e;
  return nullptr;
}

std::string CalibrationSet::missing(int mmi, int threads, const std::string& kernel) const {
  std::string have;
  for (const auto& e : entries_) have += (have.empty() ? "" : "; ") + e.describe();
  return "no calibration at mmi = " + std::to_string(mmi) + " with " + std::to_string(threads) +
         (threads == 1 ? " thread" : " threads") + " and the " + kernel + " kernel (W_g depends on them; have: " +
         (have.empty() ? "none" : have) + "): calibrate with e.g. `mpiexec -n 1 sweep3d DECK --mmi " +
         std::to_string(mmi) + " --mk MK --threads " + std::to_string(threads) + " --results cal.h5`";
}

WorkCalibration read_calibration(const std::string& file) {
  instrument::require_regular_input(file, "the calibration results file");
  return calibration_from(instrument::read_results(file), file);
}

WorkCalibration calibration_from(const instrument::ResultsDocument& doc, const std::string& file) {
  const auto g = doc.extras.group_attributes.find(kGroup);
  if (doc.run.info.app != "sweep3d" || g == doc.extras.group_attributes.end())
    throw instrument::InputError(file, kGroup, "a sweep3d results file with a calibration");
  const instrument::Attributes& a = g->second;
  WorkCalibration c;
  const std::string wg = "in [1e-12, 1e-3] s per cell-angle", per_cell = "in [0, 1e-3] s per iteration and cell";
  c.wg_s = seconds(a, "wg_s", file, kMinWg, kMaxWg, wg);
  c.wg_fixup_s = seconds(a, "wg_fixup_s", file, kMinWg, kMaxWg, wg);
  c.w_before_s_per_cell = seconds(a, "w_before_s_per_cell", file, 0.0, kMaxWorkPerCell, per_cell);
  c.w_after_s_per_cell = seconds(a, "w_after_s_per_cell", file, 0.0, kMaxWorkPerCell, per_cell);
  c.mmi = count(a, "mmi", file, 1, 6, "1, 2, 3 or 6 (angles per block)");
  c.mk = count(a, "mk", file, 1, kMaxExtent, "in [1, 16777216] (k-planes per block)");
  c.threads = count(a, "threads", file, 1, kMaxThreads, "in [1, 64] (OpenMP threads per rank)");
  const auto* kernel = std::get_if<std::string>(&attribute(a, "kernel", file));
  if (!kernel || (*kernel != "reference" && *kernel != "sse2" && *kernel != "avx2" && *kernel != "avx512"))
    throw instrument::InputError(file, std::string(kGroup) + "/kernel",
                                 "must be the kernel's name: reference, sse2, avx2 or avx512" +
                                     (kernel ? "; got " + instrument::quote_token(*kernel) : std::string()));
  c.kernel = *kernel;
  c.file = file;
  c.nranks = doc.run.info.nranks;
  return c;
}

CalibrationSet read_calibrations(const std::vector<std::string>& files) {
  CalibrationSet set;
  for (const auto& f : files) set.add(read_calibration(f));
  return set;
}

}  // namespace sweep3d::model
