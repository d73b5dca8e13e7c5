// The parallel sweep: every cell-angle task of a rank, scheduled from a priority queue in
// steps of at most MCPS tasks, with the face records exchanged between steps (section 5 of
// Kerbyson, Hoisie & Pautz; Pautz's algorithm).
//
// A step: pop at most MCPS ready tasks (the highest priority first; FIFO: the oldest), solve
// them (OpenMP threads share the batch: ready tasks never depend on one another), then in
// task order release their local downwind tasks and pack their outflow for other ranks;
// send one message per downwind rank the step produced records for; then receive: whatever
// has arrived (until every record of the sweep is in), and if no task is ready and the sweep
// is not over, wait for a message first.
//   blocking      MPI_Bsend (a buffer attached for a whole sweep's records, so a send never
//                 waits for its receiver: two ranks that feed each other cannot deadlock)
//                 and MPI_Probe-style receives of any size;
//   non-blocking  MPI_Isend with the buffer kept until it completes, and one MPI_Irecv
//                 posted per upwind rank, re-posted as each completes.
// A rank's sweep ends when its tasks are done and it has every record the plan says its
// neighbours send it (lagged ones included: they feed the next iteration). A wait that sees
// no message for `stall_seconds` ends the run with the rank's state, never a hang; with every
// record in and no task ready, the tasks left can never be ready, and it ends at once.
//
// Every task reads only values fixed before it is ready (its upwind cells' psi this sweep,
// lagged faces' values from the last), so psi, and the scalar flux summed from it in
// direction order, are bitwise the same for any P, MCPS, priority, send mode and threads.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "instrument/aligned_buffer.hpp"
#include "instrument/recorder.hpp"
#include "tycho/problem.hpp"
#include "tycho/step_history.hpp"
#include "tycho/sweep_plan.hpp"
#include "tycho/sweep_task_divider.hpp"

namespace tycho {

class ReadyQueueImpl;

// The most groups a run may have (the task's inflow buffer is on the stack).
inline constexpr int kMaxGroups = 64;

struct SweepOptions {
  std::int64_t mcps = 512;  // at most this many tasks a step, >= 1
  bool nonblocking = false;
  int threads = 1;
  double stall_seconds = 60.0;
};

class SweepEngine {
 public:
  SweepEngine(const SweepPlan& plan, const Problem& problem, const SweepOptions& options, MPI_Comm comm,
              instrument::Recorder& recorder);
  ~SweepEngine();
  SweepEngine(const SweepEngine&) = delete;
  SweepEngine& operator=(const SweepEngine&) = delete;

  // The isotropic source of the next sweep, per local cell, group and node (q of the cell
  // solve: the emission density over 4 pi). Sized cells x groups x 4.
  instrument::AlignedBuffer& source() { return q_; }

  // One sweep of every direction. Appends its steps and messages to `history`; `leakage`
  // (size groups) gets the boundary outflow sum_d w_d Omega.n A mean(psi) added.
  void sweep(std::int32_t iteration, RankHistory& history, std::vector<double>& leakage);

  // Room in `history` for the next sweep's records, made and touched before its clock starts,
  // and the recorder's trace events touched likewise: they are the instrumentation's, and
  // grown or first touched inside the sweep they were timed as the sweep's work
  // (tycho/BENCHMARKS.md). The last sweep's counts and a quarter more; before the first sweep,
  // the fewest steps MCPS allows and, per peer, a send and a receive a step but at most one a
  // record, each with a quarter more (past either, push_back grows the history as before).
  void make_history_room(RankHistory& history) const;

  // The last sweep's time in its tasks' inflow gathers and cell solves: a part of its steps'
  // compute (StepRecord::compute_s); the rest chose the batches, released downwind tasks,
  // packed the outflow for other ranks and (the first step) reset the ready queue. With threads it holds the parallel region's start
  // and end as well.
  double gather_solve_seconds() const { return gather_solve_s_; }

  // psi of local cell i in direction d, group g: its 4 nodal values.
  const double* psi(std::size_t cell, std::size_t direction, int group) const {
    return &psi_[psi_offset(cell, direction) + static_cast<std::size_t>(group) * 4];
  }

