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
#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <utility>

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

template <int W>
struct Vec {
  typedef double type __attribute__((vector_size(W * sizeof(double))));
};
typedef double v4d __attribute__((vector_size(4 * sizeof(double))));

// Widest vector this compilation unit's instruction set has, in doubles.
#if defined(__AVX512F__)
constexpr int kNativeLanes = 8;
#elif defined(__AVX__)
constexpr int kNativeLanes = 4;
#else
constexpr int kNativeLanes = 2;
#endif

// W lanes (one per angle of the block) as N native vectors, so that a block of 6 angles is
// one zmm with AVX-512, two ymm with AVX2 and four xmm with SSE2, all in registers.
template <int W>
struct Pack {
  static constexpr int NW = W < kNativeLanes ? W : kNativeLanes;
  static constexpr int N = W / NW;
  using P = typename Vec<NW>::type;
  P v[N];

  static Pack load(const double* p) {
    Pack r;
    for (int n = 0; n < N; ++n) r.v[n] = *reinterpret_cast<const P*>(p + n * NW);
    return r;
  }
  void store(double* p) const {
    for (int n = 0; n < N; ++n) *reinterpret_cast<P*>(p + n * NW) = v[n];
  }
  template <std::size_t... L>
  static P splat_piece(double x, std::index_sequence<L...>) {
    return P{((void)L, x)...};  // one broadcast instruction
  }
  static Pack splat(double x) {
    Pack r;
    const P b = splat_piece(x, std::make_index_sequence<NW>{});
    for (int n = 0; n < N; ++n) r.v[n] = b;
    return r;
  }
  double lane(int l) const { return v[l / NW][l % NW]; }
  void set_lane(int l, double x) { v[l / NW][l % NW] = x; }

  friend Pack operator+(const Pack& a, const Pack& b) {
    Pack r;
    for (int n = 0; n < N; ++n) r.v[n] = a.v[n] + b.v[n];
    return r;
  }
  friend Pack operator-(const Pack& a, const Pack& b) {
    Pack r;
    for (int n = 0; n < N; ++n) r.v[n] = a.v[n] - b.v[n];
    return r;
  }
  friend Pack operator*(const Pack& a, const Pack& b) {
    Pack r;
    for (int n = 0; n < N; ++n) r.v[n] = a.v[n] * b.v[n];
    return r;
  }
};

// Bit l set where lane l of a, b or c is negative (strictly: -0.0 is not).
template <int NW, class P>
inline unsigned negative_piece(P a, P b, P c) {
#if defined(__AVX512F__) && defined(__AVX512VL__)
  if constexpr (NW == 8) {
    const __m512d z = _mm512_setzero_pd();
    return _mm512_cmp_pd_mask(a, z, _CMP_LT_OQ) | _mm512_cmp_pd_mask(b, z, _CMP_LT_OQ) |
           _mm512_cmp_pd_mask(c, z, _CMP_LT_OQ);
  }
#endif
#if defined(__AVX__)
  if constexpr (NW == 4) {
    const __m256d z = _mm256_setzero_pd();
    return static_cast<unsigned>(_mm256_movemask_pd(_mm256_or_pd(
        _mm256_or_pd(_mm256_cmp_pd(a, z, _CMP_LT_OQ), _mm256_cmp_pd(b, z, _CMP_LT_OQ)),
        _mm256_cmp_pd(c, z, _CMP_LT_OQ))));
  }
#endif
  if constexpr (NW == 2) {
    const __m128d z = _mm_setzero_pd();
    return static_cast<unsigned>(
        _mm_movemask_pd(_mm_or_pd(_mm_or_pd(_mm_cmplt_pd(a, z), _mm_cmplt_pd(b, z)), _mm_cmplt_pd(c, z))));
  }
  if constexpr (NW == 1) return (a[0] < 0.0) | (b[0] < 0.0) | (c[0] < 0.0);
  return 0;
}

template <int W>
inline unsigned negative_lanes(const Pack<W>& a, const Pack<W>& b, const Pack<W>& c) {
  unsigned m = 0;
  for (int n = 0; n < Pack<W>::N; ++n) m |= negative_piece<Pack<W>::NW>(a.v[n], b.v[n], c.v[n]) << (n * Pack<W>::NW);
  return m;
}

template <int NA>
struct Coefficients {
  static constexpr int W = lane_stride(NA);
  Pack<W> ci, cj, ck, r, pn0, pn1, pn2;
  explicit Coefficients(const AngleBlock& ab)
      : ci(Pack<W>::load(ab.ci)), cj(Pack<W>::load(ab.cj)), ck(Pack<W>::load(ab.ck)), r(Pack<W>::load(ab.r)),
        pn0(Pack<W>::load(ab.pn[0])), pn1(Pack<W>::load(ab.pn[1])), pn2(Pack<W>::load(ab.pn[2])) {}
};

