// Calibration: the per-work costs a model takes from earlier runs (docs/design.md: calibrate
// on small runs, predict others).
//
// W_g, the sweep's local work per cell-angle, depends strongly on the angle blocking mmi: the
// kernel vectorises over a block's mmi angles, so W_g falls several-fold from mmi = 1 to
// mmi = 6 (sweep3d/BENCHMARKS.md); and on the threads per rank and the kernel variant. It
// depends little on mk. So a calibration holds W_g per (mmi, threads, kernel), and a
// prediction at a blocking no calibration covers is refused with the command that makes one,
// rather than made several-fold wrong. Several runs (one per mmi) make one set.
#pragma once
#include <mpi.h>

#include <string>
#include <vector>

#include "instrument/results_file.hpp"
#include "sweep3d/model/face_work.hpp"

namespace sweep3d::model {

// What one run measured, per unit of work, for the models of later runs.
struct WorkCalibration {
  int mmi = 0, mk = 0;     // the blocking it ran with
  int threads = 1;         // OpenMP threads per rank
  std::string kernel;      // "reference" or the fast kernel's instruction set
  double wg_s = 0.0;       // the sweep's local work per cell-angle, iterations without fixups
  double wg_fixup_s = 0.0; // the same with fixups (= wg_s if the run had none)
  double w_before_s_per_cell = 0.0;  // the source, per iteration and local cell
  double w_after_s_per_cell = 0.0;   // the flux error, per iteration and local cell
  // Each face loop's cost per face value and the share of W_g the run's faces took
  // (face_work.hpp, from face_copy_probe.hpp). Not priced (faces.priced false) in a file
  // written before 2026-12-06, from a run of more than one rank or with a reflective I or J
  // face (W_g's faces are then not the vacuum edge's alone): the models then take W_g whole,
  // and say why (faces_why).
  FaceWork faces;
  std::string faces_why;
  std::string file;        // "" for the run itself
  int nranks = 1;
  std::string unreliable_because;  // its run's own mark (calibration_unreliable_because), "" if none
  double speed_check_ns = 0.0;     // its run's /sweep3d speed_check_ns (0: a file from before the check)

  std::string describe() const;  // e.g. "cal.h5 (1 rank, mmi = 3, mk = 10, avx512, 1 thread)"
};

class CalibrationSet {
 public:
  void add(WorkCalibration c);  // a later entry for the same key replaces an earlier one
  bool empty() const noexcept { return entries_.empty(); }
  const std::vector<WorkCalibration>& entries() const noexcept { return entries_; }

  // The entry for a run at this mmi, threads and kernel, or nullptr.
  const WorkCalibration* find(int mmi, int threads, const std::string& kernel) const;
  // Any entry at this mmi (for projections that run nothing: threads and kernel as calibrated).
  const WorkCalibration* find_mmi(int mmi) const;
  // Why nothing fits, and how to make a calibration that does.
  std::string missing(int mmi, int threads, const std::string& kernel) const;

 private:
  std::vector<WorkCalibration> entries_;
};

// Reads /sweep3d/calibration from earlier sweep3d results files; InputError naming the file
// and the attribute when one is not a sweep3d results file of this version.
WorkCalibration read_calibration(const std::string& results_file);
CalibrationSet read_calibrations(const std::vector<std::string>& results_files);
// The same from a results document already read (e.g. from bytes one rank read for all).
WorkCalibration calibration_from(const instrument::ResultsDocument& doc, const std::string& results_file);
// Collective over comm: rank 0 reads each file for every rank (one version of a file that
// changes during the run: ranks choose the blocking from it, and would otherwise deadlock).
CalibrationSet read_calibrations_shared(const std::vector<std::string>& results_files, MPI_Comm comm);

}  // namespace sweep3d::model
