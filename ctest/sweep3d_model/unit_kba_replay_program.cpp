// sweep3d's generated KBA program (sweep3d/model/kba_program.hpp): the op sequences of a 2x2 grid
// with 2 k-blocks written out by hand from octant_sweep.cpp, and the matching of every send
// with a receive on other grids.
#include <catch2/catch.hpp>

#include <chrono>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "sweep3d/model/kba_program.hpp"

using namespace sweep3d::model;
using instrument::replay::Op;
using instrument::replay::OpKind;

namespace {

// One op as text: "recv 1 3000 144", "compute 36", "isend 2 6000 96 r1", "wait r1", ...
std::string text(const Op& op) {
  const std::string msg = std::to_string(op.peer) + " " + std::to_string(op.tag) + " " + std::to_string(op.bytes);
  switch (op.kind) {
    case OpKind::compute: return "compute " + std::to_string(op.work);
    case OpKind::send: return "send " + msg;
    case OpKind::recv: return "recv " + msg;
    case OpKind::isend: return "isend " + msg + " r" + std::to_string(op.request);
    case OpKind::irecv: return "irecv " + msg + " r" + std::to_string(op.request);
    case OpKind::wait: return "wait r" + std::to_string(op.request);
    case OpKind::collective: return "allreduce " + std::to_string(op.bytes);
  }
  return "?";
}

std::vector<std::string> sequence(const KbaProgram& p, int rank) {
  std::vector<std::string> s;
  for (std::int64_t i = 0; i < p.size(rank); ++i) s.push_back(text(p.op(rank, i)));
  return s;
}

// 2x2 ranks, 4x6x4 cells (2x3x4 each), mk = 2 (kb = 2), S4 with mmi = 3 (mmo = 1):
// I-faces 3 x 2 x 3 doubles = 144 B, J-faces 2 x 2 x 3 = 96 B, 36 cell-angles a block.
KbaShape two_by_two() {
  KbaShape s;
  s.npe_i = s.npe_j = 2;
  s.it_g = 4;
  s.jt_g = 6;
  s.kt = 4;
  s.mm = 3;
  s.mk = 2;
  s.mmi = 3;
  return s;
}

template <typename T>
std::vector<T> twice(const std::vector<T>& block) {
  std::vector<T> v = block;
  v.insert(v.end(), block.begin(), block.end());
  return v;
}

void append(std::vector<std::string>& v, const std::vector<std::string>& w) { v.insert(v.end(), w.begin(), w.end()); }

}  // namespace

TEST_CASE("KBA program: tags as octant_sweep.cpp") {
  // Octant iq: si = bit 2 of iq-1, sj = bit 1; tags 1000/3000 iq (I, +/-), 2000/4000 iq (J).
  CHECK(KbaProgram::tag_i(1) == 3000);
  CHECK(KbaProgram::tag_j(1) == 4000);
  CHECK(KbaProgram::tag_i(3) == 9000);
  CHECK(KbaProgram::tag_j(3) == 6000);
  CHECK(KbaProgram::tag_i(5) == 5000);
  CHECK(KbaProgram::tag_j(6) == 24000);
  CHECK(KbaProgram::tag_i(8) == 8000);
  CHECK(KbaProgram::tag_j(8) == 16000);
}

