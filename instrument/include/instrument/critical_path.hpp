// critical_path: the measured critical path of a traced run, split into the categories an
// app's model uses, so that a model's breakdown (computation, communication, W_before, ...)
// is compared with the same quantity measured, not with a per-rank total.
//
// What it measures. The run's wall time, walked backward from the end of the last traced
// epoch (e.g. iteration) along the chain of activities that delayed it: a rank's own
// activities in program order, and across ranks the message or collective that a rank waited
// for. Every instant of the walked span is charged to exactly one category, so the
// categories of an epoch add up to the epoch's length on the path.
//
// The rule at a communication call X on rank r that ended at e (begun at b), whose partner is
// the matching call Y on rank s (the receive of a send, the send of a receive, by MPI's
// matching rules: source, tag, order; for a collective, the rank that entered it last):
//   - if Y began after X did (y_b in (b, e)) and X is a call that can wait for its partner
//     (a blocking receive, a wait, a collective, a blocking send above the eager limit),
//     X waited for Y: the path goes to rank s at y_b, and [y_b, e] (the message's own cost
//     once both sides were there) is charged to X's category;
//   - otherwise X did not wait for its partner: [b, e] is X's own cost, charged, and the walk
//     goes on on rank r before b.
// So a wait is never charged: it is off the critical path, which runs through whatever the
// waited-for rank was doing instead. A send that the protocol blocks until its receiver posts
// (the rendezvous of large messages) is a call that waited for its partner like a receive;
// an eager send and the post of a non-blocking call never wait for theirs. A receive posted
// with MPI_ANY_SOURCE or MPI_ANY_TAG is matched by the source and tag its wait recorded.
// Time between a rank's leaf activities (nothing timed: loop overhead, copies, a print) is
// charged, piece by piece, to the category of the innermost phase enclosing each piece (a
// gap may end one phase and begin another).
//
// Clocks. Timestamps of different ranks are compared, so they must share a time base: on one
// node every process reads the same monotonic clock; across nodes the trace must have been
// corrected for clock offsets (the gather does that).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace instrument {

struct GatheredTrace;

namespace critical_path {

// One traced interval, as the Recorder stores it (seconds on a common time base).
struct Event {
  double begin = 0.0, end = 0.0;
  int phase = 0;              // index into Trace::phases
  int peer = -1;              // the other rank of a point-to-point call
  int tag = -1;               // its MPI tag
  std::int64_t bytes = 0;
  int request = -1;           // links a non-blocking post to the wait that completes it
};

struct Trace {
  std::vector<std::string> phases;       // names, indexed by Event::phase
  std::vector<std::vector<Event>> ranks;  // per rank, any order
};

// From a gathered results trace (rank 0 after gather_results), whose times share one base.
Trace from_gathered(const GatheredTrace& trace);

// What the app tells the walk.
struct Rules {
  std::vector<std::string> categories;             // the breakdown, in print order
  std::map<std::string, std::string> category_of;  // phase name -> category (leaves and enclosing phases)
  std::string fallback = "other";                  // category of phases not in category_of (added if used)
  std::string epoch_phase = "iteration";           // the phase whose instances are the epochs
  // A blocking send of this many bytes or more can wait for its receiver (MPI's rendezvous,
  // the machine's S + 1); smaller ones are eager and never do. 0: any send may wait.
  std::int64_t send_waits_from_bytes = 0;
};

// One stretch of the path: [begin, end] on `rank`, charged to categories[category] of epoch.
struct Segment {
  int rank = 0;
  double begin = 0.0, end = 0.0;
  int category = 0;
  int epoch = 0;
  int phase = -1;  // the leaf walked through, or -1 for the time between leaves
};

struct Result {
  std::vector<std::string> categories;  // Rules::categories (+ the fallback if not among them)
  std::vector<Segment> path;            // the critical path itself, from its end backward
  // seconds[k][c]: epoch k (in order), category c. Only epochs complete on every rank.
  std::vector<std::vector<double>> seconds;
  std::vector<double> epoch_length;     // sum over categories of each epoch
  std::int64_t steps = 0;               // activities walked
  std::int64_t unmatched = 0;           // calls of the walked epochs whose partner is not in the trace

  double total(const std::string& category) const;  // over all epochs
  int epochs() const noexcept { return static_cast<int>(seconds.size()); }
};

// The phase names the instrument's Comm wrappers record (comm.hpp's comm_phase).
bool is_send_phase(const std::string& phase);        // send, isend
bool is_receive_phase(const std::string& phase);     // recv, irecv
bool is_post_phase(const std::string& phase);        // isend, irecv: never wait themselves
bool is_wait_phase(const std::string& phase);        // wait
bool is_collective_phase(const std::string& phase);  // allreduce, barrier, bcast

// An empty Result (epochs() == 0) if no epoch is complete on every rank (a trace too short
// for one iteration, say): the caller reports that, a finished run is never lost for it.
Result walk(const Trace& trace, const Rules& rules);

}  // namespace critical_path
}  // namespace instrument
