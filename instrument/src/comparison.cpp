#include "instrument/comparison.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <ostream>
#include <stdexcept>

#include "instrument/text_split.hpp"
#include "text_table.hpp"

namespace instrument {

double ComparisonRow::relative_error() const noexcept {
  if (measured == 0.0) return std::numeric_limits<double>::quiet_NaN();
  return (modelled - measured) / measured;
}

void Comparison::add(ComparisonRow row) { rows_.push_back(std::move(row)); }

void Comparison::add_model_term(ModelTerm term) { terms_.push_back(std::move(term)); }

const char* row_kind_name(RowKind kind) noexcept { return kind == RowKind::total ? "total" : "part"; }

RowKind row_kind_from(const std::string& name) {
  if (name == "total") return RowKind::total;
  if (name == "part") return RowKind::part;
  throw std::invalid_argument("a comparison row kind is 'total' or 'part', not '" + name + "'");
}

std::vector<ModelErrorSummary> Comparison::error_summary() const {
  std::vector<ModelErrorSummary> out;
  std::vector<std::string> models;
  for (const auto& r : rows_)
    if (std::find(models.begin(), models.end(), r.model) == models.end()) models.push_back(r.model);
  for (const auto& m : models)
    for (RowKind k : {RowKind::total, RowKind::part})
      if (std::any_of(rows_.begin(), rows_.end(), [&](const auto& r) { return r.model == m && r.kind == k; }))
        out.push_back(ModelErrorSummary{m, k, 0, 0.0, 0.0});
  for (const auto& r : rows_) {
    const auto it = std::find_if(out.begin(), out.end(),
                                 [&](const auto& s) { return s.model == r.model && s.kind == r.kind; });
    const double e = std::abs(r.relative_error());
    if (!std::isfinite(e)) continue;
    it->mean_abs_error += e;  // a sum until the end
    it->max_abs_error = std::max(it->max_abs_error, e);
    ++it->rows;
  }
  for (auto& s : out)
    s.mean_abs_error = s.rows ? s.mean_abs_error / static_cast<double>(s.rows) : 0.0;
  return out;
}

namespace {
std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", s);
  return buf;
}
// Signed for an error (over- or under-prediction), unsigned for a magnitude.
std::string percent(double fraction, bool sign = true) {
  if (!std::isfinite(fraction)) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, sign ? "%+.1f%%" : "%.1f%%", 100.0 * fraction);
  return buf;
}
std::vector<std::string> clauses(const std::string& source) { return split(source, "; "); }

// The leading "; "-separated clauses every row's source shares (none for a single row).
std::size_t common_clauses(const std::vector<ComparisonRow>& rows) {
  if (rows.size() < 2) return 0;
  std::vector<std::string> common = clauses(rows.front().source);
  for (const auto& r : rows) {
    const auto c = clauses(r.source);
    std::size_t k = 0;
    while (k < common.size() && k < c.size() && c[k] == common[k]) ++k;
    common.resize(k);
  }
  return common.size();
}

std::string join(const std::vector<std::string>& parts, std::size_t from, std::size_t to) {
  std::string s;
  for (std::size_t k = from; k < to && k < parts.size(); ++k) s += (k > from ? "; " : "") + parts[k];
  return s;
}
}  // namespace

void Comparison::print(std::ostream& out) const {
  out << "Measured vs modelled (seconds; error = (modelled - measured) / measured)\n";
  // What every row's model was fed is said once, above the table; each row keeps the rest.
  const std::size_t shared = common_clauses(rows_);
  if (shared > 0) out << "Inputs of every row: " << join(clauses(rows_.front().source), 0, shared) << "\n";
  TextTable t({"model", "term", "measured [s]", "modelled [s]", "error", shared > 0 ? "also" : "inputs from"},
              {Align::Left, Align::Left, Align::Right, Align::Right, Align::Right, Align::Left});
  for (const auto& r : rows_) {
    const std::string rest = join(clauses(r.source), shared, std::string::npos);
    t.add_row({r.model, r.term, seconds(r.measured), seconds(r.modelled), percent(r.relative_error()),
               rest.empty() ? "-" : rest});
  }
  t.print(out);
  const auto summary = error_summary();
  const auto unreliable_line = [&] {
    if (!reliable()) out << unreliable_because_ << "\n";
  };
  if (summary.empty()) return unreliable_line();
  out << "\nError per model (|relative error| over its rows; totals and breakdown parts apart)\n";
  TextTable s({"model", "rows", "kind", "mean |error|", "max |error|"},
              {Align::Left, Align::Right, Align::Left, Align::Right, Align::Right});
  for (const auto& m : summary)
    s.add_row({m.model, std::to_string(m.rows), m.kind == RowKind::total ? "totals" : "parts",
               m.rows ? percent(m.mean_abs_error, false) : "n/a", m.rows ? percent(m.max_abs_error, false) : "n/a"});
  s.print(out);
  unreliable_line();
}

}  // namespace instrument
