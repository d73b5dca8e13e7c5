// Export of a gathered trace as Chrome trace-event JSON, which Perfetto (ui.perfetto.dev)
// and chrome://tracing open: one "X" (complete) event per recorded interval, pid 0, tid =
// rank, ts and dur in microseconds from the earliest rank's start, args peer / bytes / work /
// tag / request (-1 where none);
// plus "M" metadata events naming each thread "rank <r>".
#pragma once
#include <iosfwd>
#include <string>

#include "instrument/run_results.hpp"

namespace instrument {

void write_chrome_trace(std::ostream& out, const GatheredTrace& trace);

// Atomic like the results file (temporary, then rename); InputError naming the file on failure.
void write_chrome_trace_file(const std::string& path, const GatheredTrace& trace);

// JSON string body for s (without the quotes): ", \ and control characters escaped.
std::string json_escape(const std::string& s);

}  // namespace instrument
