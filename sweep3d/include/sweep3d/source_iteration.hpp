// The work around the sweep in one source iteration (spec §3, §4): the scattering source
// before it (W_before), the convergence measure after it (W_after), and the balance sums.
#pragma once
#include "instrument/aligned_buffer.hpp"
#include "sweep3d/decomposition.hpp"
#include "sweep3d/problem.hpp"

namespace sweep3d {

// The cell arrays of a rank, cell = (k*jt + j)*it + i (0-based local).
struct CellFields {
  int nm = 1;
  long cells = 0;
  instrument::AlignedBuffer flux;   // [cell][nm] flux moments
  instrument::AlignedBuffer src;    // [cell][nm] source moments of the current sweep
  instrument::AlignedBuffer pflux;  // [cell] scalar flux of the previous iteration
  std::size_t bytes() const { return flux.bytes() + src.bytes() + pflux.bytes(); }
};

CellFields make_cell_fields(const Problem& p, const KbaDecomposition& d);

// External source of local cell (i, j, k): 1.0 inside the source box, else 0.0.
struct ExternalSource {
  int lo[3], hi[3];  // local 0-based inclusive box
  ExternalSource(const Problem& p, const KbaDecomposition& d);
  double at(int i, int j, int k) const {
    return (i >= lo[0] && i <= hi[0] && j >= lo[1] && j <= hi[1] && k >= lo[2] && k <= hi[2]) ? 1.0 : 0.0;
  }
};

// Src1 = Srcx + sigma_s0*Flux1, Src_n = sigma_s1*Flux_n; Pflux = Flux1; Flux = 0.
// Cell by cell, so any number of OpenMP threads gives the same bits.
void compute_source(const Problem& p, const KbaDecomposition& d, CellFields& f, int threads = 1);

// max over cells with Flux1 != 0 of |(Flux1 - Pflux)/Flux1| (0 if none): this rank's part.
// A maximum does not depend on the order, so threads give the same value.
double local_flux_error(const CellFields& f, int threads = 1);

// This rank's external source and absorption (k outer, j, i inner; spec §4).
struct LocalBalance {
  double source = 0.0, absorption = 0.0;
};
LocalBalance local_balance(const Problem& p, const KbaDecomposition& d, const CellFields& f);

}  // namespace sweep3d
