// A send call that takes in a message already waiting: what loggps-probe measured of it
// (probe_pending.hpp), as the models read it from the machine file.
//
// Why (issue 39; AMD EPYC Zen 5, MPICH 4.0.2 ch4, intra-node shared memory): an eager send
// polls MPI's progress engine, and when the peer's message has arrived and not yet been
// received, that poll copies it in. Tycho's MPI_Bsend then costs a median 1.0-1.26 us in a
// 2-rank run against 0.37-0.57 us with nothing waiting, and the receive that follows is
// cheaper. LogGP's o, from a ping-pong where nothing is ever waiting, is neither.
//
// Each size holds, as medians (seconds), the same message size for the waiting message and
// the send:
//   send_plain, bsend_plain        MPI_Send, MPI_Bsend with nothing waiting
//   send_pending, bsend_pending    the same with a message of this size waiting, not received
//   receive_plain                  MPI_Recv, after MPI_Bsend, of a message that arrived after it
//   receive_pending                MPI_Recv of the message that MPI_Bsend found waiting
// Between the sizes the figures are linear in bytes; outside them the end values are held.
//
// Machine file keys (all absent in files of earlier probes: the models then price every send
// as if nothing were waiting, and say so):
//   loggp.pending.sizes = n                    1..16
//   loggp.pending.size.<i>.bytes               increasing, each a message size
//   loggp.pending.size.<i>.<figure>            s, each of the six figures above, in [0, 1] s
// A refusal names the file and the key.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace instrument {

class MachineFile;

namespace loggp {

struct PendingPoint {
  std::int64_t bytes = 0;
  double send_plain = 0.0, send_pending = 0.0;
  double bsend_plain = 0.0, bsend_pending = 0.0;
  double receive_plain = 0.0, receive_pending = 0.0;
};

struct PendingCosts {
  std::vector<PendingPoint> points;  // increasing bytes, at least one

  // The figures at `bytes`: linear in bytes between the points, the end values held.
  PendingPoint at(std::int64_t bytes) const;
  std::int64_t largest_bytes() const { return points.back().bytes; }
};

// Throws InputError(source, key, what) for the first value out of its range or out of order.
void validate(const PendingCosts& c, const std::string& source);

// nullopt when the file has no loggp.pending.* key (an older probe's file); otherwise the
// figures, validated. A file with some loggp.pending.* keys but not loggp.pending.sizes is refused.
std::optional<PendingCosts> read_pending(const MachineFile& file);
void write_pending(const PendingCosts& c, MachineFile& file);

}  // namespace loggp
}  // namespace instrument