// The rare lanes with a negative outflow: the reference's scalar fixup, lane by lane.
// Packs travel by value so the hot loop keeps them in registers.
template <int W>
struct FixedLanes {
  Pack<W> psi, ti, tj, tk;
  std::int64_t count;
};

template <int NA>
[[gnu::noinline, gnu::cold]] FixedLanes<lane_stride(NA)> fix_lanes(unsigned lanes, const AngleBlock& ab,
                                                                  Pack<lane_stride(NA)> ql,
                                                                  FixedLanes<lane_stride(NA)> f,
                                                                  Pack<lane_stride(NA)> psi_i,
                                                                  Pack<lane_stride(NA)> psi_j,
                                                                  Pack<lane_stride(NA)> psi_k) {
  for (int a = 0; a < NA; ++a) {
    if (!(lanes >> a & 1u)) continue;
    double p = f.psi.lane(a), fi = f.ti.lane(a), fj = f.tj.lane(a), fk = f.tk.lane(a);
    f.count += flux_fixup(ab.ci[a], ab.cj[a], ab.ck[a], ab.dl[a], ql.lane(a), p, psi_i.lane(a), psi_j.lane(a),
                          psi_k.lane(a), fi, fj, fk);
    f.psi.set_lane(a, p);
    f.ti.set_lane(a, fi);
    f.tj.set_lane(a, fj);
    f.tk.set_lane(a, fk);
  }
  return f;
}

// One line of cells (plane kp of the block, line jj in sweep order), all angles at once.
template <int NA, int NM, bool FIXUP>
inline std::int64_t sweep_line(const BlockData& b, const AngleBlock& ab, const Coefficients<NA>& c,
                               int kp, int jj) {
  constexpr int W = lane_stride(NA);
  using V = Pack<W>;
  const int it = b.it, jt = b.jt;
  const int k = b.k_first + kp * ab.sk;
  const int j = ab.sj > 0 ? jj : jt - 1 - jj;
  double* const face_i = b.iface + (static_cast<long>(kp) * jt + j) * W;
  double* const face_j = b.jface + static_cast<long>(kp) * it * W;
  double* const face_k = b.kface + static_cast<long>(j) * it * W;
  const long row = (static_cast<long>(k) * jt + j) * it;
  const double* const src = b.src + row * NM;
  double* const flux = b.flux + row * NM;
  const int step = ab.si;
  std::int64_t nfixed = 0;

  V psi_i = V::load(face_i);
  for (int n = 0, i = step > 0 ? 0 : it - 1; n < it; ++n, i += step) {
    const V psi_j = V::load(face_j + static_cast<long>(i) * W), psi_k = V::load(face_k + static_cast<long>(i) * W);
    const double* s = src + static_cast<long>(i) * NM;
    V q = V::splat(s[0]);
    if constexpr (NM == 4) {
      q = q + c.pn0 * V::splat(s[1]);
      q = q + c.pn1 * V::splat(s[2]);
      q = q + c.pn2 * V::splat(s[3]);
    }
    const V ql = ((q + c.ci * psi_i) + c.cj * psi_j) + c.ck * psi_k;
    V psi = ql * c.r;
    const V two = psi + psi;
    V ti = two - psi_i, tj = two - psi_j, tk = two - psi_k;
    if constexpr (FIXUP) {
      const unsigned lanes = negative_lanes<W>(ti, tj, tk);
      if (__builtin_expect(lanes != 0, 0)) {
        const FixedLanes<W> f = fix_lanes<NA>(lanes, ab, ql, FixedLanes<W>{psi, ti, tj, tk, 0}, psi_i, psi_j, psi_k);
        psi = f.psi;
        ti = f.ti;
        tj = f.tj;
        tk = f.tk;
        nfixed += f.count;
      }
    }
    psi_i = ti;
    tj.store(face_j + static_cast<long>(i) * W);
    tk.store(face_k + static_cast<long>(i) * W);
    if constexpr (NM == 4) {
      v4d* f = reinterpret_cast<v4d*>(flux + static_cast<long>(i) * 4);
      v4d acc = *f;
      for (int a = 0; a < NA; ++a) acc = acc + *reinterpret_cast<const v4d*>(ab.pnw[a]) * psi.lane(a);
      *f = acc;
    } else {
      double acc = flux[i];
      for (int a = 0; a < NA; ++a) acc = acc + ab.pnw[a][0] * psi.lane(a);
      flux[i] = acc;
    }
  }
  psi_i.store(face_i);
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
