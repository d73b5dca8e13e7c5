// T_unpack: what the sweep's unpack of a received message costs (the memcpy of each record's
// G x 3 values into its ghost slot and the ready queue told its task has one input more), in
// two parts: a fixed part a message (the first record's look-ups in structures the step's
// work evicted: the plan's face map, the queue's buckets, the code) and a part a record.
// Measured for the calibration file so the models can price a message's receive as the
// critical path holds it: the receive call and then the unpack.
//
// At one rank there is no message, so this times tycho's own unpack routine
// (face_records_unpack.hpp) on synthetic messages, over a rank of this size: `cells` x
// `directions` tasks (at most kMaxTasks: past the caches either way) and a cut of
// 2 cells^(2/3) remote faces scattered over the cells. As in the sweep:
// - each (face, direction) slot is hit once a pass (a sweep fills each ghost slot once), in a
//   random order, and before each pass the probe reads the sweep's psi (cells x directions x
//   groups x 32 B, at most kMaxStreamBytes), so the slots and task counters are cold;
// - before each message it reads a step's working set (step_tasks x the bytes a task touches:
//   its psi, its cell's source and geometry, 3 inflow faces), as a step's solves do between
//   two messages; the message's records were just written (MPI_Recv leaves them warm);
// - a task waits for 1 or 2 inputs and has one of up to kMaxLevels priority levels, so about
//   half the records queue their task, into buckets as scattered as the sweep's.
// Each message is timed alone; messages of kSmallRecords and kLargeRecords alternate, and the
// medians give the two parts: per record = (large - small) / (kLarge - kSmall), per message =
// small - kSmall x per record (0 when noise makes it negative). kPasses passes of
// kMessagesPerPass messages; tens of ms in all, at rank 0 after the run.
#pragma once
#include <cstddef>

namespace tycho {

inline constexpr std::size_t kUnpackProbeSmallRecords = 2;
inline constexpr std::size_t kUnpackProbeLargeRecords = 16;
inline constexpr std::size_t kUnpackProbeMessagesPerPass = 512;
inline constexpr int kUnpackProbePasses = 3;
inline constexpr std::size_t kUnpackProbeMaxTasks = std::size_t{1} << 20;
inline constexpr std::size_t kUnpackProbeMaxLevels = 4096;
inline constexpr std::size_t kUnpackProbeMaxStreamBytes = std::size_t{64} << 20;

struct UnpackCost {
  double s_per_record = 0;   // > 0
  double s_per_message = 0;  // >= 0
};

// The bytes a step of `step_tasks` tasks reads and writes (see above), the probes' "cold as
// in the sweep" between two messages. std::invalid_argument for groups < 1.
std::size_t step_working_set_bytes(std::size_t step_tasks, int groups);

// std::invalid_argument for cells, directions, groups or step_tasks < 1.
UnpackCost measure_unpack_cost(std::size_t cells, int directions, int groups, std::size_t step_tasks);

}  // namespace tycho
