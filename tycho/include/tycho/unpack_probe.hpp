// T_unpack: what the sweep's unpack of one received face record costs (the memcpy of its
// G x 3 values into the ghost slot and the ready queue told its task has one input more),
// measured for the calibration file so the models can price a message's receive as the
// critical path holds it: the receive call and then the unpack of each record.
//
// At one rank there is no message, so this times tycho's own unpack routine
// (face_records_unpack.hpp) on synthetic records, in messages of kRecordsPerMessage, over a
// rank of this size: `cells` x `directions` tasks (at most kMaxTasks: past the caches either
// way), a cut of 2 cells^(2/3) remote faces scattered over the cells, and each record a random
// (face, direction). Between two visits of a task's slots the sweep streams its psi (cells x
// directions x groups x 32 B), so before each pass the probe reads that many bytes (at most
// kMaxStreamBytes): a record's task slot and ghost slot are then where the sweep finds them,
// out of the caches when psi is larger than they are. The median of kPasses passes of
// kRecordsPerPass records, each pass on records not seen before; a few to tens of ms in all.
#pragma once
#include <cstddef>

namespace tycho {

inline constexpr std::size_t kUnpackProbeRecordsPerMessage = 8;
inline constexpr std::size_t kUnpackProbeRecordsPerPass = 8192;
inline constexpr int kUnpackProbePasses = 5;
inline constexpr std::size_t kUnpackProbeMaxTasks = std::size_t{1} << 20;
inline constexpr std::size_t kUnpackProbeMaxStreamBytes = std::size_t{64} << 20;

// Seconds per record. std::invalid_argument for cells, directions or groups < 1.
double measure_unpack_seconds_per_record(std::size_t cells, int directions, int groups);

}  // namespace tycho
