// The smoother's cell loop: the P1 finite-element Laplacian on tetrahedra, its element
// matrix formed on the fly from the four corners (no stored matrix), as the paper's smoother
// gathers from the four nodes, computes, and scatters back.
//
// With e_k = x_k - x_0 and the face vectors c_1 = e_2 x e_3, c_2 = e_3 x e_1, c_3 = e_1 x e_2,
// c_0 = -(c_1 + c_2 + c_3) (c_i = det grad(lambda_i)), the element matrix is
// K_ij = c_i . c_j / (6 |det|), so K x = c_i . (sum_j c_j x_j) / (6 |det|).
#pragma once
#include <cstdint>
#include <functional>

#include "multigrid/local_level.hpp"

namespace mg {

// Floating-point operations per cell of apply_cells, counted from the code (C1 in flops):
// e_k 9, c_1..c_3 27, c_0 6, det 5, 1/(6|det|) 2, sum_j c_j x_j 24, the four c_i . g 20,
// their scaling 4, the scatter 4.
inline constexpr int kFlopsPerCell = 101;

// y[corner] += (K x)[corner] over my cells (y is not cleared).
void apply_cells(const LocalLevel& L, const double* x, double* y);

// The diagonal K_ii of my cells, summed into d.
void add_cell_diagonal(const LocalLevel& L, double* d);

// b_i += integral over my cells of f lambda_i (conical product rule exact to degree 5).
void add_cell_load(const LocalLevel& L, const std::function<double(double, double, double)>& f, double* b);

// Sum over my cells of the integral of (u_h - u)^2 (the same rule).
double cell_l2_error_squared(const LocalLevel& L, const double* uh,
                             const std::function<double(double, double, double)>& u);

}  // namespace mg
