// The arithmetic of the smoother's cell loop (p1_operator.hpp), for one cell (V = double) or
// for four in the lanes of an AVX2 register (V = Lanes4). The portable and AVX2 builds
// (p1_cells.hpp) both call it, so each lane does the operations of the portable loop in the
// same order and the two give the same bits (p1_operator.hpp counts the flops).
#pragma once
#include <cmath>
#include <cstddef>

#ifdef __AVX2__
#include <immintrin.h>
#endif

// This header is compiled into objects of three instruction sets (p1_cells_avx512.cpp with
// -mavx512f, p1_cells_avx2.cpp with -mavx2, the rest without). An inline namespace per
// instruction set gives its inline functions distinct symbols in each, so the linker can
// never hand portable code a copy compiled with AVX instructions (at -O0, where nothing is
// inlined, it otherwise could).
#if defined(__AVX512F__)
#define MG_CELL_MATH_ISA isa_avx512
#elif defined(__AVX2__)
#define MG_CELL_MATH_ISA isa_avx2
#else
#define MG_CELL_MATH_ISA isa_portable
#endif

namespace mg::detail {
inline namespace MG_CELL_MATH_ISA {

// The geometry is read at 4 nodes: a cell's corners, or a family's first 4 (its parent's
// corners, from which the children's geometry follows).
inline constexpr std::size_t kGeometryNodes = 4;

// The corners' coordinates and the values K is applied to at N nodes: a cell's 4 corners or
// a family's 10 nodes.
template <class V, std::size_t N>
struct NodeValues {
  V x[kGeometryNodes], y[kGeometryNodes], z[kGeometryNodes], u[N];
};
template <class V>
using CellCorners = NodeValues<V, 4>;
template <class V>
using FamilyNodes = NodeValues<V, 10>;

#ifdef __AVX2__
// Four doubles in an AVX2 register: __m256d without its may_alias attribute, which a
// template argument would drop.
typedef double Lanes4 __attribute__((vector_size(32)));
#endif
#ifdef __AVX512F__
// Eight doubles in an AVX-512 register, likewise.
typedef double Lanes8 __attribute__((vector_size(64)));
#endif

inline double magnitude(double v) { return std::fabs(v); }
#ifdef __AVX2__
inline Lanes4 magnitude(Lanes4 v) { return _mm256_andnot_pd(_mm256_set1_pd(-0.0), v); }
#endif
#ifdef __AVX512F__
inline Lanes8 magnitude(Lanes8 v) { return _mm512_abs_pd(v); }
#endif

// A vector of three lanes-or-doubles: a face vector c_k.
template <class V>
struct Vec3 {
  V x, y, z;
};
template <class V>
inline Vec3<V> operator+(const Vec3<V>& a, const Vec3<V>& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
template <class V>
inline Vec3<V> operator-(const Vec3<V>& a) { return {-a.x, -a.y, -a.z}; }  // a sign, not a flop

// The face vectors of a tetrahedron from its corners: c_1 = e_2 x e_3, c_2 = e_3 x e_1,
// c_3 = e_1 x e_2 with e_k = x_k - x_0, and 1 / (6 |det|) (36 + 7 flops).
template <class V>
struct CellGeometry {
  Vec3<V> c1, c2, c3;
  V scale;
};
template <class V, std::size_t N>
inline CellGeometry<V> cell_geometry(const NodeValues<V, N>& p) {
  const V e1x = p.x[1] - p.x[0], e1y = p.y[1] - p.y[0], e1z = p.z[1] - p.z[0];
  const V e2x = p.x[2] - p.x[0], e2y = p.y[2] - p.y[0], e2z = p.z[2] - p.z[0];
  const V e3x = p.x[3] - p.x[0], e3y = p.y[3] - p.y[0], e3z = p.z[3] - p.z[0];
  CellGeometry<V> g;
  g.c1 = {e2y * e3z - e2z * e3y, e2z * e3x - e2x * e3z, e2x * e3y - e2y * e3x};
  g.c2 = {e3y * e1z - e3z * e1y, e3z * e1x - e3x * e1z, e3x * e1y - e3y * e1x};
  g.c3 = {e1y * e2z - e1z * e2y, e1z * e2x - e1x * e2z, e1x * e2y - e1y * e2x};
  const V det = e1x * g.c1.x + e1y * g.c1.y + e1z * g.c1.z;
  g.scale = 1.0 / (6.0 * magnitude(det));
  return g;
}

// out[i] = (K u)_i with K_ij = scale c_i . c_j: the gradient sum_k c_k (u_k - u_0), and
// (K u)_0 = -((K u)_1 + (K u)_2 + (K u)_3) (38 flops).
template <class V>
inline void element_product(const Vec3<V>& c1, const Vec3<V>& c2, const Vec3<V>& c3, V scale, V u0, V u1, V u2,
                            V u3, V (&out)[4]) {
  const V d1 = u1 - u0, d2 = u2 - u0, d3 = u3 - u0;
  const V gx = c1.x * d1 + c2.x * d2 + c3.x * d3;
  const V gy = c1.y * d1 + c2.y * d2 + c3.y * d3;
  const V gz = c1.z * d1 + c2.z * d2 + c3.z * d3;
  out[1] = scale * (c1.x * gx + c1.y * gy + c1.z * gz);
  out[2] = scale * (c2.x * gx + c2.y * gy + c2.z * gz);
  out[3] = scale * (c3.x * gx + c3.y * gy + c3.z * gz);
  out[0] = -(out[1] + out[2] + out[3]);
}

// A cell alone: its geometry from its corners, then K u.
template <class V>
inline void cell_product(const CellCorners<V>& p, V (&out)[4]) {
  const CellGeometry<V> g = cell_geometry(p);
  element_product(g.c1, g.c2, g.c3, g.scale, p.u[0], p.u[1], p.u[2], p.u[3], out);
}

// A family: the 8 children of one parent cell from uniform refinement, on its 10 nodes in the
// order v0, v1, v2, v3, m01, m02, m03, m12, m13, m23 (m_ij the midpoint of parent edge ij),
// labelled so that the octahedron's diagonal is m01-m23 (local_level.hpp). kFamilyChild
// lists each child's corners; kFamilyFirst marks a node's first appearance, where its sum
// starts instead of adding to a zero.
inline constexpr unsigned char kFamilyChild[8][4] = {{0, 4, 5, 6}, {4, 1, 7, 8}, {5, 7, 2, 9}, {6, 8, 9, 3},
                                                     {4, 9, 5, 6}, {4, 9, 6, 8}, {4, 9, 8, 7}, {4, 9, 7, 5}};
inline constexpr bool kFamilyFirst[8][4] = {{true, true, true, true},    {false, true, true, true},
                                            {false, false, true, true},  {false, false, false, true},
                                            {false, false, false, false}, {false, false, false, false},
                                            {false, false, false, false}, {false, false, false, false}};

// The children's geometry is the parent's: every child's edges are sums of half the parent's
// edges E_k, so its face vectors are sums of the parent's C_k / 4 and its volume is the
// parent's / 8. With the parent's own C_1..C_3 and scale, every child's K is
// (scale / 2) c_i . c_j over these sums, worked from the corner order of kFamilyChild:
//   corner children (v_k at one corner, the midpoints of its edges): C1, C2, C3 (the parent
//     halved and moved);
//   {m01, m23, m02, m03}: C1 + C2 + C3, -(C1 + C3), -(C1 + C2);
//   {m01, m23, m03, m13}: C2, -(C1 + C2), C1 + C3;
//   {m01, m23, m13, m12}: -C1, C1 + C3, C1 + C2;
//   {m01, m23, m12, m02}: C3, C1 + C2, -(C1 + C3).
// kFamilyFaces holds these sums: child j's face vector c_k = sum_m kFamilyFaces[j][k][m] C_m.
// So a child's gradient is g = sum_k c_k d_k = sum_m C_m h_m with h_m = sum_k A_km d_k
// (d_k = u_k - u_0, A = kFamilyFaces[j]: additions only), and its K u is
// (K u)_k = s c_k . g = sum_m A_km t_m with t = s G h, G_mn = C_m . C_n the parent's Gram
// matrix, formed once a family. Only the parent's 4 corners' coordinates are read (the
// midpoints' are not), and a family costs 44 flops of geometry, 36 for s G, 20 for each
// corner child's K u (t = s G d and the sum for u_0), 28, 24, 24 and 24 for the inner ones
// (the sums over A added), and 22 + 10 to add them up and scatter: 292, against 680 for its
// 8 cells one by one (kFlopsPerFamily). In exact arithmetic the same K as the children's own
// corners give; in floating point within round-off of it (unit_operator checks both).
inline constexpr signed char kFamilyFaces[8][3][3] = {
    {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},      {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
    {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},      {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
    {{1, 1, 1}, {-1, 0, -1}, {-1, -1, 0}},  {{0, 1, 0}, {-1, -1, 0}, {1, 0, 1}},
    {{-1, 0, 0}, {1, 0, 1}, {1, 1, 0}},     {{0, 0, 1}, {1, 1, 0}, {-1, 0, -1}}};

// sum_i a[i] x[i] over the a[i] that are not 0 (each 1 or -1), in the order of i: additions
// only. Called with constant a, so the tests fold away.
template <class V>
inline V signed_sum(const signed char (&a)[3], const V (&x)[3]) {
  V sum{};
  bool first = true;
#pragma GCC unroll 3
  for (int i = 0; i < 3; ++i) {
    if (a[i] == 0) continue;
    if (first) sum = a[i] > 0 ? x[i] : -x[i];
    else sum = a[i] > 0 ? sum + x[i] : sum - x[i];
    first = false;
  }
  return sum;
}

template <class V>
inline void family_product(const FamilyNodes<V>& f, V (&acc)[10]) {
  const CellGeometry<V> parent = cell_geometry(f);
  const V s = 0.5 * parent.scale;
  const Vec3<V> &C1 = parent.c1, &C2 = parent.c2, &C3 = parent.c3;
  // s G, row by row (symmetric: 6 dot products and 6 products by s).
  const V g11 = s * (C1.x * C1.x + C1.y * C1.y + C1.z * C1.z), g12 = s * (C1.x * C2.x + C1.y * C2.y + C1.z * C2.z),
          g13 = s * (C1.x * C3.x + C1.y * C3.y + C1.z * C3.z), g22 = s * (C2.x * C2.x + C2.y * C2.y + C2.z * C2.z),
          g23 = s * (C2.x * C3.x + C2.y * C3.y + C2.z * C3.z), g33 = s * (C3.x * C3.x + C3.y * C3.y + C3.z * C3.z);
#pragma GCC unroll 8
  for (int j = 0; j < 8; ++j) {
    const unsigned char* n = kFamilyChild[j];
    const signed char(&A)[3][3] = kFamilyFaces[j];
    const V d[3] = {f.u[n[1]] - f.u[n[0]], f.u[n[2]] - f.u[n[0]], f.u[n[3]] - f.u[n[0]]};
    // h_m = sum_k A_km d_k: the columns of A.
    const signed char col[3][3] = {{A[0][0], A[1][0], A[2][0]}, {A[0][1], A[1][1], A[2][1]}, {A[0][2], A[1][2], A[2][2]}};
    const V h1 = signed_sum(col[0], d), h2 = signed_sum(col[1], d), h3 = signed_sum(col[2], d);
    const V t[3] = {g11 * h1 + g12 * h2 + g13 * h3, g12 * h1 + g22 * h2 + g23 * h3, g13 * h1 + g23 * h2 + g33 * h3};
    V out[4];
    out[1] = signed_sum(A[0], t);
    out[2] = signed_sum(A[1], t);
    out[3] = signed_sum(A[2], t);
    out[0] = -(out[1] + out[2] + out[3]);
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) {
      if (kFamilyFirst[j][k]) acc[n[k]] = out[k];
      else acc[n[k]] += out[k];
    }
  }
}

// What the loops call: out[n] = (K u) at node n of a cell or of a family.
template <class V>
inline void product(const NodeValues<V, 4>& p, V (&out)[4]) { cell_product(p, out); }
template <class V>
inline void product(const NodeValues<V, 10>& f, V (&out)[10]) { family_product(f, out); }

}  // inline namespace MG_CELL_MATH_ISA
}  // namespace mg::detail
