// The fast kernel (every instruction-set variant built, with and without OpenMP threads)
// against the reference kernel on random blocks: fluxes, outgoing faces and fixup counts
// must be bit-identical, for every angle-block width, P0/P1, fixups off/on, all octants.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>

#include "instrument/aligned_buffer.hpp"
#include "sweep3d/angle_block.hpp"
#include "sweep3d/sweep_kernel.hpp"

using namespace sweep3d;

namespace {

struct Block {
  instrument::AlignedBuffer src, flux, iface, jface, kface;
  BlockData data;
};

// A block of it x jt x nk cells (the whole rank: k_first at one end) with random values;
// sources partly negative so that diamond outflows go negative and fixups happen.
Block make_block(int it, int jt, int nk, int nm, int ls, int sk, unsigned seed) {
  Block b;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-0.6, 1.0);
  const std::size_t cells = static_cast<std::size_t>(it) * jt * nk;
  b.src.resize(cells * nm);
  b.flux.resize(cells * nm);
  b.iface.resize(static_cast<std::size_t>(nk) * jt * ls);
  b.jface.resize(static_cast<std::size_t>(nk) * it * ls);
  b.kface.resize(static_cast<std::size_t>(jt) * it * ls);
  for (auto* buf : {&b.src, &b.flux, &b.iface, &b.jface, &b.kface})
    for (std::size_t k = 0; k < buf->size(); ++k) (*buf)[k] = u(rng);
  b.data.it = it;
  b.data.jt = jt;
  b.data.nk = nk;
  b.data.k_first = sk > 0 ? 0 : nk - 1;
  b.data.nm = nm;
  b.data.src = b.src.data();
  b.data.flux = b.flux.data();
  b.data.iface = b.iface.data();
  b.data.jface = b.jface.data();
  b.data.kface = b.kface.data();
  return b;
}

bool same(const instrument::AlignedBuffer& a, const instrument::AlignedBuffer& b, int na, int ls) {
  // Faces: compare the real lanes only (padded lanes are the kernel's scratch).
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (static_cast<int>(k % static_cast<std::size_t>(ls)) < na && std::memcmp(&a[k], &b[k], sizeof(double)) != 0)
      return false;
  return true;
}

void zero_padding(Block& b, int na, int ls) {
  for (auto* buf : {&b.iface, &b.jface, &b.kface})
    for (std::size_t k = 0; k < buf->size(); ++k)
      if (static_cast<int>(k % static_cast<std::size_t>(ls)) >= na) (*buf)[k] = 0.0;
}

}  // namespace

TEST_CASE("fast kernels are bit-identical to the reference kernel", "[kernel]") {
  const char* isas[] = {"sse2", "avx2", "avx512"};
  for (int mm : {3, 6}) {
    Deck deck;
    deck.mm = mm;
    deck.dx = 1.0;  // thick cells: many negative outflows
    deck.dy = 0.7;
    deck.dz = 1.3;
    for (int isct : {0, 1}) {
      deck.isct = isct;
      const Problem p = make_problem(deck);
      for (int mmi = 1; mmi <= mm; ++mmi) {
        if (mm % mmi) continue;
        for (int iq = 1; iq <= 8; ++iq)
          for (bool fixup : {false, true})
            for (const char* isa : isas)
              for (int threads : {1, 2}) {
                if (std::strcmp(fast_kernel_isa(isa), isa) != 0) continue;
                const AngleBlock ab = make_angle_block(p, iq, mm / mmi, mmi);
                const unsigned seed = static_cast<unsigned>(iq * 131 + mmi * 7 + isct * 3 + fixup);
                Block want = make_block(9, 7, 5, p.nm, ab.ls, ab.sk, seed);
                Block got = make_block(9, 7, 5, p.nm, ab.ls, ab.sk, seed);
                zero_padding(want, ab.na, ab.ls);
                zero_padding(got, ab.na, ab.ls);
                want.data.fixup = got.data.fixup = fixup;
                got.data.threads = threads;
                const std::int64_t nf_want = sweep_block_ref(want.data, ab);
                const std::int64_t nf_got = select_kernel(KernelKind::fast, isa)(got.data, ab);
                INFO("S" << (mm == 3 ? 4 : 6) << " P" << isct << " mmi " << mmi << " octant " << iq
                         << (fixup ? " fixups" : "") << " " << isa << " threads " << threads);
                CHECK(nf_got == nf_want);
                if (fixup && iq == 1) CHECK(nf_want > 0);
                CHECK(std::memcmp(got.flux.data(), want.flux.data(), want.flux.bytes()) == 0);
                CHECK(same(got.iface, want.iface, ab.na, ab.ls));
                CHECK(same(got.jface, want.jface, ab.na, ab.ls));
                CHECK(same(got.kface, want.kface, ab.na, ab.ls));
              }
      }
    }
  }
}

TEST_CASE("a block of zero width passes the faces through", "[kernel]") {
  Deck deck;
  deck.mm = 6;
  deck.isct = 1;
  const Problem p = make_problem(deck);
  const AngleBlock ab = make_angle_block(p, 5, 1, 6);
  Block b = make_block(0, 4, 3, p.nm, ab.ls, ab.sk, 1);  // it = 0: a rank that owns no cells in I
  zero_padding(b, ab.na, ab.ls);
  std::vector<double> before(b.iface.data(), b.iface.data() + b.iface.size());
  CHECK(select_kernel(KernelKind::fast)(b.data, ab) == 0);
  CHECK(std::memcmp(before.data(), b.iface.data(), b.iface.bytes()) == 0);
}
