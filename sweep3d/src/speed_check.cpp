// sweep3d's speed check (speed_check.hpp).
#include "sweep3d/speed_check.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#include "instrument/aligned_buffer.hpp"
#include "instrument/statistics.hpp"
#include "sweep3d/angle_block.hpp"
#include "sweep3d/problem.hpp"

namespace sweep3d {

namespace {

constexpr int kIt = 16, kJt = 16, kNk = 10, kMmi = 3, kPasses = 9;

// The built-in problem: S6 P0 (6 angles an octant), the deck's default cells (0.1 wide); its
// angle blocks, built once.
struct CheckProblem {
  std::vector<AngleBlock> blocks;
  CheckProblem() {
    Deck deck;
    deck.it_g = kIt;
    deck.jt_g = kJt;
    deck.kt = kNk;
    deck.mm = 6;
    deck.isct = 0;
    const Problem p = make_problem(deck);
    for (int iq = 1; iq <= 8; ++iq)
      for (int mo = 1; mo <= p.quad.mm / kMmi; ++mo) blocks.push_back(make_angle_block(p, iq, mo, kMmi));
  }
};

}  // namespace

double speed_check_ns(SweepKernel kernel) {
  static const CheckProblem problem;  // built once: the second check times the solves alone
  constexpr int ls = lane_stride(kMmi), cells = kIt * kJt * kNk;
  // Aligned as the run's arrays are: the fast kernels load whole cache-line vectors.
  instrument::AlignedBuffer src(cells), flux(cells), iface(kNk * kJt * ls), jface(kNk * kIt * ls),
      kface(kJt * kIt * ls);
  const auto fill = [](instrument::AlignedBuffer& a, double v) { std::fill(a.data(), a.data() + a.size(), v); };
  fill(src, 1.0);
  BlockData b;
  b.it = kIt;
  b.jt = kJt;
  b.nk = kNk;
  b.nm = 1;
  b.src = src.data();
  b.flux = flux.data();
  b.iface = iface.data();
  b.jface = jface.data();
  b.kface = kface.data();
  std::vector<double> ns;
  for (int pass = 0; pass < kPasses; ++pass) {
    fill(flux, 0.0);
    const auto t0 = std::chrono::steady_clock::now();
    for (const AngleBlock& ab : problem.blocks) {
      // The same inflow every block, so no value drifts (towards denormals or infinities).
      fill(iface, 0.5);
      fill(jface, 0.25);
      fill(kface, 0.125);
      b.k_first = ab.sk > 0 ? 0 : kNk - 1;  // the block's first plane in the octant's sweep order
      kernel(b, ab);
    }
    const double pass_ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    ns.push_back(pass_ns / cells);
  }
  // The flux is read once, so no pass can be dropped as dead.
  volatile double sink = flux[cells / 2];
  (void)sink;
  return instrument::median(ns);
}

}  // namespace sweep3d
