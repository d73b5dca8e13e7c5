#include "sweep3d/model/kba_program.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <vector>

namespace sweep3d::model {

using instrument::replay::Collective;
using instrument::replay::Op;
using instrument::replay::OpKind;
using instrument::replay::compute_op;
using instrument::replay::message_op;
using instrument::replay::wait_op;

namespace {

int sign_i(int iq) { return ((iq - 1) & 4) ? 1 : -1; }  // as sweep3d::octant(iq)
int sign_j(int iq) { return ((iq - 1) & 2) ? 1 : -1; }

// A posted send's request: unique within the iteration, by axis and the send's index on it.
std::int32_t request_of(std::int64_t send_index, int axis) {
  return static_cast<std::int32_t>(2 * send_index + axis);
}

}  // namespace

int KbaProgram::tag_i(int iq) { return (sign_i(iq) > 0 ? 1000 : 3000) * iq; }
int KbaProgram::tag_j(int iq) { return (sign_j(iq) > 0 ? 2000 : 4000) * iq; }

KbaProgram::KbaProgram(const KbaShape& shape, const KbaCosts& costs, SendMode mode)
    : shape_(shape), costs_(costs), nonblocking_(mode == SendMode::nonblocking) {
  if (shape.npe_i < 1 || shape.npe_j < 1 || static_cast<std::int64_t>(shape.npe_i) * shape.npe_j > (1LL << 30))
    throw std::invalid_argument("KbaProgram: a process grid of 1 .. 2^30 ranks");
  if (shape.mk < 1 || shape.mk > shape.kt || shape.mmi < 1 || shape.mm % shape.mmi != 0)
    throw std::invalid_argument("KbaProgram: mk in [1, kt] and mmi a factor of mm");
  blocks_per_octant_ = static_cast<std::int64_t>(shape.mmo()) * shape.kb();
  for (int c = 0; c < 16; ++c) {
    const bool west = c & 1, east = c & 2, south = c & 4, north = c & 8;
    RankLayout& r = layouts_[static_cast<std::size_t>(c)];
    r.has_neighbour = {west || east, south || north};
    std::int64_t next = 1;  // op 0 is W_before
    for (int q = 0; q < 8; ++q) {
      const int iq = q + 1;
      OctantLayout& o = r.octants[static_cast<std::size_t>(q)];
      o.up = {sign_i(iq) > 0 ? west : east, sign_j(iq) > 0 ? south : north};
      o.down = {sign_i(iq) > 0 ? east : west, sign_j(iq) > 0 ? north : south};
      o.sends_before = r.sends;
      o.full_block = 1;
      for (int a = 0; a < kAxes; ++a) o.full_block += o.up[a] + (o.down[a] ? (nonblocking_ ? 2 : 1) : 0);
      o.start = next;
      o.size = block_start(o, blocks_per_octant_) - o.start;
      next += o.size;
      for (int a = 0; a < kAxes; ++a) r.sends[a] += o.down[a] ? blocks_per_octant_ : 0;
    }
    r.sweep_end = next;
    r.final_waits = 0;
    if (nonblocking_)
      for (int a = 0; a < kAxes; ++a)
        if (r.has_neighbour[a]) r.final_waits += static_cast<int>(std::min<std::int64_t>(2, r.sends[a]));
    r.size = r.sweep_end + r.final_waits + 3;  // W_after, two allreduces
  }
}

int KbaProgram::neighbour_case(int rank) const {
  const int pi = rank % shape_.npe_i, pj = rank / shape_.npe_i;
  return (pi > 0 ? 1 : 0) | (pi < shape_.npe_i - 1 ? 2 : 0) | (pj > 0 ? 4 : 0) | (pj < shape_.npe_j - 1 ? 8 : 0);
}

// The first two sends of the iteration on an axis find their ring slot free and do not wait.
bool KbaProgram::waits_before_send(const OctantLayout& o, int axis, std::int64_t block) const {
  return nonblocking_ && o.down[axis] && o.sends_before[axis] + block >= 2;
}

std::int64_t KbaProgram::block_start(const OctantLayout& o, std::int64_t block) const {
  std::int64_t start = o.start + block * o.full_block;
  if (nonblocking_)
    for (int a = 0; a < kAxes; ++a)
      if (o.down[a]) start -= std::clamp<std::int64_t>(2 - o.sends_before[a], 0, block);
  return start;
}

std::int64_t KbaProgram::size(int rank) const { return layouts_[static_cast<std::size_t>(neighbour_case(rank))].size; }

KbaProgram::Decoded KbaProgram::decode_block(int rank, const OctantLayout& o, int iq, std::int64_t block,
                                             std::int64_t pos) const {
  const int kb = shape_.kb();
  const int pi = rank % shape_.npe_i, pj = rank / shape_.npe_i;
  Decoded d;
  d.iq = iq;
  d.mo = static_cast<int>(block / kb) + 1;
  d.kk = static_cast<int>(block % kb) + 1;
  const int up[kAxes] = {sign_i(iq) > 0 ? rank - 1 : rank + 1, sign_j(iq) > 0 ? rank - shape_.npe_i : rank + shape_.npe_i};
  const int down[kAxes] = {sign_i(iq) > 0 ? rank + 1 : rank - 1,
                           sign_j(iq) > 0 ? rank + shape_.npe_i : rank - shape_.npe_i};
  const int tag[kAxes] = {tag_i(iq), tag_j(iq)};
  const std::int64_t bytes[kAxes] = {shape_.i_face_bytes(pj), shape_.j_face_bytes(pi)};
  // The block's ops in program order; pos counts down to the one asked for.
  for (int a = 0; a < kAxes; ++a)
    if (o.up[a] && pos-- == 0) {
      d.op = message_op(OpKind::recv, up[a], tag[a], bytes[a]);
      d.what = a == 0 ? "recv I" : "recv J";
      return d;
    }
  if (pos-- == 0) {
    const int nk = d.kk * shape_.mk <= shape_.kt ? shape_.mk : shape_.kt - (d.kk - 1) * shape_.mk;
    const std::int64_t work = static_cast<std::int64_t>(shape_.it_of(pi)) * shape_.jt_of(pj) * nk * shape_.mmi;
    d.op = compute_op(costs_.w_g * static_cast<double>(work), work);
    d.what = "compute";
    return d;
  }
  for (int a = 0; a < kAxes; ++a) {
    if (!o.down[a]) continue;
    const std::int64_t n = o.sends_before[a] + block;  // this send's index on the axis
    if (waits_before_send(o, a, block) && pos-- == 0) {
      d.op = wait_op(request_of(n - 2, a));
      d.what = a == 0 ? "wait (I ring)" : "wait (J ring)";
      return d;
    }
    if (pos-- == 0) {
      d.op = nonblocking_ ? message_op(OpKind::isend, down[a], tag[a], bytes[a], request_of(n, a))
                          : message_op(OpKind::send, down[a], tag[a], bytes[a]);
      d.what = a == 0 ? "send I" : "send J";
      return d;
    }
  }
  throw std::logic_error("KbaProgram: block op out of range");
}

KbaProgram::Decoded KbaProgram::decode(int rank, std::int64_t index) const {
  if (rank < 0 || rank >= ranks())
    throw std::out_of_range("KbaProgram: rank " + std::to_string(rank) + " of " + std::to_string(ranks()));
  const RankLayout& r = layouts_[static_cast<std::size_t>(neighbour_case(rank))];
  if (index < 0 || index >= r.size)
    throw std::out_of_range("KbaProgram: op " + std::to_string(index) + " of rank " + std::to_string(rank));
  const int pi = rank % shape_.npe_i, pj = rank / shape_.npe_i;
  const std::int64_t cells = static_cast<std::int64_t>(shape_.it_of(pi)) * shape_.jt_of(pj) * shape_.kt;
  Decoded d;
  if (index == 0) {
    d.op = compute_op(costs_.w_before_s_per_cell * static_cast<double>(cells) + costs_.w_before_s, cells);
    d.what = "compute W_before";
    return d;
  }
  if (index < r.sweep_end) {
    int q = 7;
    while (r.octants[static_cast<std::size_t>(q)].start > index) --q;
    const OctantLayout& o = r.octants[static_cast<std::size_t>(q)];
    // The full-block estimate never overshoots; at most two blocks lack their waits.
    std::int64_t block = (index - o.start) / o.full_block;
    while (block + 1 < blocks_per_octant_ && block_start(o, block + 1) <= index) ++block;
    return decode_block(rank, o, q + 1, block, index - block_start(o, block));
  }
  std::int64_t pos = index - r.sweep_end;
  if (pos < r.final_waits) {  // complete_sends: per axis, wait_all on the ring's two slots
    for (int a = 0; a < kAxes; ++a) {
      if (!r.has_neighbour[a]) continue;
      const std::int64_t t = r.sends[a];
      const std::int64_t pending = std::min<std::int64_t>(2, t);
      if (pos < pending) {
        // Slot 0 (even send index) first: the ring starts at slot 0 in the first iteration.
        std::int64_t n = t - pending + pos;
        if (pending == 2) n = ((t - 2) % 2 == 0) ? t - 2 + pos : t - 1 - pos;
        d.op = wait_op(request_of(n, a));
        d.what = a == 0 ? "wait (complete I sends)" : "wait (complete J sends)";
        return d;
      }
      pos -= pending;
    }
  }
  pos -= r.final_waits;
  if (pos == 0) {
    d.op = compute_op(costs_.w_after_s_per_cell * static_cast<double>(cells) + costs_.w_after_s, cells);
    d.what = "compute W_after";
    return d;
  }
  d.op.kind = OpKind::collective;
  d.op.collective = Collective::allreduce;
  d.op.bytes = 8;
  d.what = pos == 1 ? "allreduce (fixups)" : "allreduce (error)";
  return d;
}

// The messages in flight are the engine's, not the program's: its causal order runs a rank
// until it needs a partner not yet simulated, so ranks run ahead of their downstream
// neighbours. Counted by the engine (its record pool's size, 2026-12-01) on 272 replays:
// 17 process grids (1x1 to 128x128, 16x1024, 1024x16, 1x4096, 4096x1, 2x64 ...) x 8
// blockings (2 to 2400 blocks an octant, eager and rendezvous faces) x both send modes. With
// npe_i > 1 they were (4 npe_j + 2) x blocks an octant + the ranks (+ 5 x the ranks when
// non-blocking: the rings' posted sends), to within 3% on every replay of over 1e5 of them;
// a single column (npe_i = 1) at most 8 x blocks + the ranks; rendezvous faces far fewer (63
// at 8x8). The estimate takes 5 npe_j + 4: measured / estimated 0.72-0.83 on the large ones.
instrument::replay::ProgramCounts KbaProgram::counts() const {
  instrument::replay::ProgramCounts c;
  const auto ni = static_cast<std::uint64_t>(shape_.npe_i), nj = static_cast<std::uint64_t>(shape_.npe_j);
  const auto blocks = static_cast<std::uint64_t>(blocks_per_octant_);
  c.ranks = ni * nj;
  // Ranks per neighbour case: first, inner and last column (one when npe_i = 1), likewise rows.
  struct Line {
    std::uint64_t count;
    bool low, high;  // has a neighbour below / above
  };
  auto lines = [](std::uint64_t n) {
    return n == 1 ? std::vector<Line>{{1, false, false}} : std::vector<Line>{{1, false, true}, {n - 2, true, true}, {1, true, false}};
  };
  for (const Line& col : lines(ni))
    for (const Line& row : lines(nj)) {
      const int c16 = (col.low ? 1 : 0) | (col.high ? 2 : 0) | (row.low ? 4 : 0) | (row.high ? 8 : 0);
      c.operations += col.count * row.count * static_cast<std::uint64_t>(layouts_[static_cast<std::size_t>(c16)].size);
    }
  // Every octant has its own tags: a channel per octant from each rank's upstream neighbour.
  c.channels = 8 * ((ni - 1) * nj + ni * (nj - 1));
  c.messages = blocks * (ni > 1 ? 5 * nj + 4 : 8) + (nonblocking_ ? 5 : 1) * c.ranks;
  c.requests = nonblocking_ ? 4 * c.ranks : 0;  // a ring of two posted sends per axis
  return c;
}

Op KbaProgram::op(int rank, std::int64_t index) const { return decode(rank, index).op; }

std::string KbaProgram::describe(int rank, std::int64_t index) const {
  const Decoded d = decode(rank, index);
  std::string s = "op " + std::to_string(index) + ": ";
  if (d.iq > 0)
    s += "octant " + std::to_string(d.iq) + ", angle block " + std::to_string(d.mo) + ", k-block " +
         std::to_string(d.kk) + ": ";
  s += d.what;
  const Op& op = d.op;
  if (op.kind == OpKind::send || op.kind == OpKind::isend) s += " to rank " + std::to_string(op.peer);
  if (op.kind == OpKind::recv) s += " from rank " + std::to_string(op.peer);
  if (op.kind == OpKind::send || op.kind == OpKind::isend || op.kind == OpKind::recv)
    s += " (tag " + std::to_string(op.tag) + ", " + std::to_string(op.bytes) + " B)";
  if (op.kind == OpKind::wait) s += " (request " + std::to_string(op.request) + ")";
  if (op.kind == OpKind::compute) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " (%.6g s, %lld work units)", op.seconds, static_cast<long long>(op.work));
    s += buf;
  }
  return s;
}

}  // namespace sweep3d::model
