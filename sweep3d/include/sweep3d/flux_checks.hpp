// What the run tells about its flux beyond the balance: a checksum and maximum that must be
// the same for any process grid, blocking, kernel and thread count; the original's iprint = 1
// flux plane; and the whole flux gathered on rank 0 (for tests).
#pragma once
#include <cstdint>
#include <ostream>
#include <vector>

#include "instrument/comm.hpp"
#include "sweep3d/driver.hpp"
#include "sweep3d/source_iteration.hpp"

namespace sweep3d {

struct FluxCheck {
  std::uint64_t checksum = 0;  // sum mod 2^64 of bits(flux) x (2 x global index + 1)
  double max_scalar = 0.0;     // largest |scalar flux|
};

// Collective; the same on every rank.
FluxCheck check_flux(const Deck& deck, const KbaDecomposition& d, const CellFields& fields, instrument::Comm& comm);

// Collective. iprint = 1: plane k = 5 of every rank, printed by rank 0 in rank order on `out`.
void print_flux_planes(const Deck& deck, const RunOptions& options, const CellFields& fields, instrument::Comm& comm,
                       std::ostream* out);

// Collective. The global flux moments on rank 0, [((k*jt_g + j)*it_g + i)*nm + n]; empty
// elsewhere.
std::vector<double> gather_flux(const Deck& deck, const RunOptions& options, const CellFields& fields,
                                instrument::Comm& comm);

}  // namespace sweep3d
