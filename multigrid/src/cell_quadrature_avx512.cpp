// The load's and the error norm's quadrature sums (cell_quadrature.hpp) built with -mavx512f,
// only where the compiler targets x86-64, and called only where the CPU has AVX-512F.
#include "cell_quadrature.hpp"

namespace mg::detail {

CellQuadratureKernels cell_quadrature_avx512() { return cell_quadrature_here(); }

}  // namespace mg::detail
