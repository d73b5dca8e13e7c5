// Decks of our own, written from the specification, run on every process grid of this
// test's rank count, with several blockings (mk, mmi), both kernels, blocking and
// non-blocking sends, and OpenMP threads. Each run is compared with a serial run of the
// reference kernel (one rank, MPI_COMM_SELF, no blocking): the cell fluxes (all moments),
// err and fixs of every iteration must be bit-identical; the balance equal to round-off.
#include <catch2/catch.hpp>

#include <cstring>
#include <iterator>
#include <vector>

#include "sweep3d/quadrature.hpp"
#include "sweep3d_test_support.hpp"

using namespace sweep3d;

namespace {

struct Case {
  const char* name;
  const char* deck;  // records 2-5 (record 1 is set per grid)
};

// Each names what it exercises.
const Case kCases[] = {
    {"S4 P0 vacuum, fixups off, non-cubic", "7 5 6 3 0\n.1 .1 .1 -4.0\n0 0 0\n0 0 0\n"},
    {"S6 P1 reflective I, fixups always", "6 7 5 6 1\n.2 .1 .15 -5\n1 0 0\n0 0 1\n"},
    {"S6 P0 reflective J, fixups after 2", "5 9 4 6 0\n1.5 1.5 1.5 -5\n0 1 0\n0 0 -2\n"},
    {"S4 P1 reflective K, thick cells, fixups always", "8 6 9 3 1\n1.0 1.0 1.0 -4\n0 0 -3\n0 1 1\n"},
    {"S6 P1 reflective on all axes, converged", "6 6 6 6 1\n.1 .1 .1 1e-13\n1 1 1\n0 0 1\n"},
    {"S4 P0 uneven splits", "11 7 5 3 0\n.1 .2 .1 -3\n0 0 0\n0 0 1\n"},
    {"S6 P1 ranks with no cells", "1 3 4 6 1\n.5 .5 .5 -3\n0 1 0\n0 0 1\n"},
    {"no source (reflective, n < 3)", "2 2 2 6 1\n.1 .1 .1 -2\n1 1 1\n0 0 0\n"},
    {"S6 P1 thick cells, fixups, converged", "4 5 6 6 1\n2.0 2.0 2.0 1e-10\n0 0 0\n0 0 1\n"},
};

Deck make_deck(const Case& c, int npe_i, int npe_j) {
  const std::string text = std::to_string(npe_i) + " " + std::to_string(npe_j) + " 3 3 1\n" + c.deck;
  return parse_deck(text, c.name);
}

struct Variant {
  KernelKind kernel;
  int mk, mmi;  // 0: the original's rule
  bool nonblocking;
  int threads;
};

// All variants on one rank; fewer as ranks grow (4 ranks share 2 cores on a laptop, where
// every message costs a context switch). Above 2 ranks each case runs one of them on each
// grid (variant_on): over the cases every variant still runs on every grid, and every case
// under every variant, a third of the runs of their product.
std::vector<Variant> variants(int mm, int size) {
  const int two = mm == 6 ? 2 : 3;
  if (size > 2)
    return {{KernelKind::fast, 0, 0, false, 1}, {KernelKind::fast, 2, two, true, 1},
            {KernelKind::reference, 3, 1, false, 1}};
  return {
      {KernelKind::fast, 0, 0, false, 1},    {KernelKind::fast, 1, 1, false, 1},
      {KernelKind::fast, 2, two, false, 1},  {KernelKind::fast, 3, 3, true, 1},
      {KernelKind::fast, 4, 1, false, 2},    {KernelKind::fast, 1000, mm, true, 2},
      {KernelKind::reference, 2, 1, false, 1}, {KernelKind::reference, 3, mm, true, 1},
  };
}

// Whether variant `v` (of `count`) runs for case `c` on grid `g` (the g-th of this rank
// count's grids, as many as the variants above 2 ranks): all of them up to 2 ranks; above,
// one per case and grid, turning with both.
bool variant_on(std::size_t v, std::size_t count, std::size_t c, std::size_t g, int size) {
  if (size <= 2) return true;
  return v == (c + g) % count;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

void check_close(double got, double want, double scale) {
  CHECK(std::abs(got - want) <= 1e-12 * std::max(std::abs(got), std::abs(want)) + 1e-14 * scale);
}

}  // namespace

TEST_CASE("every grid, blocking, kernel and send mode gives the serial reference's fluxes", "[consistency]") {
  int size = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (std::size_t ci = 0; ci < std::size(kCases); ++ci) {
    const Case& c = kCases[ci];
    RunOptions ref_opt;
    ref_opt.kernel = KernelKind::reference;
    ref_opt.gather_flux = true;
    const RunResult serial = test::run(make_deck(c, 1, 1), MPI_COMM_SELF, ref_opt);
    const double scale = std::max(1.0, std::abs(serial.balance.source));
    std::vector<int> npe_i;  // the grids of this rank count, by their npe_i
    for (int pi = 1; pi <= size; ++pi)
      if (size % pi == 0) npe_i.push_back(pi);
    for (std::size_t grid = 0; grid < npe_i.size(); ++grid) {
      const int pi = npe_i[grid];
      const int pj = size / pi;
      const Deck deck = make_deck(c, pi, pj);
      const std::vector<Variant> all = variants(deck.mm, size);
      for (std::size_t vi = 0; vi < all.size(); ++vi) {
        if (!variant_on(vi, all.size(), ci, grid, size)) continue;
        const Variant& v = all[vi];
        // Threads only where they have cores of their own (ranks x threads <= 2 on a
        // laptop): oversubscribed, busy-polling MPI and spinning threads take minutes.
        if (v.threads > 1 && size > 1) continue;
        RunOptions opt;
        opt.kernel = v.kernel;
        opt.force_mk = v.mk;
        opt.force_mmi = v.mmi;
        opt.nonblocking = v.nonblocking;
        opt.threads = v.threads;
        opt.gather_flux = true;
        const RunResult r = test::run(deck, MPI_COMM_WORLD, opt);
        if (rank != 0) continue;
        INFO(c.name << " on " << pi << "x" << pj << ", mk " << r.decomposition.mk << ", mmi "
                    << r.decomposition.mmi << (v.kernel == KernelKind::reference ? ", reference" : ", fast")
                    << (v.nonblocking ? ", non-blocking" : "") << ", " << v.threads << " thread(s)");
        CHECK(same_bits(r.flux, serial.flux));
        CHECK(r.flux_checksum == serial.flux_checksum);
        CHECK(r.flux_max == serial.flux_max);
        REQUIRE(r.iterations.size() == serial.iterations.size());
        for (std::size_t k = 0; k < r.iterations.size(); ++k) {
          CHECK(r.iterations[k].err == serial.iterations[k].err);
          CHECK(r.iterations[k].fixs == serial.iterations[k].fixs);
        }
        check_close(r.balance.source, serial.balance.source, scale);
        check_close(r.balance.absorption, serial.balance.absorption, scale);
        for (int n = 0; n < 6; ++n) check_close(r.balance.leakage[n], serial.balance.leakage[n], scale);
      }
    }
  }
}

// The S6 weights sum to 0.99999999 over the sphere, not 1 (spec §2.4), so a converged
// run balances as  W*(source + scattered) = absorption + scattered + net leakage,  i.e.
// source - absorption - net leakage = (1 - W)*(source + absorption) (sigma_s0 = sigma_a).
TEST_CASE("converged runs conserve particles: source = absorption + net leakage", "[balance]") {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (const Case& c : kCases) {
    const Deck deck = make_deck(c, 1, size);
    if (deck.epsi <= 0) continue;
    const RunResult r = test::run(deck, MPI_COMM_WORLD);
    INFO(c.name << ": err " << r.iterations.back().err << " after " << r.iterations.size() << " iterations");
    CHECK(r.converged);
    CHECK(r.iterations.back().err <= deck.epsi);
    const Quadrature q = make_quadrature(deck.mm);
    double w = 0.0;
    for (int m = 0; m < deck.mm; ++m) w += q.w[m];
    const Balance& b = r.balance;
    const double residual = b.source - b.absorption - b.net_leakage();
    const double expected = (1.0 - 8.0 * w) * (b.source + b.absorption);
    INFO("residual " << residual << ", expected from the weights " << expected);
    CHECK(std::abs(residual - expected) <= 1e-12 * b.source + 2 * deck.epsi * b.absorption);
  }
}

TEST_CASE("fixups happen where the deck asks for them", "[fixups]") {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const RunResult after2 = test::run(make_deck(kCases[2], size, 1), MPI_COMM_WORLD);
  REQUIRE(after2.iterations.size() == 5);
  for (const auto& it : after2.iterations) {
    CHECK(it.fixups_on == (it.its > 2));
    if (!it.fixups_on) CHECK(it.fixs == 0);
  }
  CHECK(after2.iterations[2].fixs > 0);  // thick cells: negative outflows once fixups are on
  const RunResult off = test::run(make_deck(kCases[0], size, 1), MPI_COMM_WORLD);
  for (const auto& it : off.iterations) CHECK(it.fixs == 0);
}
