#include "sweep3d/octant_sweep.hpp"

#include <algorithm>

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
  ph_compute_ = rec_.phase("sweep_compute");
  ph_compute_fixup_ = rec_.phase("sweep_compute_fixup");
  ct_cell_angles_ = rec_.counter("cell_angles");
  ct_cell_angles_fixup_ = rec_.counter("cell_angles_fixup_its");
  ct_fixups_ = rec_.counter("fixups");
  ct_blocks_ = rec_.counter("blocks");
}

std::size_t OctantSweep::bytes() const {
  std::size_t b = iface_.bytes() + jface_.bytes() + kface_.bytes() + i_recv_.bytes() + j_recv_.bytes() +
                  refl_i_.bytes() + refl_j_.bytes() + refl_k_.bytes();
  for (const auto& ring : send_ring_)
    for (const auto& buf : ring) b += buf.bytes();
  return b;
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

// Messages and reflection storage use the original's layout [angle][plane][j] (message)
// and [plane][j][angle] (storage); the kernel's faces are [plane][j][lane].

void OctantSweep::block_i_inflow(const AngleBlock& ab, int /*kk*/, int nk, int k_first,
                                 std::array<double, 6>& leak) {
  const int jt = d_.jt, mk = d_.mk, ls = ls_;
  double* face = iface_.data();
  const int up = ab.si > 0 ? d_.west : d_.east;
  if (up >= 0) {
    comm_.recv(i_recv_.data(), i_count_, MPI_DOUBLE, up, tag_i(ab));
    const double* msg = i_recv_.data();
    for (int a = 0; a < ab.na; ++a)
      for (int kp = 0; kp < nk; ++kp)
        for (int j = 0; j < jt; ++j) face[(kp * jt + j) * ls + a] = msg[(a * mk + kp) * jt + j];
  } else if (ab.si > 0 && p_.refl_i) {  // low face, reflective: the mirror octant's outflow
    const double* store = refl_i_.data() + static_cast<std::size_t>(slot_i(ab)) * d_.kt * jt * d_.mm;
    double sum = 0.0;
    for (int a = 0; a < ab.na; ++a)
      for (int kp = 0; kp < nk; ++kp) {
        const int k = k_first + kp * ab.sk;
        for (int j = 0; j < jt; ++j) {
          const double v = store[(static_cast<long>(k) * jt + j) * d_.mm + ab.m0 + a];
          face[(kp * jt + j) * ls + a] = v;
          sum += ((ab.wmu[a] * v) * p_.dj) * p_.dk;
        }
      }
    leak[0] += sum;
  } else {
    std::fill(face, face + static_cast<long>(nk) * jt * ls, 0.0);
  }
}

void OctantSweep::block_j_inflow(const AngleBlock& ab, int /*kk*/, int nk, int k_first,
                                 std::array<double, 6>& leak) {
  const int it = d_.it, mk = d_.mk, ls = ls_;
  double* face = jface_.data();
  const int up = ab.sj > 0 ? d_.south : d_.north;
  if (up >= 0) {
    comm_.recv(j_recv_.data(), j_count_, MPI_DOUBLE, up, tag_j(ab));
    const double* msg = j_recv_.data();
    for (int a = 0; a < ab.na; ++a)
      for (int kp = 0; kp < nk; ++kp)
        for (int i = 0; i < it; ++i) face[(kp * it + i) * ls + a] = msg[(a * mk + kp) * it + i];
  } else if (ab.sj > 0 && p_.refl_j) {
    const double* store = refl_j_.data() + static_cast<std::size_t>(slot_j(ab)) * d_.kt * it * d_.mm;
    double sum = 0.0;
    for (int a = 0; a < ab.na; ++a)
      for (int kp = 0; kp < nk; ++kp) {
        const int k = k_first + kp * ab.sk;
        for (int i = 0; i < it; ++i) {
          const double v = store[(static_cast<long>(k) * it + i) * d_.mm + ab.m0 + a];
          face[(kp * it + i) * ls + a] = v;
          sum += ((ab.weta[a] * v) * p_.di) * p_.dk;
        }
      }
    leak[2] += sum;
  } else {
    std::fill(face, face + static_cast<long>(nk) * it * ls, 0.0);
  }
}

void OctantSweep::block_i_outflow(const AngleBlock& ab, int nk, int k_first, std::array<double, 6>& leak) {
  const int jt = d_.jt, mk = d_.mk, ls = ls_;
  const double* face = iface_.data();
  const int down = ab.si > 0 ? d_.east : d_.west;
  if (down >= 0) {
    double* msg = send_buffer(kAxisI);
    for (int a = 0; a < ab.na; ++a)
      for (int kp = 0; kp < nk; ++kp)
        for (int j = 0; j < jt; ++j) msg[(a * mk + kp) * jt + j] = face[(kp * jt + j) * ls + a];
    send(kAxisI, msg, down, tag_i(ab));
    return;
  }
  const bool store = ab.si < 0 && p_.refl_i;
  double* dst = store ? refl_i_.data() + static_cast<std::size_t>(slot_i(ab)) * d_.kt * jt * d_.mm : nullptr;
  double sum = 0.0;
  for (int a = 0; a < ab.na; ++a)
    for (int kp = 0; kp < nk; ++kp) {
      const int k = k_first + kp * ab.sk;
      for (int j = 0; j < jt; ++j) {
        const double v = face[(kp * jt + j) * ls + a];
        sum += ((ab.wmu[a] * v) * p_.dj) * p_.dk;
        if (store) dst[(static_cast<long>(k) * jt + j) * d_.mm + ab.m0 + a] = v;
      }
    }
  leak[ab.si < 0 ? 0 : 1] += sum;
}

void OctantSweep::block_j_outflow(const AngleBlock& ab, int nk, int k_first, std::array<double, 6>& leak) {
  const int it = d_.it, mk = d_.mk, ls = ls_;
  const double* face = jface_.data();
  const int down = ab.sj > 0 ? d_.north : d_.south;
  if (down >= 0) {
    double* msg = send_buffer(kAxisJ);
    for (int a = 0; a < ab.na; ++a)
      for (int kp = 0; kp < nk; ++kp)
        for (int i = 0; i < it; ++i) msg[(a * mk + kp) * it + i] = face[(kp * it + i) * ls + a];
    send(kAxisJ, msg, down, tag_j(ab));
    return;
  }
  const bool store = ab.sj < 0 && p_.refl_j;
  double* dst = store ? refl_j_.data() + static_cast<std::size_t>(slot_j(ab)) * d_.kt * it * d_.mm : nullptr;
  double sum = 0.0;
  for (int a = 0; a < ab.na; ++a)
    for (int kp = 0; kp < nk; ++kp) {
      const int k = k_first + kp * ab.sk;
      for (int i = 0; i < it; ++i) {
        const double v = face[(kp * it + i) * ls + a];
        sum += ((ab.weta[a] * v) * p_.di) * p_.dk;
        if (store) dst[(static_cast<long>(k) * it + i) * d_.mm + ab.m0 + a] = v;
      }
    }
  leak[ab.sj < 0 ? 2 : 3] += sum;
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
      k_inflow(ab, leak);
      for (int kk = 1; kk <= d_.kb; ++kk) {
        const int nk = d_.block_planes(kk), k_first = d_.block_first_plane(kk, ab.sk);
        block_i_inflow(ab, kk, nk, k_first, leak);
        block_j_inflow(ab, kk, nk, k_first, leak);
        bd.nk = nk;
        bd.k_first = k_first;
        const std::int64_t work = static_cast<std::int64_t>(nk) * d_.it * d_.jt * ab.na;
        // Timed per block (never per cell): two clock reads per block.
        const double t0 = instrument::now_seconds();
        const std::int64_t nf = opt_.kernel(bd, ab);
        const double t1 = instrument::now_seconds();
        rec_.add_time(ph, t1 - t0);
        rec_.record_event(ph, t0, t1, -1, 0, work);
        res.compute_seconds += t1 - t0;
        res.nfixed += nf;
        res.cell_angles += work;
        block_i_outflow(ab, nk, k_first, leak);
        block_j_outflow(ab, nk, k_first, leak);
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
