// Helpers of the replay engine's unit tests: the round machine the timelines are worked out
// by hand with, and one-line constructors of operations.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "instrument/replay.hpp"

namespace replay_test {

using instrument::replay::Collective;
using instrument::replay::Machine;
using instrument::replay::Op;
using instrument::replay::OpKind;
using instrument::replay::StoredProgram;
using instrument::replay::collective_op;
using instrument::replay::compute_op;
using instrument::replay::message_op;
using instrument::replay::wait_op;

// L = 1 us, o' = 0.1 us, O_s = O_r = 0.1 ns/B, G_s = G_l = 1 ns/B, s = 64 B, S = 1024 B,
// g = 0.2 us. Hence, in us: T1(k) = T3(k) = 0.1 + 0.0001 k, T2(k) = 1 + 0.001 k (also above
// s, as G_l = G_s), T5 = 2 o' + L = 1.2.
inline Machine round_machine() {
  Machine m;
  m.net.L = 1e-6;
  m.net.o_prime = 1e-7;
  m.net.O_s = 1e-10;
  m.net.O_r = 1e-10;
  m.net.G_s = 1e-9;
  m.net.G_l = 1e-9;
  m.net.s = 64;
  m.net.S = 1024;
  m.g = 2e-7;
  m.g_from = "test";
  return m;
}

inline Op compute(double seconds, std::int64_t work = 0) { return compute_op(seconds, work); }
inline Op send(int peer, std::int64_t bytes, int tag = 0) { return message_op(OpKind::send, peer, tag, bytes); }
inline Op recv(int peer, std::int64_t bytes, int tag = 0) { return message_op(OpKind::recv, peer, tag, bytes); }
inline Op isend(int peer, std::int64_t bytes, int request, int tag = 0) {
  return message_op(OpKind::isend, peer, tag, bytes, request);
}
inline Op irecv(int peer, std::int64_t bytes, int request, int tag = 0) {
  return message_op(OpKind::irecv, peer, tag, bytes, request);
}
inline Op wait(int request) { return wait_op(request); }
inline Op collective(Collective c, std::int64_t bytes = 0, int root = -1) { return collective_op(c, bytes, root); }

inline StoredProgram program(std::initializer_list<std::vector<Op>> ranks) {
  StoredProgram p;
  p.per_rank.assign(ranks.begin(), ranks.end());
  return p;
}

}  // namespace replay_test
