// KbaProgram::counts (kba_program.hpp), what the replay's memory estimate rests on: the
// operations and channels counted from the program must be the program's own, enumerated op
// by op, and the posted requests at least what a rank holds at once.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <set>
#include <tuple>

#include "instrument/replay.hpp"
#include "sweep3d/model/kba_program.hpp"

using namespace sweep3d::model;
using instrument::replay::Op;
using instrument::replay::OpKind;

namespace {

KbaShape shape(int ni, int nj, int kt, int mk, int mmi) {
  KbaShape s;
  s.npe_i = ni;
  s.npe_j = nj;
  s.it_g = 3 * ni;
  s.jt_g = 2 * nj;
  s.kt = kt;
  s.mm = 6;
  s.mk = mk;
  s.mmi = mmi;
  return s;
}

}  // namespace

TEST_CASE("KbaProgram::counts: operations, channels and requests are the program's own", "[kba_program]") {
  for (const auto& [ni, nj, kt, mk, mmi] : {std::tuple{1, 1, 4, 2, 3}, std::tuple{1, 5, 5, 2, 1}, std::tuple{5, 1, 3, 1, 6},
                                            std::tuple{3, 4, 7, 3, 2}, std::tuple{7, 2, 4, 4, 3}}) {
    for (const SendMode mode : {SendMode::blocking, SendMode::nonblocking}) {
      const KbaProgram program(shape(ni, nj, kt, mk, mmi), KbaCosts{1e-9, 0, 0, 0, 0}, mode);
      const instrument::replay::ProgramCounts c = program.counts();
      INFO(ni << "x" << nj << " kt " << kt << " mk " << mk << " mmi " << mmi
              << (mode == SendMode::nonblocking ? " non-blocking" : " blocking"));
      std::uint64_t operations = 0, requests = 0;
      std::set<std::tuple<int, int, int>> channels;  // sender, receiver, tag
      for (int r = 0; r < program.ranks(); ++r) {
        std::int64_t open = 0, most_open = 0;
        for (std::int64_t i = 0; i < program.size(r); ++i) {
          const Op op = program.op(r, i);
          ++operations;
          if (op.kind == OpKind::recv) channels.insert({op.peer, r, op.tag});
          if (op.kind == OpKind::isend) most_open = std::max(most_open, ++open);
          if (op.kind == OpKind::wait) --open;
        }
        CHECK(open == 0);
        requests += static_cast<std::uint64_t>(most_open);
      }
      CHECK(c.ranks == static_cast<std::uint64_t>(ni * nj));
      CHECK(c.operations == operations);
      CHECK(c.channels == channels.size());
      CHECK(c.requests >= requests);
      CHECK(c.messages >= c.ranks);
      // and the engine simulates exactly those operations
      instrument::replay::Machine m;
      m.net.L = 1e-6;
      m.net.o_prime = 1e-7;
      m.net.s = 1024;
      m.net.S = 65536;
      m.g = 1e-7;
      CHECK(static_cast<std::uint64_t>(instrument::replay::simulate(program, m).events) == operations);
    }
  }
}
