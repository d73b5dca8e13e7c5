#include "sweep3d/flux_checks.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>

#include "sweep3d/report.hpp"

namespace sweep3d {

namespace {

constexpr int kTagGather = 77001;

// Rank 0 receives `count(r)` doubles from every rank r > 0, in rank order, and hands each
// array to `use(r, data)` (its own first). Point-to-point through Comm.
template <class Count, class Use>
void collect_on_root(instrument::Comm& comm, const std::vector<double>& mine, Count count, Use use) {
  if (comm.rank() != 0) {
    comm.send(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, 0, kTagGather);
    return;
  }
  use(0, mine);
  std::vector<double> buf;
  for (int r = 1; r < comm.size(); ++r) {
    buf.assign(static_cast<std::size_t>(count(r)), 0.0);
    comm.recv(buf.data(), static_cast<int>(buf.size()), MPI_DOUBLE, r, kTagGather);
    use(r, buf);
  }
}

std::size_t at(long k, long j, long i, long jt, long it) { return static_cast<std::size_t>((k * jt + j) * it + i); }

}  // namespace

FluxCheck check_flux(const Deck& deck, const KbaDecomposition& d, const CellFields& f, instrument::Comm& comm) {
  const auto nm = static_cast<std::uint64_t>(f.nm);
  std::uint64_t sum = 0;
  double mx = 0.0;
  for (int k = 0; k < d.kt; ++k)
    for (int j = 0; j < d.jt; ++j)
      for (int i = 0; i < d.it; ++i) {
        const std::size_t c = at(k, j, i, d.jt, d.it);
        const auto g = static_cast<std::uint64_t>(at(k, d.jstart - 1 + j, d.istart - 1 + i, deck.jt_g, deck.it_g));
        for (std::uint64_t n = 0; n < nm; ++n) {
          std::uint64_t bits = 0;
          std::memcpy(&bits, &f.flux[c * nm + n], sizeof bits);
          sum += bits * (2 * (g * nm + n) + 1);
        }
        mx = std::max(mx, std::fabs(f.flux[c * nm]));
      }
  FluxCheck r;
  comm.allreduce(&sum, &r.checksum, 1, MPI_UINT64_T, MPI_SUM);
  comm.allreduce(&mx, &r.max_scalar, 1, MPI_DOUBLE, MPI_MAX);
  return r;
}

void print_flux_planes(const Deck& deck, const RunOptions& opt, const CellFields& f, instrument::Comm& comm,
                       std::ostream* out) {
  const int nranks = comm.size();
  const KbaDecomposition d = run_decomposition(deck, comm.rank(), nranks, opt);
  if (deck.kt < 5) {
    if (comm.rank() == 0)
      std::cerr << "sweep3d: warning: iprint = 1 prints plane k = 5, but kt = " << deck.kt << " < 5; no flux printed\n";
    return;
  }
  const int nm = f.nm;
  std::vector<double> plane(static_cast<std::size_t>(nm) * static_cast<std::size_t>(d.it) * static_cast<std::size_t>(d.jt));
  for (int n = 0; n < nm; ++n)
    for (int j = 0; j < d.jt; ++j)
      for (int i = 0; i < d.it; ++i)
        plane[at(n, j, i, d.jt, d.it)] = f.flux[at(4, j, i, d.jt, d.it) * static_cast<std::size_t>(nm) + static_cast<std::size_t>(n)];
  collect_on_root(
      comm, plane,
      [&](int r) {
        const KbaDecomposition dr = run_decomposition(deck, r, nranks, opt);
        return static_cast<long>(nm) * dr.it * dr.jt;
      },
      [&](int r, const std::vector<double>& data) {
        if (out) print_flux_plane(*out, r + 1, run_decomposition(deck, r, nranks, opt), nm, data);
      });
}

std::vector<double> gather_flux(const Deck& deck, const RunOptions& opt, const CellFields& f, instrument::Comm& comm) {
  const int nm = f.nm, nranks = comm.size();
  std::vector<double> global;
  if (comm.rank() == 0)
    global.assign(static_cast<std::size_t>(deck.it_g) * static_cast<std::size_t>(deck.jt_g) *
                      static_cast<std::size_t>(deck.kt) * static_cast<std::size_t>(nm),
                  0.0);
  const std::vector<double> mine(f.flux.data(), f.flux.data() + f.flux.size());
  collect_on_root(
      comm, mine, [&](int r) { return run_decomposition(deck, r, nranks, opt).local_cells() * nm; },
      [&](int r, const std::vector<double>& data) {
        const KbaDecomposition dr = run_decomposition(deck, r, nranks, opt);
        for (int k = 0; k < dr.kt; ++k)
          for (int j = 0; j < dr.jt; ++j)
            for (int i = 0; i < dr.it; ++i)
              for (int n = 0; n < nm; ++n)
                global[at(k, dr.jstart - 1 + j, dr.istart - 1 + i, deck.jt_g, deck.it_g) * static_cast<std::size_t>(nm) +
                       static_cast<std::size_t>(n)] =
                    data[at(k, j, i, dr.jt, dr.it) * static_cast<std::size_t>(nm) + static_cast<std::size_t>(n)];
      });
  return global;
}

}  // namespace sweep3d
