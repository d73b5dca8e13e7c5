// The smoother's cell loop: the P1 finite-element Laplacian on tetrahedra, its element
// matrix formed on the fly from the four corners (no stored matrix), as the paper's smoother
// gathers from the four nodes, computes, and scatters back.
//
// With e_k = x_k - x_0 and the face vectors c_1 = e_2 x e_3, c_2 = e_3 x e_1, c_3 = e_1 x e_2,
// c_0 = -(c_1 + c_2 + c_3) (c_i = det grad(lambda_i)), the element matrix is
// K_ij = c_i . c_j / (6 |det|). The cell loop uses c_0's form twice: the gradient
// sum_j c_j u_j is sum_k c_k (u_k - u_0), and (K u)_0 = -((K u)_1 + (K u)_2 + (K u)_3).
#pragma once
#include <cstdint>
#include <functional>

#include "multigrid/cell_loop_split.hpp"
#include "multigrid/local_level.hpp"

namespace mg {

// Floating-point operations of apply_cells, counted from the code (C1 in flops). A cell alone:
// e_k 9, c_1..c_3 27, det 5, 1/(6|det|) 2, u_k - u_0 3, the gradient 15, the three c_k . g
// 15, their scaling 3, (K u)_0 2, the scatter 4. A family of 8 children takes its geometry
// from the parent's (p1_cell_math.hpp): the parent's 44, its Gram matrix times the scale 36,
// the children's 4 x 20 + 28 + 3 x 24, their sums at the nodes 22 and the scatter 10 (36.5 a
// cell).
inline constexpr int kFlopsPerCell = 85;
inline constexpr int kFlopsPerFamily = 292;

// Three builds of one cell loop. `portable` is plain C++, a cell at a time; `avx2` takes four
// cells at once in the lanes of AVX2 registers (a corner's padded coordinates are one load,
// four of them transposed in registers); `avx512` eight, with gathers and scatters. All do
// the same operations in the same order (no fused multiply-add), so they give the same bits.
enum class CellKernel { portable, avx2, avx512 };
const char* cell_kernel_name(CellKernel k);
bool cell_kernel_runs_here(CellKernel k);  // built in, and the CPU has the instructions
CellKernel fastest_cell_kernel();          // avx512, else avx2, where it runs, else portable

// y[corner] += (K x)[corner] over my cells (y is not cleared): families, then the other
// cells, each in batches of eight (item_batches.hpp); the bits depend on that order, not the
// build.
void apply_cells(const LocalLevel& L, const double* x, double* y, CellKernel kernel = fastest_cell_kernel());

// The same sums, bit for bit, on split.threads() OpenMP threads sharing L's batches
// (cell_loop_split.hpp; split from split_cell_loop(L, ...)). Returns the threads the runtime
// gave the loop (1 when the split has one range).
int apply_cells(const LocalLevel& L, CellLoopSplit& split, const double* x, double* y,
                CellKernel kernel = fastest_cell_kernel());

// The diagonal K_ii of my cells, summed into d.
void add_cell_diagonal(const LocalLevel& L, double* d);

// b_i += integral over my cells of f lambda_i (the symmetric 4-point rule, exact to degree 2:
// a linear f exactly; cell_quadrature.hpp says why not more): a cell's four integrals first,
// each over the rule's points in ascending order, then added to b corner by corner, cell after
// cell. `kernel` picks the instruction set of the sums (as for apply_cells); every one gives
// the same bits.
void add_cell_load(const LocalLevel& L, const std::function<double(double, double, double)>& f, double* b,
                   CellKernel kernel = fastest_cell_kernel());

// Sum over my cells of the integral of (u_h - u)^2 (the rule exact to degree 5, 64 points, in
// 8 partial sums added pairwise: cell_quadrature.hpp), cell after cell.
double cell_l2_error_squared(const LocalLevel& L, const double* uh,
                             const std::function<double(double, double, double)>& u,
                             CellKernel kernel = fastest_cell_kernel());

// f(x, y, z) = scale * (g(x) * g(y) * g(z)), the products in that order: a separable function
// (the manufactured solution and its load). The overloads below give the bits the
// std::function ones give for the same f, with g evaluated once per distinct pattern of a
// cell's corner coordinates on an axis (axis_value_cache.hpp) instead of 3 times a cell's points.
struct ProductFunction {
  double scale = 1;
  double (*g)(double) = nullptr;
  double operator()(double x, double y, double z) const { return scale * (g(x) * g(y) * g(z)); }
};
// With `diagonal`, also add_cell_diagonal's sums into it, in the same pass: the cells' element
// vectors, which the load needs for their volumes, are computed once (the set-up's finest
// grid: one pass over its cells fewer).
void add_cell_load(const LocalLevel& L, const ProductFunction& f, double* b, CellKernel kernel = fastest_cell_kernel(),
                   double* diagonal = nullptr);
double cell_l2_error_squared(const LocalLevel& L, const double* uh, const ProductFunction& u,
                             CellKernel kernel = fastest_cell_kernel());

}  // namespace mg
