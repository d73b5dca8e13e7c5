// replay-bench: how fast the replay engine simulates, in operations per second of one core.
//
// The program is a 2-D wavefront pipeline on a px x py grid of ranks (the shape of a KBA
// sweep): each rank, for each of `blocks` blocks, receives from its west and north
// neighbours, computes, and sends east and south. It is computed on the fly (a Program
// subclass), so 65536 ranks cost no memory for the program itself. Printed: the ranks, the
// operations simulated, the predicted time, and the median over repeats of the wall time and
// of operations per second (one simulate() call, single thread), with the pipeline time the
// simulator should come close to (fill the wave, then one stage per block).
//
// Usage: replay-bench [--ranks P | --px X --py Y] [--blocks B] [--bytes K] [--compute S]
//                     [--reps R] [--ranks-per-node N --node-bandwidth BYTES_PER_S]
//                     [--time-ordered 0|1]   (1: the reference loop, Options::time_ordered)
// --ranks P takes the square grid (P must be a square). Defaults: 64 x 64, 600 blocks (about
// 3000 operations per rank), 800 B, 10 us, 3 repeats, no contention.
// Refused before simulating (--help says why): more than kMostOperations operations over all
// repeats, and a replay whose memory (replay_memory.hpp) the machine does not have.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "instrument/error.hpp"
#include "instrument/loggps.hpp"
#include "instrument/option_table.hpp"
#include "instrument/memory_budget.hpp"
#include "instrument/replay.hpp"
#include "instrument/replay_memory.hpp"
#include "instrument/run_app.hpp"
#include "instrument/statistics.hpp"

using instrument::replay::Op;
using instrument::replay::OpKind;

namespace {

class Wavefront final : public instrument::replay::Program {
 public:
  Wavefront(int px, int py, std::int64_t blocks, std::int64_t bytes, double seconds)
      : px_(px), py_(py), blocks_(blocks) {
    // A rank's block depends on its position only through which neighbours it has: the 16
    // cases are laid out once, peers as offsets, so op() is a table read (the engine, not
    // the program, is what this measures).
    for (int c = 0; c < 16; ++c) {
      Block& b = blocks_by_case_[c];
      auto add = [&](OpKind kind, int offset) {
        Op& o = b.ops[b.n++];
        o.kind = kind;
        o.peer = offset;
        o.bytes = kind == OpKind::compute ? 0 : bytes;
        o.seconds = kind == OpKind::compute ? seconds : 0.0;
        o.work = kind == OpKind::compute ? 1 : 0;
      };
      if (c & 1) add(OpKind::recv, -1);
      if (c & 2) add(OpKind::recv, -px);
      add(OpKind::compute, 0);
      if (c & 4) add(OpKind::send, 1);
      if (c & 8) add(OpKind::send, px);
    }
  }

  int ranks() const override { return px_ * py_; }
  std::int64_t size(int rank) const override { return blocks_ * block_of(rank).n; }
  Op op(int rank, std::int64_t index) const override {
    const Block& b = block_of(rank);
    Op o = b.ops[index % b.n];
    o.peer = o.kind == OpKind::compute ? -1 : rank + o.peer;
    return o;
  }

 private:
  struct Block {
    Op ops[5];
    int n = 0;
  };
  const Block& block_of(int rank) const {
    const int x = rank % px_, y = rank / px_;
    const int c = (x > 0 ? 1 : 0) | (y > 0 ? 2 : 0) | (x < px_ - 1 ? 4 : 0) | (y < py_ - 1 ? 8 : 0);
    return blocks_by_case_[c];
  }

