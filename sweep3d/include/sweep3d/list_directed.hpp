// Fortran list-directed input (READ(unit,*)) for the original deck, with the original's
// semantics (spec §1): values separated by blanks and/or one comma; each READ starts at a
// new line and takes as many lines as it needs; `r*c` repeats a value; `/` ends a READ.
//
// Where Fortran would silently go wrong we stop with one clear message instead:
// a null value (`,,` or `r*`) or a `/` before all fields are read would leave a variable
// uninitialised; a real in an integer field is a Fortran run-time error; values left on the
// line that completes a READ, and lines after the last READ, are refused as extra fields
// (Fortran ignores them, which hides decks with a field too many or too few). Text after `/`
// once a READ is complete, and anything after `!` or `#`, is a comment.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace sweep3d {

enum class FieldType { integer, real };

struct FieldSpec {
  std::string_view name;
  FieldType type;
};

struct FieldValue {
  long long integer = 0;  // set for FieldType::integer
  double real = 0.0;      // set for FieldType::real (and integers, converted)
  int line = 0;           // 1-based line the value came from
  std::string token;      // the value as written (of r*c: c), for range errors
};

// Fortran numeric literals as list-directed input accepts them. Return false if `token` is
// not one. Integers: [sign]digits within the default INTEGER range. Reals: [sign] digits
// with an optional point and an optional exponent introduced by E, D or Q, or by a sign
// alone (1.5-3 == 1.5e-3); INF, INFINITY and NAN are accepted as gfortran does (the deck
// validation refuses non-finite values). Conversion is correctly rounded (as strtod).
bool parse_fortran_integer(std::string_view token, long long& out);
bool parse_fortran_real(std::string_view token, double& out);

class ListDirectedReader {
 public:
  ListDirectedReader(std::string_view text, std::string file);

  // One READ of `fields`, starting at the next unread line. `record` (1-based) and the
  // field names are used in error messages. Throws instrument::InputError.
  std::vector<FieldValue> read(const std::vector<FieldSpec>& fields, int record);

  // After the last READ: only blank or comment lines may remain.
  void expect_end() const;

 private:
  [[noreturn]] void fail(int line, const std::string& where, const std::string& what) const;
  std::vector<std::string> lines_;
  std::string file_;
  std::size_t next_line_ = 0;
};

}  // namespace sweep3d
