// Fortran output editing as gfortran does it, so our report reads like the original's:
// list-directed records (WRITE(*,*)) and the few edit descriptors Sweep3D uses (Fw.d, Iw,
// 1PGw.d).
//
// gfortran list-directed rules (spec §8): a record starts with one blank; a blank separator
// precedes every item except between two adjacent character items; a default integer is
// right-justified in 11 columns; a REAL(8) takes 25 columns with 17 significant digits, in
// fixed form followed by 5 blanks when 0.1 <= |x| < 1e17 or x == 0, otherwise in the form
// d.ddddddddddddddddE+xxx. 17 significant digits round-trip binary64, so a printed value
// parses back to the same double.
#pragma once
#include <string>
#include <string_view>

namespace sweep3d::fortran {

// One list-directed record, built item by item: ListRecord().text("its =").integer(3).str().
class ListRecord {
 public:
  ListRecord& text(std::string_view s);
  ListRecord& integer(long long v);
  ListRecord& real(double v);
  const std::string& str() const noexcept { return line_; }

 private:
  void separate(bool is_text);
  std::string line_ = " ";
  bool first_ = true;
  bool last_was_text_ = false;
};

// The 25-column list-directed field of a REAL(8) (no separator).
std::string list_real(double v);
// The 11-column list-directed field of a default INTEGER (no separator).
std::string list_integer(long long v);

// Fw.d, Iw and 1PGw.d (d >= 1) edit descriptors; a value that does not fit prints w '*'.
std::string edit_f(double v, int w, int d);
std::string edit_i(long long v, int w);
std::string edit_1pg(double v, int w, int d);

}  // namespace sweep3d::fortran
