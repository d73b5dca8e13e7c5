// The report on rank 0's stdout, in the original's gfortran layout (spec §8) so scripts that
// parse Sweep3D output keep working; our own lines come after the original's.
#pragma once
#include <array>
#include <ostream>
#include <string>
#include <vector>

#include "sweep3d/deck.hpp"
#include "sweep3d/decomposition.hpp"
#include "sweep3d/parallel_stats.hpp"

namespace sweep3d {

// Header: title, quadrature, grid, decomposition, blocking, memory, messages, efficiencies,
// DSA and fixup settings, "Iteration Monitor:".
void print_header(std::ostream& out, const Deck& deck, const KbaDecomposition& rank0,
                  const HeaderStats& stats);

std::string monitor_line(int its, double err, long long fixs);

void print_balance(std::ostream& out, double source, double absorption,
                   const std::array<double, 6>& leakage);

// The iprint = 1 block of one rank: plane k = 5 of each moment, `plane` as
// [moment][j][i] over the rank's it x jt cells.
void print_flux_plane(std::ostream& out, int task, const KbaDecomposition& d, int nm,
                      const std::vector<double>& plane);

// The original's four timing lines. `cell_angle_its` is the original's single-precision
// product its*it_g*jt_g*kt*mm*8.
void print_original_timing(std::ostream& out, double cpu_seconds, double elapsed_seconds,
                           float cell_angle_its);

}  // namespace sweep3d
