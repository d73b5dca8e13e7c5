// replay_trace: a recorded run (a results file made with --trace) as a replay::Program, so
// the simulator (replay.hpp) can replay it on a machine file and the replayed times can be
// set beside the measured ones (instrument-replay).
//
// What becomes an operation. On each rank, every call the Comm wrappers traced (the phases
// comm.hpp names: send, recv, isend, irecv, wait, allreduce, barrier, bcast; recognised as
// critical_path does) becomes one operation with its peer, tag, bytes and request. A posted
// receive takes the source, tag and bytes its wait recorded (what MPI matched, as
// critical_path does). The time between two calls becomes one compute operation.
//
// The span replayed: the epochs (instances of `epoch_phase`, "iteration" by default) complete
// on every rank, the first through the k-th with k the smallest count over ranks; each rank
// from the begin of its first to the end of its k-th. A trace with no event of that phase on
// any rank (the name absent from /trace/kinds, or present but never recorded) is replayed
// whole (each rank from its first event's begin to its last event's end). The ranks
// enter the span at their measured offsets from the earliest rank (a compute operation of that
// length first: the state the run was in, not a cost of the span). Measured T_total is the
// same span: the latest rank's end less the earliest rank's begin.
//
// What a compute operation costs (ComputeCosts):
//   self        the measured gap itself: the consistency check of the simulator, not a
//               prediction (the replayed run's own timings are used only when asked for).
//   cost table  costs measured on an EARLIER run (a calibration), never on the replayed one.
//               A gap's time is cut into pieces (the gap's traced compute leaves, and the
//               untimed time between leaves, charged to the innermost phase around it as
//               critical_path does, labelled "<phase> (untimed)"):
//               - a leaf that carries work (e.g. sweep3d's kernel blocks) costs
//                 work x (the calibration's seconds / work of that phase);
//               - any other piece is taken to scale with the work of its *work scope*: the
//                 innermost phase instance around it that holds work (sweep3d: the sweep for
//                 its face copies, the iteration for its source and flux error). Its label
//                 costs (the calibration's seconds of that label / the work of the scopes it
//                 occurred in) x the scope's work, split evenly over that scope's pieces of
//                 the label;
//               - a piece with no work scope costs the calibration's mean per piece of its
//                 label;
//               - a label the calibration never saw costs nothing: counted, and reported
//                 (RecordedProgram::uncovered_*), never hidden.
//
// Physical ranges (a trace outside them is damaged, not a run): an event's work is in
// [0, kMaxEventWork] units (2^50: a petascale run's cells x angles x groups per phase is far
// below it, and a sum of fewer than 2^13 events cannot overflow a 64-bit count; longer sums
// saturate at the largest count). An event's times are within kMaxTraceSeconds (1e9 s, some
// 30 years) of the trace's time base, and a rank's events span at most that long. A cost
// table's seconds per work unit (of a phase with work, and of a scope's work) are in
// [0, kMaxSecondsPerWork] (1e3 s: a work unit is a cell or a cell-angle, done in micro- to
// milliseconds); its seconds per piece are within kMaxTraceSeconds.
//
// Errors (InputError naming the file, the place in it and what was expected): no trace (the
// run was not made with --trace), dropped events (an incomplete trace cannot be replayed) or a
// negative count of them, no epoch common to every rank (when some rank has one), an event
// kind outside the kinds, times that are not finite or end before they begin, times, spans,
// work or rates outside their ranges, a message to a rank the run does not have, a wait on a
// request no earlier post of the span made, a posted receive from any source that no wait
// resolves, and for a cost table: a phase with work the calibration has no rate for.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "instrument/replay.hpp"
#include "instrument/run_results.hpp"

namespace instrument::replay {

inline constexpr const char* kDefaultEpochPhase = "iteration";
inline constexpr std::int64_t kMaxEventWork = std::int64_t{1} << 50;  // work units of one event
inline constexpr double kMaxTraceSeconds = 1e9;    // |t| of an event, span of a rank's events
inline constexpr double kMaxSecondsPerWork = 1e3;  // a cost table's rate per work unit

// Seconds per unit of something, as measured: seconds / units over `pieces` occurrences.
struct MeasuredRate {
  double seconds = 0.0;
  double units = 0.0;
  std::int64_t pieces = 0;
  double rate() const noexcept { return units > 0.0 ? seconds / units : 0.0; }
};

// Compute costs measured on a calibration run (see the header comment).
struct CostTable {
  std::string file;                                // the calibration results file
  int nranks = 0;                                  // its ranks
  std::map<std::string, MeasuredRate> per_work;    // work leaf phase: seconds / work units
  std::map<std::string, MeasuredRate> per_scope;   // other label: seconds / work of its scopes
  std::map<std::string, MeasuredRate> per_piece;   // label with no work scope: seconds / pieces
};

// From a calibration run's trace (the same span rule as the replay). InputError naming `file`
// as for program_from_trace; also when the span holds no work at all (nothing to calibrate),
// and for a rate outside its range (see the header comment).
CostTable cost_table_from(const GatheredTrace& trace, const std::string& file,
                          const std::string& epoch_phase = kDefaultEpochPhase);

struct TraceOptions {
  std::string epoch_phase = kDefaultEpochPhase;
  const CostTable* costs = nullptr;  // nullptr: self (the run's own gaps)
};

struct RecordedProgram {
  StoredProgram program;             // source_index: the trace event of each call, -1 for compute
  std::vector<RankTotals> measured;  // per rank, the same quantities the simulator reports
  double measured_total = 0.0;       // T_total of the span (see the header comment)
  std::string span;                  // e.g. "iterations 1..6 (complete on every rank)"
  int epochs = 0;                    // 0: the whole trace
  double start_skew = 0.0;           // the latest rank's entry into the span after the earliest
  std::string compute_from;          // "self: ..." or "costs from <file> (...)"
  // Cost table only: compute the calibration has no rate for (costed 0).
  std::int64_t uncovered_pieces = 0;
  double uncovered_measured_seconds = 0.0;
  std::vector<std::string> uncovered_labels;
};

// `file` names the results file in errors. InputError as listed in the header comment.
RecordedProgram program_from_trace(const GatheredTrace& trace, const std::string& file,
                                   const TraceOptions& options = {});

}  // namespace instrument::replay
