// The per-phase summary every app prints at the end of a run: for each phase the calls and
// the min / mean / median / max over ranks of its inclusive seconds, the mean exclusive
// seconds and the imbalance (max / mean); then the counters likewise.
#pragma once
#include <iosfwd>

#include "instrument/run_results.hpp"

namespace instrument {

void print_phase_table(std::ostream& out, const RunResults& run);
void print_counter_table(std::ostream& out, const RunResults& run);

}  // namespace instrument
