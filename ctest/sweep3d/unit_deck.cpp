// The input deck: list-directed semantics, the key = value form, and the refusals.
#include <catch2/catch.hpp>

#include "instrument/error.hpp"
#include "sweep3d/deck.hpp"
#include "sweep3d/list_directed.hpp"

using namespace sweep3d;

namespace {

const char* const kCanonical = "1 1 10 3 16\n50 50 50 6 1\n.1 .1 .1 -12.0\n0 0 0\n0 1 -7\n";

std::string error_of(const std::string& text, int nranks = 1) {
  try {
    validate_deck(parse_deck(text, "deck"), nranks);
  } catch (const instrument::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the canonical deck", "[deck]") {
  const Deck d = parse_deck(kCanonical, "input");
  CHECK(d.form == DeckForm::list_directed);
  CHECK(d.npe_i == 1);
  CHECK(d.mk == 10);
  CHECK(d.mmi == 3);
  CHECK(d.ncpu == 16);
  CHECK(d.it_g == 50);
  CHECK(d.mm == 6);
  CHECK(d.isct == 1);
  CHECK(d.dx == 0.1);
  CHECK(d.epsi == -12.0);
  CHECK(d.ifixups == -7);
  CHECK(d.idsa == 1);
  CHECK(d.line[19] == 5);
  CHECK(d.fixed_iterations() == 12);
  CHECK_NOTHROW(validate_deck(d, 1));
}

TEST_CASE("list-directed: commas, repeats, records over several lines, '/' and comments", "[deck]") {
  const Deck d = parse_deck("1,1, 10 ,3 16\n50 50\n  50 6 1\n\n.1d0 1e-1 0.1 -2.5\n3*0\n0 1 -7 / the rest is ignored\n",
                            "input");
  CHECK(d.mk == 10);
  CHECK(d.kt == 50);
  CHECK(d.isct == 1);
  CHECK(d.dx == 0.1);
  CHECK(d.dy == 0.1);
  CHECK(d.epsi == -2.5);
  CHECK(d.fixed_iterations() == 3);
  CHECK(d.ifixups == -7);
  CHECK(d.line[5] == 2);
  CHECK(d.line[7] == 3);
  const Deck c = parse_deck("! comment line\n1 1 10 3 16  ! npe_i npe_j mk mmi ncpu\n50 50 50 6 1 # grid\n"
                            ".1 .1 .1 -12.0\n0 0 0\n0 1 -7\n\n# trailing comment\n",
                            "input");
  CHECK(c.ncpu == 16);
}

TEST_CASE("Fortran numbers", "[deck]") {
  double x = 0;
  long long i = 0;
  CHECK(parse_fortran_real(".1", x));
  CHECK(x == 0.1);
  CHECK(parse_fortran_real("1.5-3", x));
  CHECK(x == 1.5e-3);
  CHECK(parse_fortran_real("-12.", x));
  CHECK(x == -12.0);
  CHECK(parse_fortran_real("2D+2", x));
  CHECK(x == 200.0);
  CHECK_FALSE(parse_fortran_real("1e", x));
  CHECK_FALSE(parse_fortran_real("abc", x));
  CHECK_FALSE(parse_fortran_real(".", x));
  CHECK(parse_fortran_integer("-7", i));
  CHECK(i == -7);
  CHECK_FALSE(parse_fortran_integer("1.0", i));
  CHECK_FALSE(parse_fortran_integer("3000000000", i));
}

TEST_CASE("fixed iteration counts use the single-precision 0.99", "[deck]") {
  Deck d;
  d.epsi = -2.5;
  CHECK(d.fixed_iterations() == 3);
  d.epsi = -0.005;
  CHECK(d.fixed_iterations() == 1);
  d.epsi = -12.0;
  CHECK(d.fixed_iterations() == 12);
  d.epsi = -1.009999995;  // 1.009999995 + 0.99000000953... >= 2, but + 0.99 < 2
  CHECK(d.fixed_iterations() == 2);
}

TEST_CASE("the key = value form", "[deck]") {
  const std::string kv =
      "# the canonical deck\nnpe_i = 1  npe_j = 1\nmk=10 mmi=3 ncpu=16\nit_g=50 jt_g=50 kt=50\nmm=6 isct=1\n"
      "dx=.1 dy=.1 dz=.1 epsi=-12.0\nibc=0 jbc=0 kbc=0\niprint=0 idsa=1 ifixups=-7\n";
  const Deck d = parse_deck(kv, "deck.kv");
  const Deck o = parse_deck(kCanonical, "input");
  CHECK(d.form == DeckForm::key_value);
  CHECK(d.mk == o.mk);
  CHECK(d.ncpu == o.ncpu);
  CHECK(d.epsi == o.epsi);
  CHECK(d.ifixups == o.ifixups);
  CHECK(d.line[2] == 3);
  CHECK_THAT(error_of("npe_i=1\n"), Catch::Contains("missing key(s) npe_j"));
  CHECK_THAT(error_of(kv + "mk=2\n"), Catch::Contains("line 9 (mk): given twice (first on line 3)"));
  CHECK_THAT(error_of(kv + "nx=2\n"), Catch::Contains("unknown key 'nx'"));
  CHECK_THAT(error_of("npe_i=x\n"), Catch::Contains("line 1 (npe_i): expected an integer, got 'x'"));
}

TEST_CASE("bad decks: one message naming line, field and what was expected", "[deck]") {
  using Catch::Contains;
  CHECK_THAT(error_of(""), Contains("the deck is empty"));
  CHECK_THAT(error_of("1 1 10 3 16\n50 50 50 6 1\n"), Contains("deck:line 3 field 1 (dx): end of file"));
  CHECK_THAT(error_of("1 1 10 3\n50 50 50 6 1\n.1 .1 .1 -1\n0 0 0\n0 0 0\n"),
             Contains("line 2: record 1"));
  CHECK_THAT(error_of("1 1 10 3 16 7\n50 50 50 6 1\n.1 .1 .1 -1\n0 0 0\n0 0 0\n"),
             Contains("line 1: record 1 (5 integers (npe_i npe_j mk mmi ncpu), begun on line 1) is complete"));
  CHECK_THAT(error_of("1 1 10 3 16\n50 50 50 6 1\n.1 .1 .1 -1\n0 0 0\n0 0 0\n1\n"),
             Contains("line 6: unexpected '1' after the last record"));
  CHECK_THAT(error_of("1 1 10 3 16\n50 50.5 50 6 1\n.1 .1 .1 -1\n0 0 0\n0 0 0\n"),
             Contains("line 2 field 2 (jt_g): expected an integer, got '50.5'"));
  CHECK_THAT(error_of("1 1 10 3 16\n50 50 50 6 1\n.1 abc .1 -1\n0 0 0\n0 0 0\n"),
             Contains("line 3 field 2 (dy): expected a real number, got 'abc'"));
  CHECK_THAT(error_of("1 1 10 3 16\n50 50 50 6 1\n.1 .1 .1 -1\n0 0 /\n0 0 0\n"),
             Contains("line 4 field 3 (kbc): '/' ends record 4"));
  CHECK_THAT(error_of("1 1 10 3 16\n50 50 50 6 1\n.1 .1 .1 -1\n0 ,, 0\n0 0 0\n"),
             Contains("line 4 field 2 (jbc): null value"));
  const std::string rest = "\n50 50 50 6 1\n.1 .1 .1 -1\n0 0 0\n0 0 0\n";
  CHECK_THAT(error_of("2 2 10 3 16" + rest, 2), Contains("line 1 field 2 (npe_j): npe_i*npe_j = 2*2 = 4 must equal the number of MPI ranks, 2"));
  CHECK_THAT(error_of("0 1 10 3 16" + rest), Contains("field 1 (npe_i): npe_i must be >= 1, got 0"));
  CHECK_THAT(error_of("1 1 0 3 16" + rest), Contains("field 3 (mk): mk (k-planes per block) must be >= 1, got 0"));
  CHECK_THAT(error_of("1 1 -2 3 16" + rest), Contains("(mk)"));
  CHECK_THAT(error_of("1 1 10 4 16" + rest), Contains("field 4 (mmi): mmi (angles per block) must divide mm = 6 (1, 2, 3 or 6), got 4"));
  CHECK_THAT(error_of("1 1 10 0 16" + rest), Contains("(mmi)"));
  CHECK_THAT(error_of("1 1 10 3 0" + rest), Contains("field 5 (ncpu): ncpu must be >= 1, got 0"));
  const std::string one = "1 1 10 3 16\n";
  CHECK_THAT(error_of(one + "0 50 50 6 1\n.1 .1 .1 -1\n0 0 0\n0 0 0\n"), Contains("(it_g)"));
  CHECK_THAT(error_of(one + "50 -1 50 6 1\n.1 .1 .1 -1\n0 0 0\n0 0 0\n"), Contains("(jt_g)"));
  CHECK_THAT(error_of(one + "50 50 0 6 1\n.1 .1 .1 -1\n0 0 0\n0 0 0\n"), Contains("(kt)"));
  CHECK_THAT(error_of(one + "50 50 50 4 1\n.1 .1 .1 -1\n0 0 0\n0 0 0\n"),
             Contains("line 2 field 4 (mm): mm (angles per octant) must be 3 (S4) or 6 (S6), got 4"));
  CHECK_THAT(error_of(one + "50 50 50 6 2\n.1 .1 .1 -1\n0 0 0\n0 0 0\n"), Contains("(isct): isct (scattering order) must be 0 (P0) or 1 (P1), got 2"));
  CHECK_THAT(error_of(one + "50 50 50 6 1\n0 .1 .1 -1\n0 0 0\n0 0 0\n"), Contains("(dx): cell width must be a positive finite number"));
  CHECK_THAT(error_of(one + "50 50 50 6 1\n.1 -.1 .1 -1\n0 0 0\n0 0 0\n"), Contains("(dy)"));
  CHECK_THAT(error_of(one + "50 50 50 6 1\n.1 .1 inf -1\n0 0 0\n0 0 0\n"), Contains("(dz)"));
  CHECK_THAT(error_of(one + "50 50 50 6 1\n.1 .1 .1 0.0\n0 0 0\n0 0 0\n"), Contains("(epsi): epsi must not be 0"));
  CHECK_THAT(error_of(one + "50 50 50 6 1\n.1 .1 .1 nan\n0 0 0\n0 0 0\n"), Contains("(epsi)"));
}

TEST_CASE("a missing file is one clear error", "[deck]") {
  CHECK_THROWS_WITH(read_deck_file("/nonexistent/input"), Catch::Contains("/nonexistent/input: cannot open"));
}
