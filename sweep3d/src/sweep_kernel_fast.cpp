// Fast kernel: all angles of the block are solved together at each cell, one SIMD lane per
// angle (GCC vector extensions; this file is compiled once per instruction set, see
// CMakeLists.txt, and select_kernel picks the widest the CPU has).
//
// Why the results are bit-identical to the reference kernel:
//   * every lane does the reference's operations in the reference's order (no FMA: the
//     build has -ffp-contract=off; psi+psi is 2.0*psi exactly);
//   * the flux moments of a cell are accumulated lane by lane, angle m = 1..na in order,
//     exactly as the reference's angle-outer loop adds them;
//   * a lane with a negative outflow takes the reference's scalar fixup (flux_fixup.hpp);
//     fixups are rare, so the test is one compare per face and a branch not taken.
// With threads > 1 the lines of cells (fixed j, k) of the block are shared by OpenMP threads
// in a j-k wavefront: contiguous chunks of lines per thread, pipelined over the planes.
// Every line does the same operations whatever thread runs it, in an order that respects
// its upstream lines, so the results do not depend on the number of threads.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "sweep3d/flux_fixup.hpp"
#include "sweep3d/sweep_kernel.hpp"

#ifndef SWEEP3D_ISA
#define SWEEP3D_ISA sse2
#endif
#define SWEEP3D_CAT2(a, b) a##b
#define SWEEP3D_CAT(a, b) SWEEP3D_CAT2(a, b)

