// gfortran list-directed and edit-descriptor output, checked on strings the original printed.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "sweep3d/fortran_format.hpp"
#include "sweep3d/report.hpp"

using namespace sweep3d;
using namespace sweep3d::fortran;

TEST_CASE("list-directed REAL(8): fixed form for 0.1 <= |x| < 1e17 and 0, else E form", "[format]") {
  CHECK(list_real(1.0) == "  1.0000000000000000     ");
  CHECK(list_real(0.65908380221800600) == " 0.65908380221800600     ");
  CHECK(list_real(848.66381736225776) == "  848.66381736225776     ");
  CHECK(list_real(0.0) == "  0.0000000000000000     ");
  CHECK(list_real(6.2789646139531266E-002) == "  6.2789646139531266E-002");
  CHECK(list_real(-8.5714487831311303E-002) == " -8.5714487831311303E-002");
  CHECK(list_real(-0.12541941963514600) == "-0.12541941963514600     ");
  CHECK(list_real(1e17) == "  1.0000000000000000E+017");
  CHECK(list_real(99999999999999984.0) == "  99999999999999984.     ");
  CHECK(list_real(1.5e-300) == "  1.5000000000000001E-300");
  for (double v : {1.0 / 3.0, 2.0 / 3.0e-5, -7.0e20, 0.1, 0.09999999999999999}) {
    const std::string s = list_real(v);
    CHECK(s.size() == 25);
    CHECK(std::strtod(s.c_str(), nullptr) == v);  // 17 significant digits round-trip
  }
}

TEST_CASE("list-directed records: blank first, separators except between texts", "[format]") {
  CHECK(monitor_line(1, 1.0, 0) == "  its =            1  err =    1.0000000000000000        fixs =            0");
  CHECK(monitor_line(7, 6.5491923194304746E-002, 12000) ==
        "  its =            7  err =    6.5491923194304746E-002   fixs =        12000");
  CHECK(ListRecord().integer(4).text("domains   - ").integer(2).text("x").integer(2).text("decomposition").str() ==
        "           4 domains   -            2 x           2 decomposition");
  CHECK(ListRecord().text("a").text("b").str() == " ab");
}

TEST_CASE("Fw.d, Iw and 1PGw.d", "[format]") {
  CHECK(edit_f(16.18, 7, 1) == "   16.2");
  CHECK(edit_f(100.0, 6, 2) == "100.00");
  CHECK(edit_f(99.378882, 6, 2) == " 99.38");
  CHECK(edit_f(1000.0, 6, 2) == "******");
  CHECK(edit_f(0.12345678901234567, 17, 14) == " 0.12345678901235");
  CHECK(edit_f(-0.5, 17, 14) == "-0.50000000000000");
  CHECK(edit_f(-0.5, 4, 2) == "-.50");
  CHECK(edit_i(16, 4) == "  16");
  CHECK(edit_i(12345, 4) == "****");
  CHECK(edit_1pg(7.234e-3, 10, 3) == " 7.234E-03");
  CHECK(edit_1pg(0.2, 10, 3) == " 0.200    ");
  CHECK(edit_1pg(0.805, 10, 3) == " 0.805    ");
  CHECK(edit_1pg(1.13, 10, 3) == "  1.13    ");
  CHECK(edit_1pg(123.4, 10, 3) == "  123.    ");
  CHECK(edit_1pg(1234.0, 10, 3) == " 1.234E+03");
}

TEST_CASE("iprint flux plane: (2x,i9,6(f17.14,' ')) with format reversion after six values", "[format]") {
  KbaDecomposition d;
  d.it = 8;
  d.jt = 1;
  d.istart = 3;
  d.jstart = 7;
  std::vector<double> plane(8);
  for (int i = 0; i < 8; ++i) plane[static_cast<std::size_t>(i)] = 0.125 * (i + 1);
  plane[1] = -0.5;
  std::ostringstream out;
  print_flux_plane(out, 2, d, 1, plane);
  const std::string want =
      "  Task           2                3 :          10                7 :           7\n"
      " scalar flux:\n"
      "          7 0.12500000000000 -0.50000000000000  0.37500000000000  0.50000000000000  0.62500000000000 "
      " 0.75000000000000 \n"
      " 0.87500000000000  1.00000000000000 \n";
  CHECK(out.str() == want);
}
