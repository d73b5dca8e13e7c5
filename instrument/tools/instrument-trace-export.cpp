// instrument-trace-export: a recorded run's trace (a results file made with --trace N) for
// the trace viewers.
//
//   instrument-trace-export RUN.h5 [--otf2 OUT_DIR] [--chrome OUT.json]   (at least one)
//
// --otf2 OUT_DIR writes an OTF2 archive, OUT_DIR/traces.otf2 and OUT_DIR/traces/, that Vampir,
// otf2-print and the Score-P tools read: one location per rank, the suite's phases as regions,
// the messages as MPI send and receive records, the collectives (otf2/otf2_trace.hpp).
// --chrome OUT.json writes the Chrome trace-event JSON that Perfetto opens (trace_export.hpp),
// the same as the apps' --trace-out.
//
// Each output is written completely or not at all (a temporary, then a rename). Prints one
// line per output written. No MPI: run it directly.
//
// Bad input: one line `instrument-trace-export: error: FILE: what was expected`, exit 1 (a file
// that is not a results file, a results file without /trace, an output that cannot be
// written), nothing written.
#include <cstdio>
#include <string>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/option_file.hpp"
#include "instrument/option_table.hpp"
#include "instrument/results_file.hpp"
#include "instrument/run_app.hpp"
#include "instrument/trace_export.hpp"
#include "otf2_trace.hpp"

using namespace instrument;

namespace {

struct Options {
  std::string run, otf2, chrome;
};

void declare_options(OptionTable& t, Options& o) {
  t.positional_file("RUN.h5", o.run, Arity::required, "a results file made with --trace N")
      .output_file("--otf2", "OUT_DIR", o.otf2,
                   "write an OTF2 archive, OUT_DIR/traces.otf2 and OUT_DIR/traces/ (Vampir, otf2-print); "
                   "OUT_DIR may be new, empty or an earlier export, which is replaced")
      .output_file("--chrome", "OUT.json", o.chrome, "write the Chrome trace-event JSON (Perfetto, chrome://tracing)")
      .after_reading([&o] {
        if (o.otf2.empty() && o.chrome.empty())
          throw InputError("command line", "", "expected an output: --otf2 OUT_DIR, --chrome OUT.json or both");
      });
}

int run(const Options& o) {
  // Refused before anything is read: outputs that cannot be written; a missing run.
  if (!o.chrome.empty()) check_output_file(o.chrome, "trace");
  if (!o.otf2.empty()) check_otf2_output(o.otf2);
  require_regular_input(o.run, "results file");
  const ResultsDocument doc = read_results(o.run);
  const GatheredTrace& trace = doc.run.trace;
  if (trace.per_rank.empty()) throw InputError(o.run, "", "no /trace (run the app with --trace N)");
  for (std::size_t r = 0; r < trace.dropped.size(); ++r)
    if (trace.dropped[r] > 0)
      std::fprintf(stderr,
                   "instrument-trace-export: warning: %s: rank %zu dropped %lld events (its trace buffer was full): "
                   "the export holds only those recorded; rerun with a larger --trace N\n",
                   o.run.c_str(), r, static_cast<long long>(trace.dropped[r]));

  if (!o.otf2.empty()) {
    const Otf2Counts c = write_otf2_trace(o.otf2, trace, doc.run.info, o.run);
    std::printf("otf2: %s/%s.otf2: %lld locations, %lld events, %lld sends, %lld receives, %lld collectives\n",
                o.otf2.c_str(), kOtf2ArchiveName, static_cast<long long>(c.locations),
                static_cast<long long>(c.events), static_cast<long long>(c.sends), static_cast<long long>(c.receives),
                static_cast<long long>(c.collectives));
    if (c.clamped > 0)
      std::printf("otf2: %lld intervals ended with the interval around them, to nest\n",
                  static_cast<long long>(c.clamped));
  }
  if (!o.chrome.empty()) {
    write_chrome_trace_file(o.chrome, trace);
    std::printf("chrome: %s\n", o.chrome.c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  OptionTable table("instrument-trace-export");
  declare_options(table, o);
  return run_serial_app(argc, argv, table, [&] { return run(o); });
}
