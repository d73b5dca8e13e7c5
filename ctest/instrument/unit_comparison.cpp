// The side-by-side table: relative error, per-model summary, aligned printing.
#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "instrument/comparison.hpp"

using namespace instrument;

namespace {
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}
}  // namespace

TEST_CASE("relative error is (modelled - measured) / measured") {
  CHECK(ComparisonRow{"m", "t", 2.0, 2.5, ""}.relative_error() == Approx(0.25));
  CHECK(ComparisonRow{"m", "t", 4.0, 3.0, ""}.relative_error() == Approx(-0.25));
  CHECK(std::isnan(ComparisonRow{"m", "t", 0.0, 1.0, ""}.relative_error()));
}

TEST_CASE("error summary per model: mean and max of |error|, NaN rows skipped") {
  Comparison c;
  c.add({.model = "loggp", .term = "T_iter np2", .measured = 1.0, .modelled = 1.1, .source = "a"});
  c.add(
      {.model = "pipeline", .term = "T_iter np2", .measured = 1.0, .modelled = 0.7, .source = "b"});
  c.add({.model = "loggp", .term = "T_iter np4", .measured = 2.0, .modelled = 1.6, .source = "a"});
  c.add({.model = "loggp", .term = "T_idle", .measured = 0.0, .modelled = 0.1, .source = "a"});
  const auto s = c.error_summary();
  REQUIRE(s.size() == 2);
  CHECK(s[0].model == "loggp");  // first-seen order
  CHECK(s[0].rows == 2);
  CHECK(s[0].mean_abs_error == Approx(0.15));  // (0.1 + 0.2) / 2
  CHECK(s[0].max_abs_error == Approx(0.2));
  CHECK(s[1].model == "pipeline");
  CHECK(s[1].rows == 1);
  CHECK(s[1].mean_abs_error == Approx(0.3));
  CHECK(s[1].max_abs_error == Approx(0.3));
}

TEST_CASE("error summary: totals and breakdown parts are scored apart") {
  Comparison c;
  c.add({.model = "loggp", .term = "T_iter", .measured = 1.0, .modelled = 0.98, .source = "a"});
  c.add({.model = "loggp", .term = "computation", .measured = 0.5, .modelled = 0.75, .source = "a",
         .kind = RowKind::part});
  c.add({.model = "loggp", .term = "communication", .measured = 0.5, .modelled = 0.25, .source = "a",
         .kind = RowKind::part});
  c.add({.model = "pipeline", .term = "T_iter", .measured = 1.0, .modelled = 1.1, .source = "b"});
  const auto s = c.error_summary();
  REQUIRE(s.size() == 3);
  CHECK(s[0].model == "loggp");
  CHECK(s[0].kind == RowKind::total);
  CHECK(s[0].rows == 1);
  CHECK(s[0].mean_abs_error == Approx(0.02));  // not (0.02 + 0.5 + 0.5) / 3
  CHECK(s[1].model == "loggp");
  CHECK(s[1].kind == RowKind::part);
  CHECK(s[1].rows == 2);
  CHECK(s[1].mean_abs_error == Approx(0.5));
  CHECK(s[2].model == "pipeline");
  CHECK(s[2].kind == RowKind::total);
  CHECK(row_kind_from(row_kind_name(RowKind::part)) == RowKind::part);
  CHECK_THROWS_AS(row_kind_from("sum"), std::invalid_argument);
}

TEST_CASE("the printed table is aligned and shows the error in percent") {
  Comparison c;
  c.add({.model = "loggp",
         .term = "T_56",
         .measured = 0.5,
         .modelled = 0.55,
         .source = "W_g from np1.h5; machine: loggps.machine"});
  c.add({.model = "pipeline",
         .term = "T_iter_long_name",
         .measured = 12.0,
         .modelled = 9.0,
         .source = "x"});
  c.add({.model = "loggp", .term = "T_wait", .measured = 0.0, .modelled = 1.0, .source = "y"});
  std::ostringstream out;
  c.print(out);
  const auto lines = lines_of(out.str());
  // title, header, rule, 3 rows, blank, summary title, header, rule, 2 rows
  REQUIRE(lines.size() == 12);
  const std::string& header = lines[1];
  CHECK(header.find("model") == 0);
  CHECK(header.find("inputs from") != std::string::npos);
  CHECK(lines[3].find("+10.0%") != std::string::npos);
  CHECK(lines[4].find("-25.0%") != std::string::npos);
  CHECK(lines[5].find("n/a") != std::string::npos);
  CHECK(lines[3].find("W_g from np1.h5; machine: loggps.machine") != std::string::npos);
  // Right-aligned numeric columns end at the same place on every row.
  const auto end_of_error = [](const std::string& l, const std::string& cell) {
    return l.find(cell) + cell.size();
  };
  CHECK(end_of_error(lines[3], "+10.0%") == end_of_error(lines[4], "-25.0%"));
  CHECK(end_of_error(lines[3], "+10.0%") == end_of_error(lines[1], "error"));
  // The source column starts at the same place on every row.
  CHECK(lines[3].find("W_g") == lines[1].find("inputs from"));
  CHECK(lines[4].rfind(" x") + 1 == lines[1].find("inputs from"));
  // Summary: magnitudes without sign.
  CHECK(lines[10].find("loggp") == 0);
  CHECK(lines[10].find("10.0%") != std::string::npos);
  CHECK(lines[10].find("+10.0%") == std::string::npos);
  CHECK(lines[11].find("25.0%") != std::string::npos);
}

TEST_CASE("the inputs every row shares are printed once, above the table") {
  Comparison c;
  c.add({.model = "loggp", .term = "T_iter", .measured = 1.0, .modelled = 1.0, .source = "W_g from a.h5; machine: m"});
  c.add({.model = "loggp", .term = "comp", .measured = 1.0, .modelled = 1.0,
         .source = "W_g from a.h5; machine: m; critical path (kernel)", .kind = RowKind::part});
  std::ostringstream out;
  c.print(out);
  const auto lines = lines_of(out.str());
  REQUIRE(lines.size() > 5);
  CHECK(lines[1] == "Inputs of every row: W_g from a.h5; machine: m");
  CHECK(lines[2].find("also") != std::string::npos);
  CHECK(lines[4].substr(lines[4].size() - 2) == " -");  // nothing left for the first row
  CHECK(lines[5].find("critical path (kernel)") != std::string::npos);
  CHECK(lines[5].find("a.h5") == std::string::npos);
}

TEST_CASE("model terms are kept in order with their equations") {
  Comparison c;
  CHECK(c.empty());
  c.add_model_term({"loggp", "T_56", 0.25, "eq. 6"});
  c.add_model_term({"loggp", "T_78", 0.5, "eq. 7"});
  REQUIRE(c.model_terms().size() == 2);
  CHECK(c.model_terms()[1].term == "T_78");
  CHECK(c.model_terms()[1].seconds == 0.5);
  CHECK(c.model_terms()[1].equation == "eq. 7");
  CHECK_FALSE(c.empty());
}