 private:
  static constexpr int kRecordTag = 7100;
  // kGroups: the run's groups when 1 or 2 (the gathers' loops then unroll), else 0 (any).
  // Returns the task's outflow faces (bit f: omega . n_f > 0), found with its inflow faces,
  // for release_task.
  template <std::size_t kGroups>
  std::uint8_t solve_task(std::uint32_t t);
  template <std::size_t kGroups>
  void solve_tasks(std::size_t begin, std::size_t end);
  void solve_batch(std::size_t begin, std::size_t end);  // batch_[begin, end), in order
  // Asks for task t's cell record, links, source and psi slot ahead of its solve. A batch's
  // tasks lie scattered over the mesh; on meshes past the caches each would otherwise wait
  // for memory, which would then set the grind time rather than the solve.
  // In two stages: the cell's own records kPrefetchAhead tasks ahead, then, once its links
  // are in cache, its local upwind cells' psi in its direction kInflowAhead tasks ahead.
  // With the b-level order a task's upwind psi was written thousands of tasks before and
  // has mostly left the L2 (callgrind, cube-10717: 3.8 L2 misses a task in the gathers).
  void prefetch_task(std::uint32_t t) const;
  void prefetch_inflow(std::uint32_t t) const;
  static constexpr std::size_t kPrefetchAhead = 8;  // tasks: ~1 us of work, past memory latency
  static constexpr std::size_t kInflowAhead = 4;
  // outflow: solve_task's mask of t's faces with omega . n > 0 (its face flows, the four dot
  // products, and their hard-to-predict branches, computed once for both). Appends t's local
  // downwind tasks to downwind_ for satisfy_downwind; sends, lagged faces and leakage here.
  void release_task(std::uint32_t t, std::uint8_t outflow, std::vector<double>& leakage);
  // Counts one input in for each task in downwind_, in order (so the ready queue's order, and
  // the bits, are those of satisfying each in release_task), asking for the waiting-count slot
  // kSatisfyAhead tasks ahead. The slots lie scattered over the sweep's 16 B x tasks; done in
  // release_task's face loop, between its branches, each decrement waited for memory: on
  // cube-10717 at 1 rank the release cost 44 ns a task, 23 ns in two passes (prefetch 8 / 16 /
  // 32 / 64 ahead: 27 / 25 / 23 / 23 ns), 25 ns with the first pass fused into the solve loop.
  void satisfy_downwind();
  static constexpr std::size_t kSatisfyAhead = 32;
  void unpack(const double* records, std::size_t count);
  void send_step(std::int32_t iteration, std::int32_t step, StepRecord& rec, RankHistory& history);
  void receive_step(std::int32_t iteration, std::int32_t step, bool must_wait, StepRecord& rec,
                    RankHistory& history);
  void receive_message(int source, std::size_t bytes, std::int32_t iteration, std::int32_t step,
                       StepRecord& rec, RankHistory& history);
  void finish_sends();
  bool sweep_over() const { return done_ == plan_.tasks() && received_ == plan_.records_in; }
  [[noreturn]] void stalled() const;

  const SweepPlan& plan_;
  const Problem& problem_;
  TaskDivider cells_;  // task t's direction: cells_.quotient(t)
  std::size_t direction_of(std::uint32_t t) const { return cells_.quotient(t); }
  SweepOptions options_;
  MPI_Comm comm_;
  instrument::Recorder& recorder_;
  instrument::PhaseId sweep_phase_, compute_phase_, send_phase_, receive_phase_;
  // Trace events only, when the recorder traces (tycho/sweep_phases.hpp): each message's call.
  instrument::PhaseId message_send_phase_, message_receive_phase_;

  // Direction-major, [direction][local cell][group][4]: a task's upwind cells in the same
  // direction are then near it in memory (cells are numbered with locality), which a
  // cell-major layout (80 directions x 64 B apart) is not.
  std::size_t psi_offset(std::size_t cell, std::size_t d) const {
    return (d * plan_.cells.size() + cell) * static_cast<std::size_t>(plan_.groups) * 4;
  }
  // On cache lines: a task's record (32 B per group) is then whole lines, not split in two.
  instrument::AlignedBuffer psi_;
  double gather_solve_s_ = 0;  // gather_solve_seconds()
  instrument::AlignedBuffer q_;  // [cell][group][4]
  std::vector<double> ghost_;    // [remote slot * D + d][group][3]
  std::vector<double> lag_cur_, lag_next_;  // [lag slot][group][3]

  std::unique_ptr<ReadyQueueImpl> ready_;
  std::vector<std::uint32_t> batch_;
  std::vector<std::uint8_t> outflow_;  // outflow_[b]: batch_[b]'s outflow faces (solve_task)
  std::vector<std::uint32_t> downwind_;  // this step's local downwind tasks, one an input
  std::size_t done_ = 0;
  std::int64_t received_ = 0;
  std::size_t last_steps_ = 0, last_messages_ = 0;  // the last sweep's records (make_history_room)

  std::vector<std::vector<double>> outgoing_;  // per peer: this step's records
  // Non-blocking sends in flight and their buffers; receives posted per peer.
  std::vector<MPI_Request> send_requests_;
  std::vector<std::vector<double>> send_buffers_;
  std::vector<std::vector<double>> spare_buffers_;
  std::vector<MPI_Request> recv_requests_;     // per peer
  std::vector<std::vector<double>> recv_buffers_;  // per peer
  std::vector<std::int64_t> received_from_;    // per peer, this sweep
  std::vector<double> probe_buffer_;
  std::vector<char> bsend_buffer_;
};

}  // namespace tycho