namespace sweep3d {
namespace SWEEP3D_CAT(fast_, SWEEP3D_ISA) {

namespace {

constexpr int kMaxThreads = 64;

template <int W>
struct Vec {
  typedef double type __attribute__((vector_size(W * sizeof(double))));
};
typedef double v4d __attribute__((vector_size(4 * sizeof(double))));

template <int W>
inline typename Vec<W>::type splat(double x) {
  typename Vec<W>::type v;
  for (int l = 0; l < W; ++l) v[l] = x;
  return v;
}

template <int W, class M>
inline bool any_lane(M m) {
  long r = 0;
  for (int l = 0; l < W; ++l) r |= m[l];
  return r != 0;
}

template <int NA>
struct Coefficients {
  static constexpr int W = lane_stride(NA);
  using V = typename Vec<W>::type;
  V ci, cj, ck, r, pn0, pn1, pn2;
  explicit Coefficients(const AngleBlock& ab) {
    ci = *reinterpret_cast<const V*>(ab.ci);
    cj = *reinterpret_cast<const V*>(ab.cj);
    ck = *reinterpret_cast<const V*>(ab.ck);
    r = *reinterpret_cast<const V*>(ab.r);
    pn0 = *reinterpret_cast<const V*>(ab.pn[0]);
    pn1 = *reinterpret_cast<const V*>(ab.pn[1]);
    pn2 = *reinterpret_cast<const V*>(ab.pn[2]);
  }
};

// One line of cells (plane kp of the block, line jj in sweep order), all angles at once.
template <int NA, int NM, bool FIXUP>
inline std::int64_t sweep_line(const BlockData& b, const AngleBlock& ab, const Coefficients<NA>& c,
                               int kp, int jj) {
  constexpr int W = lane_stride(NA);
  using V = typename Vec<W>::type;
  const int it = b.it, jt = b.jt;
  const int k = b.k_first + kp * ab.sk;
  const int j = ab.sj > 0 ? jj : jt - 1 - jj;
  V* const face_i = reinterpret_cast<V*>(b.iface) + (static_cast<long>(kp) * jt + j);
  V* const face_j = reinterpret_cast<V*>(b.jface) + static_cast<long>(kp) * it;
  V* const face_k = reinterpret_cast<V*>(b.kface) + static_cast<long>(j) * it;
  const long row = (static_cast<long>(k) * jt + j) * it;
  const double* const src = b.src + row * NM;
  double* const flux = b.flux + row * NM;
  const int step = ab.si;
  std::int64_t nfixed = 0;

  V psi_i = *face_i;
  for (int n = 0, i = step > 0 ? 0 : it - 1; n < it; ++n, i += step) {
    const V psi_j = face_j[i], psi_k = face_k[i];
    const double* s = src + static_cast<long>(i) * NM;
    V q = splat<W>(s[0]);
    if constexpr (NM == 4) {
      q = q + c.pn0 * s[1];
      q = q + c.pn1 * s[2];
      q = q + c.pn2 * s[3];
    }
    const V ql = ((q + c.ci * psi_i) + c.cj * psi_j) + c.ck * psi_k;
    V psi = ql * c.r;
    const V two = psi + psi;
    V ti = two - psi_i, tj = two - psi_j, tk = two - psi_k;
    if constexpr (FIXUP) {
      const auto neg = (ti < 0.0) | (tj < 0.0) | (tk < 0.0);
      if (__builtin_expect(any_lane<W>(neg), 0)) {
        for (int a = 0; a < NA; ++a) {
          if (!neg[a]) continue;
          double p = psi[a], fi = ti[a], fj = tj[a], fk = tk[a];
          nfixed += flux_fixup(ab.ci[a], ab.cj[a], ab.ck[a], ab.dl[a], ql[a], p, psi_i[a], psi_j[a],
                               psi_k[a], fi, fj, fk);
          psi[a] = p;
          ti[a] = fi;
          tj[a] = fj;
          tk[a] = fk;
        }
      }
    }
    psi_i = ti;
    face_j[i] = tj;
    face_k[i] = tk;
    if constexpr (NM == 4) {
      v4d* f = reinterpret_cast<v4d*>(flux + static_cast<long>(i) * 4);
      v4d acc = *f;
      for (int a = 0; a < NA; ++a) acc = acc + *reinterpret_cast<const v4d*>(ab.pnw[a]) * psi[a];
      *f = acc;
    } else {
      double acc = flux[i];
      for (int a = 0; a < NA; ++a) acc = acc + ab.pnw[a][0] * psi[a];
      flux[i] = acc;
    }
  }
  *face_i = psi_i;
  return nfixed;
}

template <int NA, int NM, bool FIXUP>
std::int64_t sweep_block(const BlockData& b, const AngleBlock& ab) {
  const Coefficients<NA> c(ab);
  std::int64_t nfixed = 0;
  const int nthreads = std::min({b.threads, b.jt, kMaxThreads});
  if (nthreads <= 1) {
    for (int kp = 0; kp < b.nk; ++kp)
      for (int jj = 0; jj < b.jt; ++jj) nfixed += sweep_line<NA, NM, FIXUP>(b, ab, c, kp, jj);
    return nfixed;
  }
  // Threads own contiguous chunks of lines (in sweep order) and pipeline over the planes:
  // thread t starts plane kp once thread t-1 has finished it (the J-face it hands over),
  // its own previous plane gives the K-face. One flag per thread and plane, no barriers.
  std::atomic<int> planes_done[kMaxThreads];
  for (auto& p : planes_done) p.store(0, std::memory_order_relaxed);
#pragma omp parallel num_threads(nthreads) reduction(+ : nfixed)
  {
    const int nt = omp_get_num_threads(), t = omp_get_thread_num();
    const int j0 = static_cast<int>(static_cast<long>(b.jt) * t / nt);
    const int j1 = static_cast<int>(static_cast<long>(b.jt) * (t + 1) / nt);
    for (int kp = 0; kp < b.nk; ++kp) {
      if (t > 0)
        for (int spins = 0; planes_done[t - 1].load(std::memory_order_acquire) <= kp; ++spins)
          if (spins > 64) std::this_thread::yield();
      for (int jj = j0; jj < j1; ++jj) nfixed += sweep_line<NA, NM, FIXUP>(b, ab, c, kp, jj);
      planes_done[t].store(kp + 1, std::memory_order_release);
    }
  }
  return nfixed;
}

template <int NA>
SweepKernel pick(int nm, bool fixup) {
  if (nm == 4) return fixup ? &sweep_block<NA, 4, true> : &sweep_block<NA, 4, false>;
  return fixup ? &sweep_block<NA, 1, true> : &sweep_block<NA, 1, false>;
}

}  // namespace

std::int64_t sweep_block_fast(const BlockData& b, const AngleBlock& ab) {
  SweepKernel k = nullptr;
  switch (ab.na) {
    case 1: k = pick<1>(b.nm, b.fixup); break;
    case 2: k = pick<2>(b.nm, b.fixup); break;
    case 3: k = pick<3>(b.nm, b.fixup); break;
    case 6: k = pick<6>(b.nm, b.fixup); break;
    default: return sweep_block_ref(b, ab);  // not reachable: mmi divides 3 or 6
  }
  return k(b, ab);
}

}  // namespace fast_<isa>
}  // namespace sweep3d