TEST_CASE("KBA program: 2x2 grid, 2 k-blocks, blocking sends, by hand") {
  const KbaProgram p(two_by_two(), KbaCosts{1e-9, 0.5e-9, 0.25e-9, 0.0, 0.0}, SendMode::blocking);
  REQUIRE(p.ranks() == 4);

  // Rank 0 (south-west corner): east neighbour 1, north neighbour 2.
  std::vector<std::string> r0 = {"compute 24"};  // W_before: 2 x 3 x 4 cells
  append(r0, twice<std::string>({"recv 1 3000 144", "recv 2 4000 96", "compute 36"}));    // iq 1: -,-
  append(r0, twice<std::string>({"recv 1 6000 144", "recv 2 8000 96", "compute 36"}));    // iq 2: -,-
  append(r0, twice<std::string>({"recv 1 9000 144", "compute 36", "send 2 6000 96"}));    // iq 3: -,+
  append(r0, twice<std::string>({"recv 1 12000 144", "compute 36", "send 2 8000 96"}));   // iq 4: -,+
  append(r0, twice<std::string>({"recv 2 20000 96", "compute 36", "send 1 5000 144"}));   // iq 5: +,-
  append(r0, twice<std::string>({"recv 2 24000 96", "compute 36", "send 1 6000 144"}));   // iq 6: +,-
  append(r0, twice<std::string>({"compute 36", "send 1 7000 144", "send 2 14000 96"}));   // iq 7: +,+
  append(r0, twice<std::string>({"compute 36", "send 1 8000 144", "send 2 16000 96"}));   // iq 8: +,+
  append(r0, {"compute 24", "allreduce 8", "allreduce 8"});                                // W_after, reductions
  CHECK(sequence(p, 0) == r0);

  // Rank 3 (north-east corner): west neighbour 2, south neighbour 1; its first octant sends.
  std::vector<std::string> r3 = {"compute 24"};
  append(r3, twice<std::string>({"compute 36", "send 2 3000 144", "send 1 4000 96"}));
  append(r3, twice<std::string>({"compute 36", "send 2 6000 144", "send 1 8000 96"}));
  append(r3, twice<std::string>({"recv 1 6000 96", "compute 36", "send 2 9000 144"}));
  append(r3, twice<std::string>({"recv 1 8000 96", "compute 36", "send 2 12000 144"}));
  append(r3, twice<std::string>({"recv 2 5000 144", "compute 36", "send 1 20000 96"}));
  append(r3, twice<std::string>({"recv 2 6000 144", "compute 36", "send 1 24000 96"}));
  append(r3, twice<std::string>({"recv 2 7000 144", "recv 1 14000 96", "compute 36"}));
  append(r3, twice<std::string>({"recv 2 8000 144", "recv 1 16000 96", "compute 36"}));
  append(r3, {"compute 24", "allreduce 8", "allreduce 8"});
  CHECK(sequence(p, 3) == r3);

  // Costs: W_g x cell-angles of the block, W_before/W_after per cell x local cells.
  CHECK(p.op(0, 3).seconds == Approx(36e-9));
  CHECK(p.op(0, 0).seconds == Approx(24 * 0.5e-9));
  CHECK(p.op(0, 49).seconds == Approx(24 * 0.25e-9));
  CHECK(p.describe(0, 2) == "op 2: octant 1, angle block 1, k-block 1: recv J from rank 2 (tag 4000, 96 B)");
}

TEST_CASE("KBA program: 2x2 grid, non-blocking sends wait on the ring of two buffers") {
  const KbaProgram p(two_by_two(), KbaCosts{1e-9}, SendMode::nonblocking);
  // Rank 0: sends on J in octants 3, 4, 7, 8 and on I in 5, 6, 7, 8. Request of the n-th send on
  // an axis (0-based, this iteration): 2n + axis (I = 0, J = 1). A send waits for the one two
  // back on its axis; the first two find their slot free.
  std::vector<std::string> r0 = {"compute 24"};
  append(r0, twice<std::string>({"recv 1 3000 144", "recv 2 4000 96", "compute 36"}));
  append(r0, twice<std::string>({"recv 1 6000 144", "recv 2 8000 96", "compute 36"}));
  append(r0, {"recv 1 9000 144", "compute 36", "isend 2 6000 96 r1",  // J sends 0, 1
              "recv 1 9000 144", "compute 36", "isend 2 6000 96 r3"});
  append(r0, {"recv 1 12000 144", "compute 36", "wait r1", "isend 2 8000 96 r5",  // J 2, 3
              "recv 1 12000 144", "compute 36", "wait r3", "isend 2 8000 96 r7"});
  append(r0, {"recv 2 20000 96", "compute 36", "isend 1 5000 144 r0",  // I sends 0, 1
              "recv 2 20000 96", "compute 36", "isend 1 5000 144 r2"});
  append(r0, {"recv 2 24000 96", "compute 36", "wait r0", "isend 1 6000 144 r4",
              "recv 2 24000 96", "compute 36", "wait r2", "isend 1 6000 144 r6"});
  append(r0, {"compute 36", "wait r4", "isend 1 7000 144 r8", "wait r5", "isend 2 14000 96 r9",
              "compute 36", "wait r6", "isend 1 7000 144 r10", "wait r7", "isend 2 14000 96 r11"});
  append(r0, {"compute 36", "wait r8", "isend 1 8000 144 r12", "wait r9", "isend 2 16000 96 r13",
              "compute 36", "wait r10", "isend 1 8000 144 r14", "wait r11", "isend 2 16000 96 r15"});
  // complete_sends: I's ring (slot 0 = send 6, slot 1 = send 7), then J's.
  append(r0, {"wait r12", "wait r14", "wait r13", "wait r15", "compute 24", "allreduce 8", "allreduce 8"});
  CHECK(sequence(p, 0) == r0);
  CHECK(p.size(0) == 68);
}

