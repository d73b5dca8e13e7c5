#include "sweep3d/model/calibration.hpp"

#include "instrument/calibration_reader.hpp"
#include "instrument/results_file.hpp"
#include "instrument/speed_check.hpp"
#include "sweep3d/model/model_ranges.hpp"

namespace sweep3d::model {

namespace {

const instrument::CalibrationGroup kCalibration{"sweep3d", "/sweep3d/calibration", "the calibration results file"};

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
  return calibration_from(instrument::read_calibration_file(file, kCalibration), file);
}

WorkCalibration calibration_from(const instrument::ResultsDocument& doc, const std::string& file) {
  const instrument::CalibrationReader a(doc, kCalibration, file);
  WorkCalibration c;
  // Ranges: model_ranges.hpp.
  const std::string wg = "seconds per cell-angle", per_cell = "seconds per iteration and cell";
  c.wg_s = a.real("wg_s", kMinWg, kMaxWg, wg);
  c.wg_fixup_s = a.real("wg_fixup_s", kMinWg, kMaxWg, wg);
  c.w_before_s_per_cell = a.real("w_before_s_per_cell", 0.0, kMaxWorkPerCell, per_cell);
  c.w_after_s_per_cell = a.real("w_after_s_per_cell", 0.0, kMaxWorkPerCell, per_cell);
  c.mmi = static_cast<int>(a.whole("mmi", 1, 6, "angles per block"));
  if (c.mmi == 4 || c.mmi == 5)  // blocks divide the 6 angles of an octant
    a.refuse("mmi", "an integer 1, 2, 3 or 6 (angles per block); got " + std::to_string(c.mmi));
  c.mk = static_cast<int>(a.whole("mk", 1, kMaxExtent, "k-planes per block"));
  c.threads = static_cast<int>(a.whole("threads", 1, kMaxThreads, "OpenMP threads per rank"));
  c.kernel = a.choice("kernel", {"reference", "sse2", "avx2", "avx512"});
  // A face value's loop costs a few ns on any CPU of today, 100x more under a sanitizer.
  const std::string per_value = "seconds per face value";
  if (a.has("face_edge_share_s")) {
    const char* axis[2] = {"i", "j"};
    for (int k = 0; k < 2; ++k) {
      const std::string x = axis[k];
      c.faces.fill_s[k] = a.real("face_fill_" + x + "_s", 0.0, kMaxFaceValueSeconds, per_value);
      c.faces.leak_s[k] = a.real("face_leak_" + x + "_s", 0.0, kMaxFaceValueSeconds, per_value);
      c.faces.unpack_s[k] = a.real("face_unpack_" + x + "_s", 0.0, kMaxFaceValueSeconds, per_value);
      c.faces.pack_s[k] = a.real("face_pack_" + x + "_s", 0.0, kMaxFaceValueSeconds, per_value);
    }
    // Less than W_g itself: the cells' part left must be positive.
    c.faces.edge_share_s = a.real("face_edge_share_s", 0.0, 0.999 * c.wg_s, "seconds per cell-angle of W_g its faces took");
    c.faces.priced = true;
  } else {
    c.faces_why = a.text_or("face_why_not", "the file is older than the faces' probe", "why its faces are not priced");
  }
  c.file = file;
  c.nranks = doc.run.info.nranks;
  c.unreliable_because = instrument::calibration_unreliable_because(doc);
  c.speed_check_ns = instrument::calibration_speed_check_ns(doc, "sweep3d", "/sweep3d", file);
  return c;
}

CalibrationSet read_calibrations(const std::vector<std::string>& files) {
  CalibrationSet set;
  for (const auto& f : files) set.add(read_calibration(f));
  return set;
}

CalibrationSet read_calibrations_shared(const std::vector<std::string>& files, MPI_Comm comm) {
  const std::vector<instrument::ResultsDocument> docs = instrument::read_calibration_files_shared(files, kCalibration, comm);
  CalibrationSet set;
  for (std::size_t k = 0; k < docs.size(); ++k) set.add(calibration_from(docs[k], files[k]));
  return set;
}

}  // namespace sweep3d::model
