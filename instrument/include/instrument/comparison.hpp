// Comparison: the side-by-side table of measured and modelled times that every app prints at
// the end of a run and writes to /compare (and its model terms to /model/<model>/<term>).
//
// A row says which model predicted what, the measured and the modelled seconds, and where the
// model's inputs came from, because a model fed the same run's measurement proves nothing
// (docs/design.md: calibrate, then predict): e.g. source = "W_g calibrated on run np1.h5;
// machine: loggps.machine". Relative error is (modelled - measured) / measured, NaN when
// nothing was measured.
#pragma once
#include <cstddef>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace instrument {

// A total is what a model predicts as a whole (a run's or an iteration's time); a part is one
// term of its breakdown. Both are scored, apart: a model can predict totals well from parts
// that are each off (errors that cancel), and a reader must see both.
enum class RowKind { total, part };

struct ComparisonRow {
  std::string model;      // e.g. "loggp", "pipeline", "bsp"; the error summary groups by it
  std::string term;       // e.g. "T_iter", "T_56", "superstep 3"
  double measured = 0.0;  // seconds
  double modelled = 0.0;  // seconds
  std::string source;     // where the model's inputs came from
  RowKind kind = RowKind::total;

  double relative_error() const noexcept;  // (modelled - measured) / measured, NaN if measured == 0
};

// One predicted quantity of a model, with the equation it comes from
// (e.g. "Sundaram-Stukel & Vernon eq. 6"). Written to /model/<model>/<term>.
struct ModelTerm {
  std::string model;
  std::string term;
  double seconds = 0.0;
  std::string equation;
};

// Mean and max |relative error| of one model's rows of one kind (rows with NaN error are
// skipped).
struct ModelErrorSummary {
  std::string model;
  RowKind kind = RowKind::total;
  std::size_t rows = 0;  // rows with a finite relative error
  double mean_abs_error = 0.0;
  double max_abs_error = 0.0;
};

const char* row_kind_name(RowKind kind) noexcept;  // "total", "part"
RowKind row_kind_from(const std::string& name);   // throws std::invalid_argument

class Comparison {
 public:
  // `comparison.add({.model = "loggp", .term = "T_iter", .measured = m, .modelled = p,
  //                  .source = "W_g from warm-up; machine: loggps.machine"});`
  void add(ComparisonRow row);
  void add_model_term(ModelTerm term);

  const std::vector<ComparisonRow>& rows() const noexcept { return rows_; }
  const std::vector<ModelTerm>& model_terms() const noexcept { return terms_; }
  bool empty() const noexcept { return rows_.empty() && terms_.empty(); }

  // A comparison of a run made while the machine was busy (machine_load.hpp, mark_if_busy), at
  // another placement of its CPUs (core_round_trip.hpp) or on a slower CPU (uneven_cpus.hpp):
  // `line` says so under the printed tables, after any line marked before, and the results
  // file's /compare has reliable = 0.
  void mark_unreliable(const std::string& line) {
    unreliable_because_ += (unreliable_because_.empty() ? "" : "\n") + line;
  }
  bool reliable() const noexcept { return unreliable_because_.empty(); }
  const std::string& unreliable_because() const noexcept { return unreliable_because_; }

  // Per model and kind (totals, then parts), in first-seen order of the models.
  std::vector<ModelErrorSummary> error_summary() const;

  // The aligned table (model, term, measured, modelled, error %, source) and below it the
  // per-model mean / max |error|, totals and parts apart; then the unreliable line, if marked.
  void print(std::ostream& out) const;

 private:
  std::vector<ComparisonRow> rows_;
  std::vector<ModelTerm> terms_;
  std::string unreliable_because_;  // "" = reliable
};

}  // namespace instrument
