#include "sweep3d/report.hpp"

#include "sweep3d/fortran_format.hpp"

namespace sweep3d {

using fortran::edit_1pg;
using fortran::edit_f;
using fortran::edit_i;
using fortran::ListRecord;

void print_header(std::ostream& out, const Deck& deck, const KbaDecomposition& d, const HeaderStats& h) {
  const int isn = deck.mm == 3 ? 4 : 6;
  const int nm = deck.isct == 1 ? 4 : 1;
  out << " SWEEP3D - Method 5 - Pipelined Wavefront with Line-Recursion\n";
  out << " Version 2.2b\n";
  out << " S" << isn << "P" << deck.isct << "   - " << edit_i(deck.mm, 2) << " angles/octant,"
      << edit_i(nm, 3) << " moments\n";
  out << " global grid: " << edit_i(deck.it_g, 3) << "x" << edit_i(deck.jt_g, 3) << "x"
      << edit_i(deck.kt, 3) << "\n";
  out << ListRecord().integer(static_cast<long long>(d.npe_i) * d.npe_j).text("domains   - ")
             .integer(d.npe_i).text("x").integer(d.npe_j).text("decomposition").str() << "\n";
  out << ListRecord().integer(h.pipelined_blocks).text("domain pipelined blocks -").integer(d.mk)
             .text("k-planes by").integer(d.mmi).text("angles each").str() << "\n";
  out << " estimated memory usage per domain:" << edit_f(h.memory_mb, 7, 1) << " MB\n";
  out << ListRecord().integer(h.messages).text("global messages per iteration").str() << "\n";
  out << edit_f(h.domain_efficiency, 6, 2) << "% domain parallel efficiency - due to decomposition & blocking\n";
  out << edit_f(h.task_efficiency, 6, 2) << "% multitasking efficiency on" << edit_i(deck.ncpu, 4)
      << " processors\n";
  out << edit_f(h.combined_efficiency, 6, 2) << "% combined efficiency on a cluster of "
      << edit_i(static_cast<long long>(d.npe_i) * d.npe_j, 4) << edit_i(deck.ncpu, 4) << "-way SMPs\n";
  out << ListRecord().text(deck.idsa != 0 ? "DSA leakage calculation: ON" : "DSA leakage calculation: OFF").str()
      << "\n";
  if (deck.ifixups > 0) out << ListRecord().text("Flux fixups: ON (always)").str() << "\n";
  else if (deck.ifixups == 0) out << ListRecord().text("Flux fixups: OFF").str() << "\n";
  else
    out << ListRecord().text("Flux fixups: ON (after").integer(-static_cast<long long>(deck.ifixups))
               .text("iterations)").str() << "\n";
  out << ListRecord().text("Iteration Monitor:").str() << "\n";
}

std::string monitor_line(int its, double err, long long fixs) {
  return ListRecord().text(" its = ").integer(its).text(" err = ").real(err).text("  fixs = ").integer(fixs).str();
}

void print_balance(std::ostream& out, double source, double absorption, const std::array<double, 6>& l) {
  out << ListRecord().text("Balance quantities:").str() << "\n";
  out << ListRecord().text(" External Source: ").real(source).str() << "\n";
  out << ListRecord().text(" Absorption:      ").real(absorption).str() << "\n";
  out << ListRecord().text(" I-leakages:      ").real(l[0]).real(l[1]).str() << "\n";
  out << ListRecord().text(" J-leakages:      ").real(l[2]).real(l[3]).str() << "\n";
  out << ListRecord().text(" K-leakages:      ").real(l[4]).real(l[5]).str() << "\n";
}

void print_flux_plane(std::ostream& out, int task, const KbaDecomposition& d, int nm,
                      const std::vector<double>& plane) {
  out << ListRecord().text(" Task").integer(task).text("    ").integer(d.istart).text(":")
             .integer(d.istart + d.it - 1).text("    ").integer(d.jstart).text(":")
             .integer(d.jstart + d.jt - 1).str() << "\n";
  static const char* const kTitle[4] = {"scalar flux:", "mu moment:", "eta moment:", "xi moment:"};
  const std::size_t per = static_cast<std::size_t>(d.it) * static_cast<std::size_t>(d.jt);
  for (int n = 0; n < nm; ++n) {
    out << ListRecord().text(kTitle[n]).str() << "\n";
    for (int j = 0; j < d.jt; ++j) {
      // (2x,i9,6(f17.14,' ')): six values a record, continuation records without the prefix.
      std::string line = "  " + edit_i(d.jstart + j, 9);
      for (int i = 0; i < d.it; ++i) {
        if (i > 0 && i % 6 == 0) {
          out << line << "\n";
          line.clear();
        }
        line += edit_f(plane[static_cast<std::size_t>(n) * per + static_cast<std::size_t>(j) * d.it + i], 17, 14) + " ";
      }
      out << line << "\n";
    }
  }
}

void print_original_timing(std::ostream& out, double cpu, double elapsed, float cell_angle_its) {
  out << ListRecord().text("CPU     time was: ").real(cpu).str() << "\n";
  out << ListRecord().text("Elapsed time was: ").real(elapsed).str() << "\n";
  out << " CPU grind time:  " << edit_1pg(1.0e6f * cpu / cell_angle_its, 10, 3) << "\n";
  out << " Wall grind time: " << edit_1pg(1.0e6f * elapsed / cell_angle_its, 10, 3) << "\n";
}

}  // namespace sweep3d
