// The memory a run will allocate, estimated before it allocates: the same bytes as the arrays
// it then allocates, hand-worked figures, saturation instead of wrap-around, and the refusal.
#include <catch2/catch.hpp>

#include <mpi.h>

#include <cstdint>
#include <string>

#include "instrument/mpi_main.hpp"
#include "sweep3d/decomposition.hpp"
#include "sweep3d/octant_sweep.hpp"
#include "sweep3d/problem.hpp"
#include "sweep3d/run_resources.hpp"
#include "sweep3d/source_iteration.hpp"

using namespace sweep3d;

namespace {

Deck deck_of(const std::string& text) {
  Deck d = parse_deck(text, "deck");
  return d;
}

// The bytes the run's own constructors allocate for rank `rank` of `nranks`.
std::uint64_t allocated_cell_fields(const Deck& deck, const KbaDecomposition& d) {
  return make_cell_fields(make_problem(deck), d).bytes();
}

std::uint64_t allocated_sweep_buffers(const Deck& deck, const KbaDecomposition& d, bool nonblocking) {
  instrument::Recorder rec;
  instrument::Comm comm(MPI_COMM_WORLD, rec);
  SweepOptions so;
  so.nonblocking = nonblocking;
  const Problem p = make_problem(deck);
  const OctantSweep sweep(p, d, comm, rec, so);
  return sweep.bytes();
}

}  // namespace

TEST_CASE("the estimate is what the constructors allocate", "[memory]") {
  const Deck canonical = deck_of("1 1 10 3 16\n50 50 50 6 1\n.1 .1 .1 -12.0\n0 0 0\n0 1 -7\n");
  const KbaDecomposition one = make_decomposition(canonical, 0, 1);
  const RunMemory m = estimate_run_memory(canonical, one, RunOptions{}, 0);
  // 50^3 cells x (4 flux + 4 source moments + 1 previous flux) x 8 bytes.
  CHECK(m.cell_fields == 125000ull * 9 * 8);
  CHECK(m.cell_fields == allocated_cell_fields(canonical, one));
  // One rank: mk = kt = 50, mmi = mm = 6 (lane stride 8): faces 50*50*8 x3, no messages.
  CHECK(m.sweep_buffers == 3ull * 50 * 50 * 8 * 8);
  CHECK(m.sweep_buffers == allocated_sweep_buffers(canonical, one, false));
  CHECK(m.trace == 0);
  CHECK(m.gathers == 0);

  // A 3x2 grid, reflective low faces, P0, non-blocking: rank 3 (pi = 0, pj = 1) has an east,
  // a south and no north neighbour and owns the reflective I face.
  const Deck refl = deck_of("3 2 4 2 1\n31 17 9 6 0\n.1 .2 .3 -2\n1 1 1\n1 0 1\n");
  for (int rank : {0, 3, 5})
    for (bool nonblocking : {false, true}) {
      RunOptions opt;
      opt.nonblocking = nonblocking;
      const KbaDecomposition d = make_decomposition(refl, rank, 6);
      const RunMemory r = estimate_run_memory(refl, d, opt, 0);
      CHECK(r.cell_fields == allocated_cell_fields(refl, d));
      CHECK(r.sweep_buffers == allocated_sweep_buffers(refl, d, nonblocking));
      // iprint = 1: the printed plane, and one other rank's as rank 0 receives it.
      CHECK(r.gathers == 2ull * static_cast<std::uint64_t>(d.it) * d.jt * 8);
    }
}

TEST_CASE("the trace: every rank's events, and on rank 0 every rank's gathered", "[memory]") {
  static_assert(sizeof(instrument::RecordedEvent) == 48 && sizeof(instrument::TraceEvent) == 48);
  const Deck deck = deck_of("2 2 10 3 1\n20 20 20 6 0\n.1 .1 .1 -1\n0 0 0\n0 0 0\n");
  CHECK(estimate_run_memory(deck, make_decomposition(deck, 0, 4), RunOptions{}, 1000).trace == 1000ull * 48 * 5);
  CHECK(estimate_run_memory(deck, make_decomposition(deck, 2, 4), RunOptions{}, 1000).trace == 1000ull * 48 * 2);
  // Sizes that do not fit 64 bits saturate (and are refused), never wrap to something small.
  CHECK(estimate_run_memory(deck, make_decomposition(deck, 0, 4), RunOptions{}, std::size_t{1} << 62).total() ==
        UINT64_MAX);
}

TEST_CASE("a run larger than memory is refused on every rank with the figure and the limit", "[memory]") {
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  const Deck deck = deck_of("1 1 10 3 1\n1048576 1048576 1 6 0\n.1 .1 .1 -1\n0 0 0\n0 0 0\n");
  instrument::Recorder rec;
  instrument::Comm comm(MPI_COMM_WORLD, rec);
  Deck mine = deck;
  mine.npe_j = nranks;
  try {
    require_run_resources(mine, RunOptions{}, 0, comm);
    FAIL("2^40 cells were not refused");
  } catch (const instrument::CollectiveError& e) {
    const std::string what = e.what();
    CHECK_THAT(what, Catch::StartsWith("deck:it_g*jt_g*kt: rank 0 with the "));
    CHECK_THAT(what, Catch::Contains("for a grid of 1048576*1048576*1 cells"));
    CHECK_THAT(what, Catch::Matches(".* needs [0-9.]+ TiB, more than the .* this process can allocate"));
  }
  // The canonical deck fits.
  Deck small = deck_of("1 1 10 3 1\n20 20 20 6 0\n.1 .1 .1 -1\n0 0 0\n0 0 0\n");
  small.npe_j = nranks;
  CHECK_NOTHROW(require_run_resources(small, RunOptions{}, 1000, comm));
}
