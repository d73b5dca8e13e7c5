// The Fortran numeric literals of list-directed input (parse_fortran_integer/real). Beyond
// "no crash, no over-read" (the token is the fuzzer's own buffer, so ASan sees a read past
// its end), one property: every integer literal is also a real literal of the same value,
// as Fortran reads an integer into a REAL field.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fuzz_input.hpp"
#include "sweep3d/list_directed.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto token = fuzz::as_text(data, size);
  long long integer = 0;
  double real = 0.0;
  const bool is_integer = sweep3d::parse_fortran_integer(token, integer);
  const bool is_real = sweep3d::parse_fortran_real(token, real);
  if (is_integer && (!is_real || real != static_cast<double>(integer))) {
    std::fprintf(stderr, "fortran_number: integer %lld %s as a real (%.17g)\n", integer,
                 is_real ? "reads differently" : "does not read", real);
    std::abort();
  }
  return 0;
}
