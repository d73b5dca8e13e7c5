#include "sweep3d/source_iteration_loop.hpp"

#include <string>

#include "instrument/clock.hpp"
#include "sweep3d/phases.hpp"
#include "sweep3d/report.hpp"

namespace sweep3d {

namespace {

// The monitor lines, as the original prints them, but written at most once a second (and at
// the end): each flush goes through the MPI launcher's forwarding of stdout, 0.3 ms a line
// on this 2-core node, and takes a core from the other rank while the launcher works.
class MonitorLines {
 public:
  explicit MonitorLines(std::ostream* out) : out_(out), last_(instrument::now_seconds()) {}
  void add(const std::string& line) {
    if (!out_) return;
    pending_ += line;
    pending_ += '\n';
    const double now = instrument::now_seconds();
    if (now - last_ >= 1.0) {
      flush();
      last_ = now;
    }
  }
  void flush() {
    if (!out_ || pending_.empty()) return;
    *out_ << pending_ << std::flush;
    pending_.clear();
  }

 private:
  std::ostream* out_;
  std::string pending_;
  double last_;
};

}  // namespace

IterationOutcome iterate(const IterationContext& c) {
  instrument::Recorder& rec = c.recorder;
  const instrument::PhaseId ph_iter = rec.define_phase(phase::kIteration),
                            ph_before = rec.define_phase(phase::kWBefore),
                            ph_source = rec.define_phase(phase::kSource), ph_sweep = rec.define_phase(phase::kSweep),
                            ph_sweep_fixup = rec.define_phase(phase::kSweepFixup),
                            ph_after = rec.define_phase(phase::kWAfter),
                            ph_err = rec.define_phase(phase::kFluxError),
                            ph_conv = rec.define_phase(phase::kConvergence),
                            ph_monitor = rec.define_phase(phase::kMonitor);
  const Deck& deck = c.deck;
  const int fixed_count = deck.epsi < 0.0 ? deck.fixed_iterations() : 0;
  IterationOutcome res;
  MonitorLines monitor(c.out);
  // Trace events an iteration records: the last one's count, and before the first at most
  // a kernel and four messages (two events each) a block, as main.cpp's trace_capacity counts.
  const KbaDecomposition& d = c.decomposition;
  std::size_t events_per_iteration = 8 * static_cast<std::size_t>(d.mmo) * static_cast<std::size_t>(d.kb) * 9 + 32;
  for (int its = 1;; ++its) {
    IterationRecord it;
    it.its = its;
    it.fixups_on = deck.fixups_in(its);
    // The trace's storage for this iteration touched before its clock starts: reserved, not
    // touched, its first touch was timed as the iteration's work (~10 us a 4 KiB page on a
    // guest with shadow paging).
    const std::size_t events_before = rec.trace_events().size();
    if (rec.tracing()) rec.touch_trace_room(events_per_iteration + events_per_iteration / 4 + 64);
    rec.begin(ph_iter);

    rec.begin(ph_before);
    rec.begin(ph_source);
    compute_source(c.problem, c.decomposition, c.fields, c.threads);
    rec.end(ph_source);
    rec.end(ph_before);

    const instrument::PhaseId sweep = it.fixups_on ? ph_sweep_fixup : ph_sweep;
    rec.begin(sweep);
    res.last = c.sweep.run(c.fields.src.data(), c.fields.flux.data(), it.fixups_on);
    rec.end(sweep);

    rec.begin(ph_after);
    rec.begin(ph_err);
    const double err_local = local_flux_error(c.fields, c.threads);
    rec.end(ph_err);
    rec.begin(ph_conv);
    long long nf_local = res.last.nfixed, nf = 0;
    c.comm.allreduce(&nf_local, &nf, 1, MPI_LONG_LONG, MPI_SUM);
    double err = 0.0;
    c.comm.allreduce(&err_local, &err, 1, MPI_DOUBLE, MPI_MAX);
    rec.end(ph_conv);
    if (c.out) {
      rec.begin(ph_monitor);
      monitor.add(monitor_line(its, err, nf));
      rec.end(ph_monitor);
    }
    rec.end(ph_after);
    rec.end(ph_iter);
    if (rec.trace_events().size() > events_before) events_per_iteration = rec.trace_events().size() - events_before;

    it.err = err;
    it.fixs = nf;
    res.iterations.push_back(it);
    const bool more = deck.epsi >= 0.0 ? err > deck.epsi : its < fixed_count;
    if (!more) break;
    if (deck.epsi > 0.0 && c.max_iterations > 0 && its >= c.max_iterations) {
      res.converged = false;
      break;
    }
  }
  monitor.flush();
  return res;
}

}  // namespace sweep3d
