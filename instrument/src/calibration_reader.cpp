// calibration_reader.hpp: the file, its group, then each attribute by type and range.
#include "instrument/calibration_reader.hpp"

#include <bit>
#include <filesystem>
#include <sstream>
#include <utility>
#include <variant>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/memory_budget.hpp"
#include "instrument/shared_input.hpp"

namespace instrument {

std::string show_real(double x) {
  std::ostringstream s;
  s.precision(6);
  s << x;
  return s.str();
}

std::string show_whole(std::int64_t x) {
  // 2^40 reads as a limit; 1099511627776 does not.
  if (x >= (std::int64_t{1} << 20) && std::has_single_bit(static_cast<std::uint64_t>(x)))
    return "2^" + std::to_string(std::countr_zero(static_cast<std::uint64_t>(x)));
  return std::to_string(x);
}

ResultsDocument read_calibration_file(const std::string& path, const CalibrationGroup& group) {
  // As read_results: the file and its parse fit in memory, or one line says so (the
  // error_code overloads leave a symbolic-link loop to read_input_file's one line).
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) {
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec) require_memory(2 * static_cast<std::uint64_t>(size), path, "", "reading the " + group.app + " calibration");
  }
  return read_results_bytes(read_input_file(path, group.file_kind, kMaxResultsFileBytes), path);
}

std::vector<ResultsDocument> read_calibration_files_shared(const std::vector<std::string>& paths,
                                                           const CalibrationGroup& group, MPI_Comm comm, int root) {
  std::vector<ResultsDocument> docs;
  for (const std::string& path : paths)
    docs.push_back(read_results_bytes(
        read_input_file_shared(path, group.file_kind, kMaxResultsFileBytes, comm, root), path));
  return docs;
}

CalibrationReader::CalibrationReader(const ResultsDocument& doc, CalibrationGroup group, std::string path)
    : doc_(doc), group_(std::move(group)), path_(std::move(path)) {
  const auto g = doc_.extras.group_attributes.find(group_.group);
  if (doc_.run.info.app != group_.app)
    throw InputError(path_, group_.group,
                     "a " + group_.app + " results file with a calibration (this one is from " +
                         quote_token(doc_.run.info.app) + ")");
  if (g == doc_.extras.group_attributes.end())
    throw InputError(path_, group_.group,
                     "a " + group_.app + " results file with a calibration (this one has none; re-run it)");
  attributes_ = &g->second;
}

bool CalibrationReader::has(const std::string& key) const { return attributes_->count(key) != 0; }

void CalibrationReader::refuse(const std::string& key, const std::string& expected) const {
  throw InputError(path_, group_.group + "/" + key, expected);
}

const AttributeValue& CalibrationReader::attribute(const std::string& key) const {
  const auto it = attributes_->find(key);
  if (it == attributes_->end())
    refuse(key, "this attribute (a " + group_.app + " results file of this version; re-run it)");
  return it->second;
}

double CalibrationReader::number(const std::string& key, double lo, double hi, bool zero_too,
                                 const std::string& what) const {
  const AttributeValue& v = attribute(key);
  const std::string range = (zero_too ? ", 0 or in [" : " in [") + show_real(lo) + ", " + show_real(hi) + "]";
  double x = 0;
  if (const auto* d = std::get_if<double>(&v)) x = *d;
  else if (const auto* i = std::get_if<std::int64_t>(&v)) x = static_cast<double>(*i);
  else refuse(key, "a number, " + what + "," + range.substr(zero_too ? 1 : 0));
  if (!((x >= lo && x <= hi) || (zero_too && x == 0))) refuse(key, what + range + "; got " + show_real(x));
  return x;
}

double CalibrationReader::real(const std::string& key, double lo, double hi, const std::string& what) const {
  return number(key, lo, hi, false, what);
}

double CalibrationReader::zero_or_real(const std::string& key, double lo, double hi, const std::string& what) const {
  return number(key, lo, hi, true, what);
}

std::int64_t CalibrationReader::whole(const std::string& key, std::int64_t lo, std::int64_t hi,
                                      const std::string& what) const {
  const auto* i = std::get_if<std::int64_t>(&attribute(key));
  if (!i || *i < lo || *i > hi)
    refuse(key, "an integer in [" + show_whole(lo) + ", " + show_whole(hi) + "] (" + what + ")" +
                    (i ? "; got " + std::to_string(*i) : std::string()));
  return *i;
}

std::string CalibrationReader::text(const std::string& key, const std::string& what) const {
  const auto* s = std::get_if<std::string>(&attribute(key));
  if (!s) refuse(key, "a string (" + what + ")");
  return *s;
}

std::string CalibrationReader::choice(const std::string& key, const std::vector<std::string>& choices) const {
  std::string listed;  // "a, b or c"
  for (std::size_t k = 0; k < choices.size(); ++k)
    listed += (k == 0 ? "" : k + 1 == choices.size() ? " or " : ", ") + choices[k];
  const std::string s = text(key, listed);
  for (const std::string& c : choices)
    if (s == c) return s;
  refuse(key, listed + "; got " + quote_token(s));
}

double CalibrationReader::real_or(const std::string& key, double fallback, double lo, double hi,
                                  const std::string& what) const {
  return has(key) ? real(key, lo, hi, what) : fallback;
}

double CalibrationReader::zero_or_real_or(const std::string& key, double fallback, double lo, double hi,
                                          const std::string& what) const {
  return has(key) ? zero_or_real(key, lo, hi, what) : fallback;
}

std::int64_t CalibrationReader::whole_or(const std::string& key, std::int64_t fallback, std::int64_t lo,
                                         std::int64_t hi, const std::string& what) const {
  return has(key) ? whole(key, lo, hi, what) : fallback;
}

std::string CalibrationReader::text_or(const std::string& key, const std::string& fallback,
                                       const std::string& what) const {
  return has(key) ? text(key, what) : fallback;
}

std::string calibration_unreliable_because(const ResultsDocument& doc) {
  const std::string& all = doc.comparison.unreliable_because();
  std::string first = all.substr(0, all.find('\n'));
  // Said of the calibration's own comparison; this run's line says what it means here.
  for (const char* tail : {": the measured-vs-modelled comparison is unreliable",
                           "; the measured-vs-modelled comparison is unreliable"}) {
    const std::string t = tail;
    if (first.size() > t.size() && first.compare(first.size() - t.size(), t.size(), t) == 0) {
      first.resize(first.size() - t.size());
      break;
    }
  }
  return first;
}

std::string calibration_unreliable_line(const std::string& file, const std::string& because, const std::string& user) {
  if (because.empty()) return "";
  return "calibration: " + file + ", whose constants this " + user + " uses, was marked unreliable when it ran: " +
         because;
}

void mark_if_calibration_unreliable(Comparison& comparison, const std::string& file, const std::string& because) {
  if (!because.empty()) comparison.mark_unreliable(calibration_unreliable_line(file, because, "comparison"));
}

}  // namespace instrument
