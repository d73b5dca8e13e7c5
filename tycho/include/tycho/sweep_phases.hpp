// The names of tycho's timed phases, the trace events the sweep records when the recorder
// traces, and the categories the models' parts are measured in on the critical path: defined
// once, for the engine that records them and the report that reads them back.
//
//   sweep            one source iteration's sweep (the epoch of the critical path)
//     sweep.compute  a step's cell-angle solves and their local work (releasing downwind
//                    tasks, packing outflow; the first step's also the ready queue's reset,
//                    a task's input count each): what T_elem prices; a trace event per step
//     sweep.send     a step's sends, and sweep.receive its receives (waiting included):
//     sweep.receive  totals only, never trace events
//     send / isend   traced only: one MPI_Bsend (MPI_Isend's post when non-blocking) to the
//                    peer, named as instrument::Comm names them so that the critical path
//                    matches each with its receive
//     recv           traced only: one message taken, from when the rank began looking for it
//                    (polling, when nothing was ready) to its records unpacked
//
// Categories (instrument/critical_path.hpp): compute is sweep.compute; comm is the message
// calls, a receive counted from when both sides were there (its wait is off the path, which
// runs through the sender instead); other is the rest of the sweep: the step loop's
// bookkeeping, probes that found nothing, the posting of its receives (non-blocking) and its
// last sends' completion.
#pragma once
#include <cstdint>
#include <limits>
#include <string>

#include "instrument/comm.hpp"
#include "instrument/critical_path.hpp"

namespace tycho::phase {

inline constexpr const char* kSweep = "sweep";
inline constexpr const char* kCompute = "sweep.compute";
inline constexpr const char* kSend = "sweep.send";
inline constexpr const char* kReceive = "sweep.receive";

}  // namespace tycho::phase

namespace tycho::category {

inline constexpr const char* kCompute = "compute";
inline constexpr const char* kComm = "comm";
inline constexpr const char* kOther = "other";

}  // namespace tycho::category

namespace tycho {

inline instrument::critical_path::Rules critical_path_rules() {
  instrument::critical_path::Rules r;
  r.categories = {category::kCompute, category::kComm, category::kOther};
  r.category_of = {{phase::kCompute, category::kCompute},
                   {instrument::comm_phase::kSend, category::kComm},
                   {instrument::comm_phase::kIsend, category::kComm},
                   {instrument::comm_phase::kRecv, category::kComm},
                   {phase::kSweep, category::kOther}};
  r.fallback = category::kOther;
  r.epoch_phase = phase::kSweep;
  // MPI_Bsend copies into the attached buffer and MPI_Isend only posts: neither waits for
  // its receiver, whatever the size.
  r.send_waits_from_bytes = std::numeric_limits<std::int64_t>::max();
  return r;
}

// Trace events a rank keeps when the models run (none otherwise: a run without models pays
// nothing). A step records about three (its compute and a message each way), so this holds
// about 350000 steps of a rank: every sweep of the usual runs (a few thousand steps a sweep
// at MCPS 512), the first sweeps of runs with a tiny MCPS. The buffer is reserved, not
// touched: a short run's memory grows only by what it records (48 bytes an event), each
// sweep's share touched before the sweep's clock starts (SweepEngine::make_history_room).
inline constexpr std::size_t kTraceBudgetEvents = std::size_t{1} << 20;

inline std::size_t trace_capacity(bool models_run) { return models_run ? kTraceBudgetEvents : 0; }

}  // namespace tycho
