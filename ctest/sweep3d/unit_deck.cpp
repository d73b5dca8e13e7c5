// The input deck: list-directed semantics, the key = value form, and the refusals.
#include <catch2/catch.hpp>

#include <climits>

#include "instrument/error.hpp"
#include "sweep3d/deck.hpp"
#include "sweep3d/deck_ranges.hpp"
#include "sweep3d/list_directed.hpp"
#include "../input_error_text.hpp"

using namespace sweep3d;

namespace {

const char* const kCanonical = "1 1 10 3 16\n50 50 50 6 1\n.1 .1 .1 -12.0\n0 0 0\n0 1 -7\n";

std::string error_of(const std::string& text, int nranks = 1) {
  return input_error_text([&] { validate_deck(parse_deck(text, "deck"), nranks); });
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
  CHECK_THAT(error_of(kv + "nx=2\n"), Catch::Contains("unknown key \"nx\""));
  CHECK_THAT(error_of("npe_i=x\n"), Catch::Contains("line 1 (npe_i): expected an integer, got \"x\""));
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
             Contains("line 6: unexpected \"1\" after the last record"));
  CHECK_THAT(error_of("1 1 10 3 16\n50 50.5 50 6 1\n.1 .1 .1 -1\n0 0 0\n0 0 0\n"),
             Contains("line 2 field 2 (jt_g): expected an integer, got \"50.5\""));
  CHECK_THAT(error_of("1 1 10 3 16\n50 50 50 6 1\n.1 abc .1 -1\n0 0 0\n0 0 0\n"),
             Contains("line 3 field 2 (dy): expected a real number, got \"abc\""));
  CHECK_THAT(error_of("1 1 10 3 16\n50 50 50 6 1\n.1 .1 .1 -1\n0 0 /\n0 0 0\n"),
             Contains("line 4 field 3 (kbc): '/' ends record 4"));
  CHECK_THAT(error_of("1 1 10 3 16\n50 50 50 6 1\n.1 .1 .1 -1\n0 ,, 0\n0 0 0\n"),
             Contains("line 4 field 2 (jbc): null value"));
  const std::string rest = "\n50 50 50 6 1\n.1 .1 .1 -1\n0 0 0\n0 0 0\n";
  CHECK_THAT(error_of("2 2 10 3 16" + rest, 2), Contains("line 1 field 2 (npe_j): npe_i*npe_j = 2*2 = 4 must equal the number of MPI ranks, 2"));
  CHECK_THAT(error_of("0 1 10 3 16" + rest), Contains("field 1 (npe_i): npe_i (processes in I) must be in [1, 16777216]; got \"0\""));
  CHECK_THAT(error_of("1 1 0 3 16" + rest), Contains("field 3 (mk): mk (k-planes per block; above kt it is clamped to kt) must be in [1, 16777216]; got \"0\""));
  CHECK_THAT(error_of("1 1 -2 3 16" + rest), Contains("(mk)"));
  CHECK_THAT(error_of("1 1 10 4 16" + rest), Contains("field 4 (mmi): mmi (angles per block) must be 1, 2, 3 or 6 (a factor of mm); got \"4\""));
  CHECK_THAT(error_of("1 1 10 0 16" + rest), Contains("(mmi)"));
  CHECK_THAT(error_of("1 1 10 3 0" + rest), Contains("field 5 (ncpu): ncpu (CPUs per SMP node, for the printed estimate only) must be in [1, 65536]; got \"0\""));
  const std::string one = "1 1 10 3 16\n";
  CHECK_THAT(error_of(one + "0 50 50 6 1\n.1 .1 .1 -1\n0 0 0\n0 0 0\n"), Contains("(it_g)"));
  CHECK_THAT(error_of(one + "50 -1 50 6 1\n.1 .1 .1 -1\n0 0 0\n0 0 0\n"), Contains("(jt_g)"));
  CHECK_THAT(error_of(one + "50 50 0 6 1\n.1 .1 .1 -1\n0 0 0\n0 0 0\n"), Contains("(kt)"));
  CHECK_THAT(error_of(one + "50 50 50 4 1\n.1 .1 .1 -1\n0 0 0\n0 0 0\n"),
             Contains("line 2 field 4 (mm): mm (angles per octant) must be 3 (S4) or 6 (S6); got \"4\""));
  CHECK_THAT(error_of(one + "50 50 50 6 2\n.1 .1 .1 -1\n0 0 0\n0 0 0\n"), Contains("(isct): isct (scattering order) must be 0 (P0) or 1 (P1); got \"2\""));
  CHECK_THAT(error_of(one + "50 50 50 6 1\n0 .1 .1 -1\n0 0 0\n0 0 0\n"), Contains("(dx): dx (cell width) must be in [1e-6, 1e6] cm; got \"0\""));
  CHECK_THAT(error_of(one + "50 50 50 6 1\n.1 -.1 .1 -1\n0 0 0\n0 0 0\n"), Contains("(dy)"));
  CHECK_THAT(error_of(one + "50 50 50 6 1\n.1 .1 inf -1\n0 0 0\n0 0 0\n"), Contains("(dz)"));
  CHECK_THAT(error_of(one + "50 50 50 6 1\n.1 .1 .1 0.0\n0 0 0\n0 0 0\n"), Contains("0 is the original's endless loop; got \"0.0\""));
  CHECK_THAT(error_of(one + "50 50 50 6 1\n.1 .1 .1 nan\n0 0 0\n0 0 0\n"), Contains("(epsi)"));
}

