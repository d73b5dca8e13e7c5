// The reference decks of the original (golden/: deck + the original's output), run at this
// test's rank count on every process grid that fits. err and fixs of every iteration must
// print exactly as the original's (17 significant digits round-trip, so this is bitwise);
// the balance exactly when the grid is the original's, else to 1e-12 relative; the header
// lines exactly when the grid is the original's.
#include <catch2/catch.hpp>

#include <sstream>

#include "sweep3d_test_support.hpp"

using namespace sweep3d;

namespace {

std::vector<std::pair<int, int>> grids(int size) {
  std::vector<std::pair<int, int>> g;
  for (int pi = 1; pi <= size; ++pi)
    if (size % pi == 0) g.emplace_back(pi, size / pi);
  return g;
}

void check_golden(const std::string& name, KernelKind kernel, bool nonblocking = false) {
  int size = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::string dir = test::golden_dir() + "/" + name;
  const Deck original = parse_deck(test::read_text(dir + "/input"), dir + "/input");
  const test::Report want = test::parse_report(test::read_text(dir + "/output.txt"));
  for (const auto& [pi, pj] : grids(size)) {
    Deck deck = original;
    deck.npe_i = pi;
    deck.npe_j = pj;
    RunOptions opt;
    opt.kernel = kernel;
    opt.nonblocking = nonblocking;
    std::ostringstream out;
    const RunResult r = test::run(deck, MPI_COMM_WORLD, opt, &out);
    if (rank != 0) continue;
    INFO(name << " on " << pi << "x" << pj << (kernel == KernelKind::reference ? " (reference kernel)" : ""));
    const test::Report got = test::parse_report(out.str());
    REQUIRE(got.monitor.size() == want.monitor.size());
    for (std::size_t k = 0; k < want.monitor.size(); ++k) CHECK(got.monitor[k] == want.monitor[k]);
    // The result struct holds the same numbers as the report.
    REQUIRE(r.iterations.size() == want.err.size());
    for (std::size_t k = 0; k < want.err.size(); ++k) {
      CHECK(r.iterations[k].err == want.err[k]);
      CHECK(r.iterations[k].fixs == want.fixs[k]);
    }
    const bool same_grid = pi == original.npe_i && pj == original.npe_j;
    if (same_grid) {
      CHECK(got.header == want.header);
      CHECK(got.balance_lines == want.balance_lines);
    } else {
      CHECK(test::rel_diff(got.source, want.source) <= 1e-12);
      CHECK(test::rel_diff(got.absorption, want.absorption) <= 1e-12);
      for (int n = 0; n < 6; ++n) CHECK(test::rel_diff(got.leak[n], want.leak[n]) <= 1e-12);
    }
  }
}

}  // namespace

TEST_CASE("S4 P0 vacuum, fixups off: the original's 1x1 and 2x2 outputs", "[golden]") {
  check_golden("a_s4p0_vac_nofix_1x1", KernelKind::fast);
  check_golden("a_s4p0_vac_nofix_2x2", KernelKind::fast);
}

TEST_CASE("S4 P0 golden deck with the reference kernel and non-blocking sends", "[golden]") {
  check_golden("a_s4p0_vac_nofix_2x2", KernelKind::reference, true);
}

TEST_CASE("50^3 S6 P1 canonical deck, fixups after 7 iterations", "[golden][slow]") {
  check_golden("g_input50_canonical_1x1", KernelKind::fast);
  check_golden("g_input50_canonical_2x2", KernelKind::fast);
}