TEST_CASE("KBA program: a thinner last k-block computes less but sends full mk planes") {
  KbaShape s = two_by_two();
  s.kt = 5;  // mk = 2: k-blocks of 2, 2, 1 planes
  const KbaProgram p(s, KbaCosts{1e-9}, SendMode::blocking);
  // Rank 3, octant 1: compute, send I, send J per block.
  CHECK(text(p.op(3, 1)) == "compute 36");
  CHECK(text(p.op(3, 7)) == "compute 18");
  CHECK(text(p.op(3, 8)) == "send 2 3000 144");
  CHECK(text(p.op(3, 9)) == "send 1 4000 96");
  CHECK(text(p.op(3, 0)) == "compute 30");  // W_before: 2 x 3 x 5 cells
}

namespace {

// Every send has a receive: per (from, to, tag), the same count and the same sizes in order.
void check_matching(const KbaProgram& p) {
  using Key = std::tuple<int, int, int>;
  std::map<Key, std::vector<std::int64_t>> sent, received;
  for (int r = 0; r < p.ranks(); ++r)
    for (std::int64_t i = 0; i < p.size(r); ++i) {
      const Op op = p.op(r, i);
      if (op.kind == OpKind::send || op.kind == OpKind::isend) sent[{r, op.peer, op.tag}].push_back(op.bytes);
      if (op.kind == OpKind::recv) received[{op.peer, r, op.tag}].push_back(op.bytes);
      if (op.kind == OpKind::send || op.kind == OpKind::recv || op.kind == OpKind::isend) {
        REQUIRE(op.peer >= 0);
        REQUIRE(op.peer < p.ranks());
      }
    }
  CHECK(sent == received);
}

}  // namespace

TEST_CASE("KBA program: every send is received, on chains, uneven and no-cell grids") {
  for (const auto mode : {SendMode::blocking, SendMode::nonblocking})
    for (const auto& [ni, nj, it, jt] : std::vector<std::tuple<int, int, int, int>>{
             {1, 4, 5, 9}, {4, 1, 9, 5}, {3, 2, 7, 5}, {3, 3, 2, 8}, {1, 1, 4, 4}}) {
      KbaShape s;
      s.npe_i = ni;
      s.npe_j = nj;
      s.it_g = it;
      s.jt_g = jt;
      s.kt = 7;
      s.mm = 6;
      s.mk = 3;
      s.mmi = 2;
      INFO(ni << "x" << nj);
      check_matching(KbaProgram(s, KbaCosts{1e-9}, mode));
    }
}

TEST_CASE("KBA program: 65536 ranks are generated on the fly") {
  KbaShape s;
  s.npe_i = s.npe_j = 256;
  s.it_g = s.jt_g = 5 * 256;
  s.kt = 400;
  s.mm = 6;
  s.mk = 10;
  s.mmi = 3;
  const KbaProgram p(s, KbaCosts{1e-9}, SendMode::nonblocking);
  REQUIRE(p.ranks() == 65536);
  // An interior rank: 8 octants x 2 angle blocks x 40 k-blocks, each with 2 receives, a
  // compute and 2 sends; the sends wait on their ring except the first two per axis.
  const int interior = 300;
  CHECK(p.size(interior) == 1 + 8 * 80 * 7 - 4 + 4 + 3);
  // Reading every op of a rank near the end and the middle costs no per-rank storage.
  std::int64_t computes = 0;
  for (int r : {interior, 65535, 32768})
    for (std::int64_t i = 0; i < p.size(r); ++i) computes += p.op(r, i).kind == OpKind::compute;
  CHECK(computes == 3 * (8 * 80 + 2));
}
