// One reader of the calibration constants an app keeps in its results file
// (/sweep3d/calibration, /tycho/calibration, /multigrid/calibration), for every app: it
// checks the file is that app's results file, then gives each attribute typed and
// range-checked. An app's own reader is a list of its fields over this one.
//
// Every refusal is InputError(file, "<group>/<key>", what was expected), in one wording:
//   missing      "this attribute (a tycho results file of this version; re-run it)"
//   real         "seconds per cell-angle task in [1e-10, 1]; got 1e+300"
//                "a number, seconds per cell-angle task, in [1e-10, 1]"      (not a number)
//   whole        "an integer in [1, 64] (energy groups); got 0"            (or not an integer)
//   text         "a string (the mesh file of the calibration run)"
//   choice       "ld or step; got \"foo\""
// Why range-checked: a constant outside what any machine measures (1e300 s, 1e-300 s, NaN)
// is damage or a mistake, and would run a whole job before the model printed "+inf%".
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "instrument/results_file.hpp"

namespace instrument {

// Whose calibration, and where in the file.
struct CalibrationGroup {
  std::string app;        // the app a calibration file must come from ("tycho")
  std::string group;      // the group of its constants ("/tycho/calibration")
  std::string file_kind;  // names the file in open and read errors ("the calibration results file")
};

// Reads `path` whole (input_file.hpp's checks, naming it group.file_kind) and parses it.
ResultsDocument read_calibration_file(const std::string& path, const CalibrationGroup& group);

// Collective over comm: root reads each file of the list once, every rank parses the same
// bytes, so no two ranks can see two versions of a file that changes during the run. A bad
// file throws the same InputError on every rank. Files are read in the order given; one
// named twice is read twice (a later calibration of the same key replaces an earlier one).
std::vector<ResultsDocument> read_calibration_files_shared(const std::vector<std::string>& paths,
                                                           const CalibrationGroup& group, MPI_Comm comm,
                                                           int root = 0);

class CalibrationReader {
 public:
  // Refuses a document from another app, or one without the group, naming the group.
  // `doc` must outlive the reader.
  CalibrationReader(const ResultsDocument& doc, CalibrationGroup group, std::string path);

  bool has(const std::string& key) const;

  // A number (a stored integer is taken as one) in [lo, hi]; NaN and infinities are outside
  // every range. `what` says what it is, with its unit in words ("seconds per cell").
  double real(const std::string& key, double lo, double hi, const std::string& what) const;
  // The same, where 0 also means something (a phase the run did not have).
  double zero_or_real(const std::string& key, double lo, double hi, const std::string& what) const;
  // A whole number stored as one, in [lo, hi].
  std::int64_t whole(const std::string& key, std::int64_t lo, std::int64_t hi, const std::string& what) const;
  std::string text(const std::string& key, const std::string& what) const;
  // Text that must be one of `choices`.
  std::string choice(const std::string& key, const std::vector<std::string>& choices) const;

  // Optional attributes (older files lack them): `fallback` when absent, checked when present.
  double real_or(const std::string& key, double fallback, double lo, double hi, const std::string& what) const;
  double zero_or_real_or(const std::string& key, double fallback, double lo, double hi,
                         const std::string& what) const;
  std::int64_t whole_or(const std::string& key, std::int64_t fallback, std::int64_t lo, std::int64_t hi,
                        const std::string& what) const;
  std::string text_or(const std::string& key, const std::string& fallback, const std::string& what) const;

  // A check of the app's own (a value the others forbid, a mismatch with this run), in the
  // same form: InputError(path, "<group>/<key>", expected).
  [[noreturn]] void refuse(const std::string& key, const std::string& expected) const;

  const ResultsDocument& document() const noexcept { return doc_; }
  const std::string& path() const noexcept { return path_; }

 private:
  const AttributeValue& attribute(const std::string& key) const;
  double number(const std::string& key, double lo, double hi, bool zero_too, const std::string& what) const;

  const ResultsDocument& doc_;
  CalibrationGroup group_;
  std::string path_;
  const Attributes* attributes_ = nullptr;
};

// A calibration file whose own run marked its comparison unreliable (/compare@reliable = 0: a
// busy machine, a rank's CPU slower than another's, another placement of its CPUs) gave
// constants that are off by as much as its run was: a 1.35x slower rank's C1 is 1.35x too
// large in every prediction made from it. The run that prices with it says so under its
// table, as it says it of itself (Comparison::mark_unreliable), and its results file and the
// campaign's count of marked runs carry it.
//
// The first of the file's reasons without its closing words ("...: the measured-vs-modelled
// comparison is unreliable"), "" when the file's run was reliable or was not judged.
std::string calibration_unreliable_because(const ResultsDocument& doc);
// "calibration: FILE, whose constants this USER uses, was marked unreliable when it ran:
// REASON" ("comparison" in a run's table, "projection" in a model tool's), "" when `because` is.
std::string calibration_unreliable_line(const std::string& file, const std::string& because, const std::string& user);
// Marks `comparison` with that line when `because` is not empty.
void mark_if_calibration_unreliable(Comparison& comparison, const std::string& file, const std::string& because);

// How a range's bounds are written in these messages: a real with 6 significant digits
// ("1.09951e+12"), a whole number in full, or as 2^k from 2^20 on ("2^40").
std::string show_real(double x);
std::string show_whole(std::int64_t x);

}  // namespace instrument