TEST_CASE("a missing file is one clear error", "[deck]") {
  CHECK_THROWS_WITH(read_deck_file("/nonexistent/input"), Catch::Contains("/nonexistent/input: cannot open"));
}

namespace {

// The canonical deck with record 3 (dx dy dz epsi) or record 5 (iprint idsa ifixups) replaced.
std::string with_record3(const std::string& r3) { return "1 1 10 3 16\n50 50 50 6 1\n" + r3 + "\n0 0 0\n0 1 -7\n"; }
std::string with_record5(const std::string& r5) { return "1 1 10 3 16\n50 50 50 6 1\n.1 .1 .1 -12.0\n0 0 0\n" + r5 + "\n"; }

}  // namespace

TEST_CASE("cell widths: [1e-6, 1e6] cm, both ends included, the token quoted", "[deck][ranges]") {
  using Catch::Contains;
  CHECK(error_of(with_record3("1e-6 1e6 1e-6 -1")).empty());
  CHECK(error_of(with_record3("1e6 1e6 1e6 -1")).empty());
  CHECK_THAT(error_of(with_record3("1e308 1e308 1e308 -6.0")),
             Contains("deck:line 3 field 1 (dx): dx (cell width) must be in [1e-6, 1e6] cm; got \"1e308\""));
  CHECK_THAT(error_of(with_record3(".1 0.99e-6 .1 -1")), Contains("field 2 (dy): dy (cell width) must be in [1e-6, 1e6] cm; got \"0.99e-6\""));
  CHECK_THAT(error_of(with_record3(".1 .1 1.000001e6 -1")), Contains("field 3 (dz)"));
  CHECK_THAT(error_of(with_record3(".1 .1 -inf -1")), Contains("got \"-inf\""));
  CHECK_THAT(error_of(with_record3(".1 .1 nan -1")), Contains("got \"nan\""));
  // Of a repeat r*c the value c is quoted; a long or unprintable token is cut and escaped.
  CHECK_THAT(error_of(with_record3("3*1d200 -1")), Contains("field 1 (dx): dx (cell width) must be in [1e-6, 1e6] cm; got \"1d200\""));
  CHECK_THAT(error_of(with_record3(".1 .1 1000000000000000000000000000000000000000 -1")),
             Contains("got \"100000000000000000000000...\""));
  CHECK_THAT(error_of(with_record3(".1 .1 .1\x01 -1")), Contains("expected a real number, got \".1\\x01\""));
}

TEST_CASE("epsi: converge in [1e-15, 1], or a fixed count of at most 100000", "[deck][ranges]") {
  using Catch::Contains;
  CHECK(error_of(with_record3(".1 .1 .1 1e-15")).empty());
  CHECK(error_of(with_record3(".1 .1 .1 1")).empty());
  CHECK(error_of(with_record3(".1 .1 .1 -100000")).empty());
  CHECK(error_of(with_record3(".1 .1 .1 -1e-300")).empty());  // one iteration, as the original
  CHECK_THAT(error_of(with_record3(".1 .1 .1 1e-16")), Contains("(epsi): epsi (convergence"));
  CHECK_THAT(error_of(with_record3(".1 .1 .1 1.5")), Contains("got \"1.5\""));
  CHECK_THAT(error_of(with_record3(".1 .1 .1 -100000.5")), Contains("or in [-100000, 0)"));
  CHECK_THAT(error_of(with_record3(".1 .1 .1 -inf")), Contains("got \"-inf\""));
}