  int px_, py_;
  std::int64_t blocks_;
  Block blocks_by_case_[16];
};

// A benchmark gains nothing from a longer run: 2^31 operations take 45-200 s at the 1-5e7
// operations a second this VM's engine simulated (one core, 2026-12-01: 1.5e7 at 16 ranks,
// 4e7 at 65536, 1.1e7 at 4194304 ranks of 2 blocks). --ranks 2^24 at 600 blocks is 5e10
// operations (hours), --ranks 16 --blocks 1e8 6.4e9.
constexpr std::int64_t kMostOperations = std::int64_t{1} << 31;

const char* kNotes =
    "  Times the replay engine on a generated X x Y wavefront (--ranks P: a square, P = X x Y).\n"
    "  At most 2^31 operations in all (ranks x blocks x about 5 x reps: one to three minutes at\n"
    "  the engine's 1-5e7 a second on one core; a longer run measures nothing more), and no more\n"
    "  memory than the machine has (the engine's peak, estimated before it starts).";

// The wavefront's counts (replay_memory.hpp). The causal order runs the ranks row by row, each
// to its end (no rank waits on one not yet run): the south messages of a whole row and the east
// ones of the rank running stay in flight, blocks x (px + 1) records (the engine's count at
// 4x4, 16x4, 4x16, 1x16, 16x1 and 64x64 ranks, exactly); a rendezvous send (--bytes above the
// machine's S) blocks its rank until received, one record a rank at most (4095 at 64x64).
instrument::replay::ProgramCounts wavefront_counts(int px, int py, std::int64_t blocks) {
  const auto x = static_cast<std::uint64_t>(px), y = static_cast<std::uint64_t>(py);
  const auto b = static_cast<std::uint64_t>(blocks);
  instrument::replay::ProgramCounts c;
  c.ranks = x * y;
  c.channels = (x - 1) * y + x * (y - 1);  // a link each, west to east and north to south
  c.operations = b * (c.ranks + 2 * c.channels);  // a compute, a send and a receive a link
  c.messages = std::max(b * ((y > 1 ? x : 0) + (x > 1 ? 1 : 0)), c.ranks);
  return c;
}

instrument::replay::Machine bench_machine() {
  // A cluster-like LogGPS machine (the figures only need plausible magnitudes).
  instrument::replay::Machine m;
  m.net.L = 1.5e-6;
  m.net.o_prime = 4e-7;
  m.net.O_s = 2e-11;
  m.net.O_r = 2e-11;
  m.net.G_s = 1e-10;
  m.net.G_l = 8e-11;
  m.net.s = 1024;
  m.net.S = 65536;
  m.g = 5e-7;
  m.g_from = "replay-bench";
  return m;
}

// Simulates `reps` times and prints the figures (main checked the sizes).
int bench(int px, int py, std::int64_t blocks, std::int64_t bytes, double seconds, int reps,
          const instrument::replay::Machine& machine, const instrument::replay::Options& options) {
  const Wavefront program(px, py, blocks, bytes, seconds);
  std::vector<double> wall, rate;
  instrument::replay::Result last;
  for (int r = 0; r < reps; ++r) {
    last = instrument::replay::simulate(program, machine, options);
    wall.push_back(last.wall_seconds);
    rate.push_back(static_cast<double>(last.events) / last.wall_seconds);
  }
  // A sanity estimate: the wave needs (px + py - 2) hops (send T1, flight T2, two receives
  // T3, compute) to reach the far corner, then one stage per block (two receives T3,
  // compute, two sends: T1 and the next injection after max(T1, g, bytes)).
  const auto& n = machine.net;
  const auto k = bytes;
  const double t1 = instrument::loggps::T1(n, k), t3 = instrument::loggps::T3(n, k);
  const double t2 = instrument::loggps::T2_for(n, k);
  const double stage = 2 * t3 + seconds + t1 + std::max({t1, machine.g, t2 - n.L});
  const double hop = t1 + t2 + 2 * t3 + seconds;
  std::printf("replay-bench: wavefront %d x %d = %d ranks, %lld blocks, %lld B, compute %g s, %s\n",
              px, py, px * py, static_cast<long long>(blocks), static_cast<long long>(bytes), seconds,
              machine.ranks_per_node > 0 ? "contention on" : "no contention");
  std::printf("processing order         %s\n", options.time_ordered ? "time order (reference)" : "causal");
  std::printf("ops simulated            %lld\n", static_cast<long long>(last.events));
  std::printf("predicted time           %.6g s (steady-pipeline estimate %.6g s)\n", last.total,
              (px + py - 2) * hop + static_cast<double>(blocks) * stage);
  std::printf("wall seconds (median/%d)  %.4f  (min %.4f, max %.4f)\n", reps, instrument::median(wall),
              *std::min_element(wall.begin(), wall.end()), *std::max_element(wall.begin(), wall.end()));
  std::printf("ops per second (median)  %.4g\n", instrument::median(rate));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int px = 64, py = 64, reps = 3;
  std::int64_t blocks = 600, bytes = 800;
  double seconds = 1e-5;
  instrument::replay::Machine machine = bench_machine();
  instrument::replay::Options options;
  instrument::OptionTable table("replay-bench");
  table.notes(kNotes)
      .text("--ranks", "P",
            [&](const std::string& opt, const std::string& v) {
              const auto p = instrument::whole_option(opt, v, 1, 1 << 24);
              const auto side = static_cast<int>(std::lround(std::sqrt(static_cast<double>(p))));
              if (static_cast<std::int64_t>(side) * side != p)
                throw instrument::InputError("command line", opt, "expected a square number of ranks, got " + v);
              px = py = side;
            },
            "a square grid of P ranks; P in [1, 2^24], a square")
      .whole("--px", "X", px, 1, 1 << 12, "", "ranks in x")
      .whole("--py", "Y", py, 1, 1 << 12, "", "ranks in y")
      .whole("--blocks", "B", blocks, 1, 100000000, "", "blocks a rank")
      .whole("--bytes", "K", bytes, 0, std::int64_t{1} << 30, "B", "bytes a message")
      .real("--compute", "S", seconds, 0.0, 1.0, "s", "compute a block")
      .whole("--reps", "R", reps, 1, 1000, "", "repeats, the median kept")
      .whole("--ranks-per-node", "N", machine.ranks_per_node, 0, 1 << 20, "",
             "contention model: ranks sharing a node's link (0: no contention; with --node-bandwidth)")
      .real("--node-bandwidth", "BYTES_PER_S", machine.node_bytes_per_second, 1.0, 1e15, "B/s",
            "contention model: a node's link bandwidth")
      .shown_default("")
      .choice("--time-ordered", "0|1", options.time_ordered, {{"0", false}, {"1", true}},
              "1: the reference loop in time order (Options::time_ordered); 0: causal order");
  return instrument::run_serial_app(argc, argv, table, [&] {
    if (machine.ranks_per_node > 0 && machine.node_bytes_per_second <= 0.0) {
      throw instrument::InputError("command line", "--ranks-per-node",
                                   "expected --node-bandwidth with it");
    }
    const std::string shape = std::to_string(px) + " x " + std::to_string(py) + " ranks, " +
                              std::to_string(blocks) + " blocks";
    const instrument::replay::ProgramCounts counts = wavefront_counts(px, py, blocks);
    instrument::require_node_memory(instrument::replay::peak_bytes(counts, machine, options), 1, "command line",
                                    "--ranks/--blocks", "replaying " + shape);
    const auto operations = instrument::saturating_product({counts.operations, static_cast<std::uint64_t>(reps)});
    if (operations > static_cast<std::uint64_t>(kMostOperations)) {
      throw instrument::InputError("command line", "--ranks/--blocks/--reps",
                                   "expected at most 2^31 operations in all (one to three minutes; see --help), got " +
                                       std::to_string(operations) + " (" + shape + ", --reps " +
                                       std::to_string(reps) + ")");
    }
    return bench(px, py, blocks, bytes, seconds, reps, machine, options);
  });
}
