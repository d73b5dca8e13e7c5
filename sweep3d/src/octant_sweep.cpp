#include "sweep3d/octant_sweep.hpp"

#include <algorithm>

#include "sweep3d/face_copies.hpp"
#include "sweep3d/phases.hpp"

namespace sweep3d {

namespace {
constexpr int kAxisI = 0, kAxisJ = 1;
int tag_i(const AngleBlock& ab) { return (ab.si > 0 ? 1000 : 3000) * ab.iq; }
int tag_j(const AngleBlock& ab) { return (ab.sj > 0 ? 2000 : 4000) * ab.iq; }
int slot_i(const AngleBlock& ab) { return (ab.sj > 0 ? 2 : 0) + (ab.sk > 0 ? 1 : 0); }
int slot_j(const AngleBlock& ab) { return ab.sk > 0 ? 1 : 0; }
}  // namespace

OctantSweep::OctantSweep(const Problem& problem, const KbaDecomposition& d, instrument::Comm& comm,
                         instrument::Recorder& recorder, const SweepOptions& options)
    : p_(problem), d_(d), comm_(comm), rec_(recorder), opt_(options) {
  for (int iq = 1; iq <= 8; ++iq)
    for (int mo = 1; mo <= d.mmo; ++mo) blocks_.push_back(make_angle_block(p_, iq, mo, d.mmi));
  ls_ = lane_stride(d.mmi);
  const std::size_t it = static_cast<std::size_t>(d.it), jt = static_cast<std::size_t>(d.jt);
  const std::size_t mk = static_cast<std::size_t>(d.mk), kt = static_cast<std::size_t>(d.kt);
  const std::size_t mm = static_cast<std::size_t>(d.mm), ls = static_cast<std::size_t>(ls_);
  i_count_ = static_cast<int>(jt * mk * static_cast<std::size_t>(d.mmi));
  j_count_ = static_cast<int>(it * mk * static_cast<std::size_t>(d.mmi));
  iface_.resize(mk * jt * ls);
  jface_.resize(mk * it * ls);
  kface_.resize(jt * it * ls);
  if (d.west >= 0 || d.east >= 0) i_recv_.resize(static_cast<std::size_t>(i_count_));
  if (d.south >= 0 || d.north >= 0) j_recv_.resize(static_cast<std::size_t>(j_count_));
  const int ring = opt_.nonblocking ? 2 : 1;
  for (int axis : {kAxisI, kAxisJ}) {
    const bool has = axis == kAxisI ? (d.west >= 0 || d.east >= 0) : (d.south >= 0 || d.north >= 0);
    if (!has) continue;
    for (int r = 0; r < ring; ++r)
      send_ring_[axis].emplace_back(static_cast<std::size_t>(axis == kAxisI ? i_count_ : j_count_));
    send_req_[axis].resize(static_cast<std::size_t>(ring));
  }
  // Reflected outflows live on the ranks that own the reflective low face.
  if (p_.refl_i && d.pi == 0) refl_i_.resize(4 * kt * jt * mm);
  if (p_.refl_j && d.pj == 0) refl_j_.resize(2 * kt * it * mm);
  if (p_.refl_k) refl_k_.resize(jt * it * mm);
  ph_compute_ = rec_.define_phase(phase::kKernel);
  ph_compute_fixup_ = rec_.define_phase(phase::kKernelFixup);
  ct_cell_angles_ = rec_.define_counter(counter::kCellAngles);
  ct_cell_angles_fixup_ = rec_.define_counter(counter::kCellAnglesFixup);
  ct_fixups_ = rec_.define_counter(counter::kFixups);
  ct_blocks_ = rec_.define_counter(counter::kBlocks);
}

std::size_t OctantSweep::bytes() const {
  std::size_t b = iface_.bytes() + jface_.bytes() + kface_.bytes() + i_recv_.bytes() + j_recv_.bytes() +
                  refl_i_.bytes() + refl_j_.bytes() + refl_k_.bytes();
  for (const auto& ring : send_ring_)
    for (const auto& buf : ring) b += buf.bytes();
  return b;
}

void OctantSweep::connect_neighbours() {
  auto or_null = [](int rank) { return rank >= 0 ? rank : MPI_PROC_NULL; };
  constexpr int kConnectTag = 7;  // the sweeps' tags are multiples of 1000
  for (int axis : {kAxisI, kAxisJ}) {
    const int low = or_null(axis == kAxisI ? d_.west : d_.south), high = or_null(axis == kAxisI ? d_.east : d_.north);
    const int count = axis == kAxisI ? i_count_ : j_count_;
    auto& recv = axis == kAxisI ? i_recv_ : j_recv_;
    // Every rank of the axis's lines makes both shifts; a rank without that axis's
    // neighbours (one rank along it) has no buffers and nothing to do.
    if (send_ring_[axis].empty()) continue;
    for (auto& buf : send_ring_[axis]) {  // zeros (AlignedBuffer)
      MPI_Sendrecv(buf.data(), count, MPI_DOUBLE, high, kConnectTag, recv.data(), count, MPI_DOUBLE, low, kConnectTag,
                   comm_.mpi(), MPI_STATUS_IGNORE);
      MPI_Sendrecv(buf.data(), count, MPI_DOUBLE, low, kConnectTag, recv.data(), count, MPI_DOUBLE, high, kConnectTag,
                   comm_.mpi(), MPI_STATUS_IGNORE);
    }
  }
}

double* OctantSweep::send_buffer(int axis) {
  const std::size_t r = static_cast<std::size_t>(ring_next_[axis]);
  if (opt_.nonblocking) comm_.wait(send_req_[axis][r]);  // the buffer's previous message
  return send_ring_[axis][r].data();
}

void OctantSweep::send(int axis, double* buf, int dest, int tag) {
  const int count = axis == kAxisI ? i_count_ : j_count_;
  if (opt_.nonblocking) {
    send_req_[axis][static_cast<std::size_t>(ring_next_[axis])] = comm_.isend(buf, count, MPI_DOUBLE, dest, tag);
    ring_next_[axis] = (ring_next_[axis] + 1) % static_cast<int>(send_ring_[axis].size());
  } else {
    comm_.send(buf, count, MPI_DOUBLE, dest, tag);
  }
}

void OctantSweep::complete_sends() {
  if (!opt_.nonblocking) return;
  for (auto& reqs : send_req_) comm_.wait_all(reqs.data(), static_cast<int>(reqs.size()));
}

// The I and J faces differ only in these; one implementation serves both.
struct OctantSweep::FaceAxis {
  int n;                          // face cells per plane: jt (I-faces) or it (J-faces)
  int s;                          // sweep direction on this axis (si or sj)
  int upstream, downstream;       // neighbour ranks, -1 at the grid edge
  int tag;
  double* face;                   // kernel layout [plane][n][lane]
  double* recv;                   // message [angle][plane of mk][n]
  double* store;                  // reflection storage of this octant's slot [k][n][mm], or null
  const double* w;                // wmu or weta: (s*cosine)*w per lane
  double width1, width2;          // the leakage term is ((w*psi)*width1)*width2
  int leak_low, leak_high;        // indices into the six leakages
  int count;                      // message size
  int channel;                    // send ring
};

OctantSweep::FaceAxis OctantSweep::axis(int which, const AngleBlock& ab) {
  FaceAxis a{};
  if (which == kAxisI) {
    const bool refl = p_.refl_i && d_.pi == 0;
    a = {d_.jt, ab.si, ab.si > 0 ? d_.west : d_.east, ab.si > 0 ? d_.east : d_.west, tag_i(ab), iface_.data(),
         i_recv_.data(), refl ? refl_i_.data() + static_cast<std::size_t>(slot_i(ab)) * d_.kt * d_.jt * d_.mm : nullptr,
         ab.wmu, p_.dj, p_.dk, 0, 1, i_count_, kAxisI};
  } else {
    const bool refl = p_.refl_j && d_.pj == 0;
    a = {d_.it, ab.sj, ab.sj > 0 ? d_.south : d_.north, ab.sj > 0 ? d_.north : d_.south, tag_j(ab), jface_.data(),
         j_recv_.data(), refl ? refl_j_.data() + static_cast<std::size_t>(slot_j(ab)) * d_.kt * d_.it * d_.mm : nullptr,
         ab.weta, p_.di, p_.dk, 2, 3, j_count_, kAxisJ};
  }
  return a;
}

// Inflow of one block: a message from upstream (the original's layout [angle][plane][n]),
// the mirror octant's stored outflow on a reflective low face (counted as leakage, in the
// original's order: angle, plane in sweep order, n ascending), or vacuum.
void OctantSweep::inflow(const FaceAxis& x, const AngleBlock& ab, int nk, int k_first, std::array<double, 6>& leak) {
  const int n = x.n, ls = ls_;
  const FaceExtent e{ab.na, nk, d_.mk, n, ls};
  if (x.upstream >= 0) {
    comm_.recv(x.recv, x.count, MPI_DOUBLE, x.upstream, x.tag);
    unpack_face(e, x.recv, x.face);
  } else if (x.s > 0 && x.store) {
    double sum = 0.0;
    for (int a = 0; a < ab.na; ++a)
      for (int kp = 0; kp < nk; ++kp) {
        const int k = k_first + kp * ab.sk;
        for (int c = 0; c < n; ++c) {
          const double v = x.store[(static_cast<long>(k) * n + c) * d_.mm + ab.m0 + a];
          x.face[(kp * n + c) * ls + a] = v;
          sum += ((x.w[a] * v) * x.width1) * x.width2;
        }
      }
    leak[static_cast<std::size_t>(x.leak_low)] += sum;
  } else {
    vacuum_face(e, x.face);
  }
}

// Outflow of one block: a message downstream, or at the domain boundary the leakage (and on
// a reflective low face the storage for the mirror octant).
void OctantSweep::outflow(const FaceAxis& x, const AngleBlock& ab, int nk, int k_first, std::array<double, 6>& leak) {
  const FaceExtent e{ab.na, nk, d_.mk, x.n, ls_};
  if (x.downstream >= 0) {
    double* msg = send_buffer(x.channel);
    pack_face(e, x.face, msg);
    send(x.channel, msg, x.downstream, x.tag);
    return;
  }
  const ReflectedStore store{x.s < 0 ? x.store : nullptr, k_first, ab.sk, d_.mm, ab.m0};
  leak[static_cast<std::size_t>(x.s < 0 ? x.leak_low : x.leak_high)] +=
      edge_leakage(e, x.face, x.w, x.width1, x.width2, store);
}

void OctantSweep::k_inflow(const AngleBlock& ab, std::array<double, 6>& leak) {
  const int it = d_.it, jt = d_.jt, ls = ls_;
  double* face = kface_.data();
  if (!(ab.sk > 0 && p_.refl_k)) {
    kface_.zero();
    return;
  }
  double sum = 0.0;
  for (int a = 0; a < ab.na; ++a)
    for (int j = 0; j < jt; ++j)
      for (int i = 0; i < it; ++i) {
        const double v = refl_k_[(static_cast<std::size_t>(j) * it + i) * d_.mm + ab.m0 + a];
        face[(j * it + i) * ls + a] = v;
        sum += ((ab.wtsi[a] * v) * p_.di) * p_.dj;
      }
  leak[4] += sum;
}

void OctantSweep::k_outflow(const AngleBlock& ab, std::array<double, 6>& leak) {
  const int it = d_.it, jt = d_.jt, ls = ls_;
  const double* face = kface_.data();
  const bool store = ab.sk < 0 && p_.refl_k;
  double sum = 0.0;
  for (int a = 0; a < ab.na; ++a)
    for (int j = 0; j < jt; ++j)
      for (int i = 0; i < it; ++i) {
        const double v = face[(j * it + i) * ls + a];
        sum += ((ab.wtsi[a] * v) * p_.di) * p_.dj;
        if (store) refl_k_[(static_cast<std::size_t>(j) * it + i) * d_.mm + ab.m0 + a] = v;
      }
  leak[ab.sk < 0 ? 4 : 5] += sum;
}

SweepResult OctantSweep::run(const double* src, double* flux, bool fixup) {
  SweepResult res;
  auto& leak = res.leakage;
  const instrument::PhaseId ph = fixup ? ph_compute_fixup_ : ph_compute_;
  BlockData bd;
  bd.it = d_.it;
  bd.jt = d_.jt;
  bd.nm = p_.nm;
  bd.src = src;
  bd.flux = flux;
  bd.iface = iface_.data();
  bd.jface = jface_.data();
  bd.kface = kface_.data();
  bd.fixup = fixup;
  bd.threads = opt_.threads;
  for (int iq = 1; iq <= 8; ++iq) {
    for (int mo = 1; mo <= d_.mmo; ++mo) {
      const AngleBlock& ab = blocks_[static_cast<std::size_t>((iq - 1) * d_.mmo + (mo - 1))];
      const FaceAxis faces_i = axis(kAxisI, ab), faces_j = axis(kAxisJ, ab);
      k_inflow(ab, leak);
      for (int kk = 1; kk <= d_.kb; ++kk) {
        const int nk = d_.block_planes(kk), k_first = d_.block_first_plane(kk, ab.sk);
        inflow(faces_i, ab, nk, k_first, leak);
        inflow(faces_j, ab, nk, k_first, leak);
        bd.nk = nk;
        bd.k_first = k_first;
        const std::int64_t work = static_cast<std::int64_t>(nk) * d_.it * d_.jt * ab.na;
        // Timed per block (never per cell), with the block's cell-angles in the trace: W_g
        // is this phase's seconds over the cell-angle counters.
        rec_.begin(ph);
        const std::int64_t nf = opt_.kernel(bd, ab);
        rec_.end(ph, work);
        res.nfixed += nf;
        res.cell_angles += work;
        outflow(faces_i, ab, nk, k_first, leak);
        outflow(faces_j, ab, nk, k_first, leak);
      }
      k_outflow(ab, leak);
    }
  }
  complete_sends();
  rec_.count(fixup ? ct_cell_angles_fixup_ : ct_cell_angles_, res.cell_angles);
  rec_.count(ct_fixups_, res.nfixed);
  rec_.count(ct_blocks_, 8LL * d_.mmo * d_.kb);
  return res;
}

}  // namespace sweep3d