TEST_CASE("ifixups: at most 100000 iterations when negative; INT_MIN is refused", "[deck][ranges]") {
  using Catch::Contains;
  CHECK(error_of(with_record5("0 0 -100000")).empty());
  CHECK(error_of(with_record5("0 0 2147483647")).empty());
  CHECK_THAT(error_of(with_record5("0 0 -2147483648")),
             Contains("line 5 field 3 (ifixups): ifixups (fixups: > 0 always, 0 never, < 0 after -ifixups iterations) "
                      "must be in [-100000, 2147483647]"));
  CHECK_THAT(error_of(with_record5("0 0 -100001")), Contains("got \"-100001\""));
  // The flags take any integer, as the original (non-zero: on).
  CHECK(error_of(with_record5("-5 2147483647 0")).empty());
  Deck d = parse_deck(with_record5("0 0 -7"), "deck");
  CHECK_FALSE(d.fixups_in(7));
  CHECK(d.fixups_in(8));
  d.ifixups = INT_MIN;  // a deck made in code: no overflow in the negation
  CHECK_FALSE(d.fixups_in(1));
  CHECK_FALSE(d.fixups_in(INT_MAX));
}

TEST_CASE("extents, blocking and grids: ranges and the products across fields", "[deck][ranges]") {
  using Catch::Contains;
  const std::string tail = "\n.1 .1 .1 -1\n0 0 0\n0 0 0\n";
  CHECK_THAT(error_of("1 1 10 3 16\n2147483647 50 50 6 1" + tail),
             Contains("line 2 field 1 (it_g): it_g (cells in I) must be in [1, 16777216]; got \"2147483647\""));
  CHECK_THAT(error_of("1 1 10 3 16\n16777217 50 50 6 1" + tail), Contains("got \"16777217\""));
  // 2^40 cells are allowed (memory decides), one more plane is not.
  CHECK(error_of("1 1 10 3 16\n1048576 1048576 1 6 1" + tail).empty());
  CHECK_THAT(error_of("1 1 10 3 16\n1048576 1048576 2 6 1" + tail),
             Contains("line 2 field 3 (kt): a grid of 1048576*1048576*2 cells is more than the 1099511627776 (2^40) cells"));
  CHECK_THAT(error_of("16777216 16777216 10 3 16\n50 50 50 6 1" + tail, 4),
             Contains("npe_i*npe_j = 16777216*16777216 = 281474976710656 must equal the number of MPI ranks, 4"));
  CHECK_THAT(error_of("1 1 10 2 16\n50 50 50 3 1" + tail), Contains("field 4 (mmi): mmi (angles per block) must divide mm = 3 (1 or 3); got \"2\""));
  CHECK_THAT(error_of("1 1 10 3 65537\n50 50 50 6 1" + tail), Contains("must be in [1, 65536]; got \"65537\""));
  // A face message over an MPI count: 2^23 cells of a J line * 256 planes * 6 angles.
  CHECK_THAT(error_of("1 2 256 6 1\n1 16777216 256 6 0" + tail, 2),
             Contains("field 3 (mk): a face message of 12884901888 doubles (cells of a face line * mk * mmi) is more than an MPI count, 2147483647"));
  CHECK(error_of("1 1 256 6 1\n1 16777216 256 6 0" + tail, 1).empty());  // one rank sends nothing
}

TEST_CASE("key = value decks are range-checked the same way, at the key's line", "[deck][ranges]") {
  const std::string kv =
      "npe_i=1 npe_j=1 mk=10 mmi=3 ncpu=16\nit_g=50 jt_g=50 kt=50 mm=6 isct=1\n"
      "dx=.1 dy=.1 dz=1e-7 epsi=-12.0\nibc=0 jbc=0 kbc=0 iprint=0 idsa=1 ifixups=-7\n";
  CHECK_THAT(error_of(kv), Catch::Contains("deck:line 3 (dz): dz (cell width) must be in [1e-6, 1e6] cm; got \"1e-7\""));
}

TEST_CASE("field_range names each field's range", "[deck][ranges]") {
  CHECK(field_range(10) == "in [1e-6, 1e6] cm");
  CHECK(field_range(5) == "in [1, 16777216]");
  CHECK(field_range(14) == "any integer");
}
