// The arithmetic of the smoother's cell loop (p1_operator.hpp), for one cell (V = double) or
// for four in the lanes of an AVX2 register (V = Lanes4). The portable and AVX2 builds
// (p1_cells.hpp) both call it, so each lane does the operations of the portable loop in the
// same order and the two give the same bits; 85 flops (p1_operator.hpp counts them).
#pragma once
#include <cmath>
#include <cstddef>

#ifdef __AVX2__
#include <immintrin.h>
#endif

// This header is compiled into objects of two instruction sets (p1_cells_avx2.cpp with
// -mavx2, the rest without). An inline namespace per instruction set gives its inline
// functions distinct symbols in each, so the linker can never hand portable code a copy
// compiled with AVX instructions (at -O0, where nothing is inlined, it otherwise could).
#ifdef __AVX2__
#define MG_CELL_MATH_ISA isa_avx2
#else
#define MG_CELL_MATH_ISA isa_portable
#endif

namespace mg::detail {
inline namespace MG_CELL_MATH_ISA {

// N nodes' coordinates and the values K is applied to: a cell's 4 corners or a family's 10.
template <class V, std::size_t N>
struct NodeValues {
  V x[N], y[N], z[N], u[N];
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

inline double magnitude(double v) { return std::fabs(v); }
#ifdef __AVX2__
inline Lanes4 magnitude(Lanes4 v) { return _mm256_andnot_pd(_mm256_set1_pd(-0.0), v); }
#endif

// out[i] = (K u)_i with K_ij = c_i . c_j / (6 |det|): c_1..c_3 from the edges from corner 0,
// the gradient sum_k c_k (u_k - u_0), and (K u)_0 = -((K u)_1 + (K u)_2 + (K u)_3).
template <class V>
inline void cell_product(const CellCorners<V>& p, V (&out)[4]) {
  const V e1x = p.x[1] - p.x[0], e1y = p.y[1] - p.y[0], e1z = p.z[1] - p.z[0];
  const V e2x = p.x[2] - p.x[0], e2y = p.y[2] - p.y[0], e2z = p.z[2] - p.z[0];
  const V e3x = p.x[3] - p.x[0], e3y = p.y[3] - p.y[0], e3z = p.z[3] - p.z[0];
  const V c1x = e2y * e3z - e2z * e3y, c1y = e2z * e3x - e2x * e3z, c1z = e2x * e3y - e2y * e3x;
  const V c2x = e3y * e1z - e3z * e1y, c2y = e3z * e1x - e3x * e1z, c2z = e3x * e1y - e3y * e1x;
  const V c3x = e1y * e2z - e1z * e2y, c3y = e1z * e2x - e1x * e2z, c3z = e1x * e2y - e1y * e2x;
  const V det = e1x * c1x + e1y * c1y + e1z * c1z;
  const V scale = 1.0 / (6.0 * magnitude(det));
  const V d1 = p.u[1] - p.u[0], d2 = p.u[2] - p.u[0], d3 = p.u[3] - p.u[0];
  const V gx = c1x * d1 + c2x * d2 + c3x * d3;
  const V gy = c1y * d1 + c2y * d2 + c3y * d3;
  const V gz = c1z * d1 + c2z * d2 + c3z * d3;
  out[1] = scale * (c1x * gx + c1y * gy + c1z * gz);
  out[2] = scale * (c2x * gx + c2y * gy + c2z * gz);
  out[3] = scale * (c3x * gx + c3y * gy + c3z * gz);
  out[0] = -(out[1] + out[2] + out[3]);
}

// A family: the 8 children of one parent cell from uniform refinement, on its 10 nodes in the
// order v0, v1, v2, v3, m01, m02, m03, m12, m13, m23 (m_ij the midpoint of parent edge ij),
// labelled so that the octahedron's diagonal is m01-m23 (local_level.hpp). kFamilyChild
// lists each child's corners; kFamilyFirst marks a node's first appearance, where its sum
// starts instead of adding to a zero, so that a family costs the flops of its 8 cells.
inline constexpr unsigned char kFamilyChild[8][4] = {{0, 4, 5, 6}, {4, 1, 7, 8}, {5, 7, 2, 9}, {6, 8, 9, 3},
                                                     {4, 9, 5, 6}, {4, 9, 6, 8}, {4, 9, 8, 7}, {4, 9, 7, 5}};
inline constexpr bool kFamilyFirst[8][4] = {{true, true, true, true},    {false, true, true, true},
                                            {false, false, true, true},  {false, false, false, true},
                                            {false, false, false, false}, {false, false, false, false},
                                            {false, false, false, false}, {false, false, false, false}};

// acc[n] = sum over the children at node n of their (K u) there, children in order.
template <class V>
inline void family_product(const FamilyNodes<V>& f, V (&acc)[10]) {
#pragma GCC unroll 8
  for (int j = 0; j < 8; ++j) {
    CellCorners<V> p;
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) {
      const int n = kFamilyChild[j][k];
      p.x[k] = f.x[n];
      p.y[k] = f.y[n];
      p.z[k] = f.z[n];
      p.u[k] = f.u[n];
    }
    V out[4];
    cell_product(p, out);
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) {
      const int n = kFamilyChild[j][k];
      if (kFamilyFirst[j][k]) acc[n] = out[k];
      else acc[n] += out[k];
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
