// TextTable: aligned plain-text tables for the end-of-run reports (private helper).
#pragma once
#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

namespace instrument {

enum class Align { Left, Right };

class TextTable {
 public:
  TextTable(std::vector<std::string> header, std::vector<Align> align)
      : header_(std::move(header)), align_(std::move(align)) {}
  void add_row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }

  // Columns separated by two spaces, a dashed rule under the header; the last column is
  // not padded (it is often long free text).
  void print(std::ostream& out) const {
    std::vector<std::size_t> width(header_.size(), 0);
    auto measure = [&](const std::vector<std::string>& r) {
      for (std::size_t j = 0; j < r.size() && j < width.size(); ++j)
        width[j] = std::max(width[j], r[j].size());
    };
    measure(header_);
    for (const auto& r : rows_) measure(r);
    auto line = [&](const std::vector<std::string>& r) {
      std::string s;
      for (std::size_t j = 0; j < width.size(); ++j) {
        const std::string cell = j < r.size() ? r[j] : "";
        const std::string pad(width[j] - cell.size(), ' ');
        const bool last = j + 1 == width.size();
        if (j > 0) s += "  ";
        if (align_[j] == Align::Right)
          s += pad + cell;
        else
          s += last ? cell : cell + pad;
      }
      out << s << '\n';
    };
    line(header_);
    std::size_t total = 0;
    for (auto w : width) total += w + 2;
    out << std::string(total > 2 ? total - 2 : 0, '-') << '\n';
    for (const auto& r : rows_) line(r);
  }

 private:
  std::vector<std::string> header_;
  std::vector<Align> align_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace instrument
