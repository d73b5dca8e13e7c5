// A second SPMD section, for C++ programs that measure the machine before their own run.
//
// BSPlib allows one bsp_begin per program. An app of the suite that has no machine file for
// this host measures l and g first, with bspprobe's own loops (a short probe: a section of
// its own, so that its supersteps stay out of the app's profile), and then runs its section:
//
//   bsp_begin(p); ... measure ... bsp_end();
//   bsplib::allow_next_section();   // outside any section
//   bsp_begin(p); ... the program ... bsp_end();
//
// Only where the program initialised MPI itself (MPI_Init before bsp_begin, no bsp_init):
// otherwise bsp_end has finalised MPI, and the call ends the program with one line, as does
// a call inside a section.
#pragma once

namespace bsplib {

void allow_next_section();

}  // namespace bsplib
