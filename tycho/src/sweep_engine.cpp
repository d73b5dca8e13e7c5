// The step loop and the tasks of the parallel sweep (sweep_engine.hpp); the messages are in
// sweep_messages.cpp.
#include "tycho/sweep_engine.hpp"

#include <algorithm>
#include <cstring>

#include <omp.h>

#include "instrument/clock.hpp"
#include "instrument/huge_pages.hpp"
#include "ready_queue.hpp"
#include "tycho/cell_solve.hpp"
#include "tycho/sweep_phases.hpp"

namespace tycho {

namespace {

double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// A vacuum face's inflow, read with stride 0 for every group.
constexpr double kZeros[3] = {0.0, 0.0, 0.0};

}  // namespace

SweepEngine::SweepEngine(const SweepPlan& plan, const Problem& problem, const SweepOptions& options,
                         MPI_Comm comm, instrument::Recorder& recorder)
    : plan_(plan),
      problem_(problem),
      cells_(static_cast<std::uint32_t>(plan.cells.size())),  // < 2^32: make_sweep_plan's task limit
      options_(options),
      comm_(comm),
      recorder_(recorder) {
  sweep_phase_ = recorder.define_phase(phase::kSweep);
  compute_phase_ = recorder.define_phase(phase::kCompute);
  send_phase_ = recorder.define_phase(phase::kSend);
  receive_phase_ = recorder.define_phase(phase::kReceive);
  message_send_phase_ =
      recorder.define_phase(options.nonblocking ? instrument::comm_phase::kIsend : instrument::comm_phase::kSend);
  message_receive_phase_ = recorder.define_phase(instrument::comm_phase::kRecv);
  const std::size_t G = static_cast<std::size_t>(plan.groups);
  const std::size_t D = static_cast<std::size_t>(plan.directions);
  psi_.resize(plan.tasks() * G * 4, instrument::AlignedBuffer::Pages::huge);
  q_.resize(plan.cells.size() * G * 4);
  ghost_.assign(plan.remote_faces.size() * D * G * 3, 0.0);
  lag_cur_.assign(plan.lag_slot.size() * G * 3, 0.0);
  lag_next_.assign(plan.lag_slot.size() * G * 3, 0.0);
  ready_ = std::make_unique<ReadyQueueImpl>(plan.priority_scheme == Priority::fifo, plan.priority_levels, plan.tasks());
  batch_.reserve(static_cast<std::size_t>(std::min<std::int64_t>(options.mcps, static_cast<std::int64_t>(plan.tasks()) + 1)));
  outflow_.reserve(batch_.capacity());
  downwind_.reserve(3 * batch_.capacity());  // a task has at most 3 outflow faces
  outgoing_.resize(plan.peers.size());
  recv_requests_.assign(plan.peers.size(), MPI_REQUEST_NULL);
  recv_buffers_.resize(plan.peers.size());
  received_from_.assign(plan.peers.size(), 0);
  const std::size_t record_bytes = plan.record_doubles() * sizeof(double);
  if (options.nonblocking) {
    // The largest message from a peer: a step's tasks each send at most 3 outflow faces.
    for (std::size_t p = 0; p < plan.peers.size(); ++p) {
      const std::int64_t cap = std::min<std::int64_t>(plan.records_from[p], 3 * options.mcps);
      recv_buffers_[p].resize(static_cast<std::size_t>(cap) * plan.record_doubles());
    }
  } else {
    // Room for a whole sweep's records, each in its own message: MPI_Bsend never blocks.
    std::int64_t records = 0;
    for (std::int64_t n : plan.records_to) records += n;
    const std::size_t bytes = static_cast<std::size_t>(records) * (record_bytes + MPI_BSEND_OVERHEAD) * 2 + 4096;
    bsend_buffer_.resize(bytes);
    if (records > 0) MPI_Buffer_attach(bsend_buffer_.data(), static_cast<int>(std::min<std::size_t>(bytes, 0x7FFFFFFF)));
  }
}

SweepEngine::~SweepEngine() {
  if (!bsend_buffer_.empty()) {
    void* buffer = nullptr;
    int size = 0;
    std::int64_t records = 0;
    for (std::int64_t n : plan_.records_to) records += n;
    if (records > 0) MPI_Buffer_detach(&buffer, &size);
  }
}

void SweepEngine::prefetch_task(std::uint32_t t) const {
  const std::size_t G = static_cast<std::size_t>(plan_.groups);
  const std::size_t d = direction_of(t), i = t - d * plan_.cells.size();
  const auto lines = [](const void* p, std::size_t bytes, int write) {
    const char* c = static_cast<const char*>(p);
    for (std::size_t b = 0; b < bytes; b += instrument::AlignedBuffer::alignment)
      write ? __builtin_prefetch(c + b, 1) : __builtin_prefetch(c + b, 0);
  };
  lines(&plan_.tets[i], sizeof(LdTet), 0);
  lines(&plan_.links[i], sizeof(plan_.links[i]), 0);
  lines(&q_[i * G * 4], G * 4 * sizeof(double), 0);
  lines(&psi_[psi_offset(i, d)], G * 4 * sizeof(double), 1);
}

void SweepEngine::prefetch_inflow(std::uint32_t t) const {
  const std::size_t d = direction_of(t), i = t - d * plan_.cells.size();
  // Every local neighbour, not only the upwind ones: telling them apart would cost the
  // face flows' dot products here as well; a downwind neighbour's line is needed soon anyway.
  for (const FaceLink& link : plan_.links[i])
    if (link.kind == LinkKind::local) __builtin_prefetch(&psi_[psi_offset(link.neighbour, d)], 0);
}

template <std::size_t kGroups>
void SweepEngine::solve_tasks(std::size_t begin, std::size_t end) {
  for (std::size_t b = begin; b < end; ++b) {
    if (b + kPrefetchAhead < end) prefetch_task(batch_[b + kPrefetchAhead]);
    if (b + kInflowAhead < end) prefetch_inflow(batch_[b + kInflowAhead]);
    outflow_[b] = solve_task<kGroups>(batch_[b]);
  }
}

void SweepEngine::solve_batch(std::size_t begin, std::size_t end) {
  switch (plan_.groups) {
    case 1: solve_tasks<1>(begin, end); break;
    case 2: solve_tasks<2>(begin, end); break;
    default: solve_tasks<0>(begin, end); break;
  }
}

template <std::size_t kGroups>
std::uint8_t SweepEngine::solve_task(std::uint32_t t) {
  const std::size_t D = static_cast<std::size_t>(plan_.directions);
  const std::size_t G = kGroups != 0 ? kGroups : static_cast<std::size_t>(plan_.groups);
  const std::size_t d = direction_of(t), i = t - d * plan_.cells.size();
  const LdTet& tet = plan_.tets[i];
  const Vec3& omega = problem_.quadrature.omega[d];
  const MaterialData& mat = plan_.materials[plan_.material_slot[i]];
  const std::array<FaceLink, 4>& links = plan_.links[i];
  const std::uint8_t lagged = plan_.lagged_mask[t];
  // Where each inflow face's values are: a pointer to group 0's three values in face node
  // order and the stride to the next group, or none (vacuum).
  const double* from[4] = {nullptr, nullptr, nullptr, nullptr};
  std::size_t stride[4] = {0, 0, 0, 0};
  std::array<std::array<std::uint8_t, 3>, 4> pick{};  // for a local upwind cell: its node of each face node
  std::uint8_t outflow = 0;
  for (std::size_t f = 0; f < 4; ++f) {
    const FaceLink& link = links[f];
    const double flow = dot(omega, tet.area_normal[f]);
    outflow = static_cast<std::uint8_t>(outflow | (flow > 0 ? 1u << f : 0u));
    if (!(flow < 0)) continue;
    if (link.kind == LinkKind::boundary) {  // vacuum
      from[f] = kZeros;
      pick[f] = {0, 1, 2};
    } else if (lagged & (1u << f)) {
      const std::uint32_t slot = plan_.lag_slot.at(std::uint64_t{link.face} * D + d);
      from[f] = &lag_cur_[slot * G * 3];
      stride[f] = 3;
      pick[f] = {0, 1, 2};
    } else if (link.kind == LinkKind::local) {
      from[f] = &psi_[psi_offset(link.neighbour, d)];
      stride[f] = 4;
      pick[f] = link.neighbour_nodes;
    } else {
      from[f] = &ghost_[(link.neighbour * D + d) * G * 3];
      stride[f] = 3;
      pick[f] = {0, 1, 2};
    }
  }
  // Inflow values gathered once per task: [face][group][3], face node order.
  double inflow[4 * kMaxGroups * 3];
  for (std::size_t f = 0; f < 4; ++f) {
    if (from[f] == nullptr) continue;  // an outflow face: not read
    for (std::size_t g = 0; g < G; ++g) {
      const double* v = from[f] + g * stride[f];
      double* to = &inflow[(f * G + g) * 3];
      to[0] = v[pick[f][0]];
      to[1] = v[pick[f][1]];
      to[2] = v[pick[f][2]];
    }
  }
  double* psi = &psi_[psi_offset(i, d)];
  const double* qc = &q_[i * G * 4];
  if (problem_.scheme == Scheme::linear_discontinuous) {
    solve_cell_ld_groups(tet, omega, plan_.groups, mat.sigma_t.data(), qc, inflow, psi);
    return outflow;
  }
  FaceValues face{};
  NodeValues q, out;
  for (std::size_t g = 0; g < G; ++g) {
    for (std::size_t f = 0; f < 4; ++f)
      for (std::size_t k = 0; k < 3; ++k) face[f][k] = inflow[(f * G + g) * 3 + k];
    for (std::size_t n = 0; n < 4; ++n) q[n] = qc[g * 4 + n];
    solve_cell_step(tet, omega, mat.sigma_t[g], q, face, out);
    for (std::size_t n = 0; n < 4; ++n) psi[g * 4 + n] = out[n];
  }
  return outflow;
}

void SweepEngine::release_task(std::uint32_t t, std::uint8_t outflow, std::vector<double>& leakage) {
  const std::size_t D = static_cast<std::size_t>(plan_.directions);
  const std::size_t G = static_cast<std::size_t>(plan_.groups);
  const std::size_t d = direction_of(t), i = t - d * plan_.cells.size();
  const LdTet& tet = plan_.tets[i];
  const Vec3& omega = problem_.quadrature.omega[d];
  const double* psi = &psi_[psi_offset(i, d)];
  for (unsigned faces = outflow; faces != 0; faces &= faces - 1) {
    const std::size_t f = static_cast<std::size_t>(__builtin_ctz(faces));
    const FaceLink& link = plan_.links[i][f];
    const auto& nodes = tet.face_nodes[f];
    switch (link.kind) {
      case LinkKind::boundary: {
        const double w = problem_.quadrature.weight[d] * dot(omega, tet.area_normal[f]) / 3;
        for (std::size_t g = 0; g < G; ++g)
          leakage[g] += w * (psi[g * 4 + nodes[0]] + psi[g * 4 + nodes[1]] + psi[g * 4 + nodes[2]]);
        break;
      }
      case LinkKind::local: {
        const std::size_t down = plan_.task(link.neighbour, d);
        if (!plan_.lag_slot.empty() && (plan_.lagged_mask[down] & (1u << link.neighbour_face))) {
          double* to = &lag_next_[plan_.lag_slot.at(std::uint64_t{link.face} * D + d) * G * 3];
          for (std::size_t g = 0; g < G; ++g)
            for (std::size_t k = 0; k < 3; ++k) to[g * 3 + k] = psi[g * 4 + nodes[k]];
        } else {
          downwind_.push_back(static_cast<std::uint32_t>(down));
        }
        break;
      }
      case LinkKind::remote: {
        const int p = plan_.peer_index(plan_.remote_faces[link.neighbour].peer);
        std::vector<double>& out = outgoing_[static_cast<std::size_t>(p)];
        const std::uint32_t key[2] = {link.face, static_cast<std::uint32_t>(d)};
        double head;
        std::memcpy(&head, key, sizeof head);
        out.push_back(head);
        for (std::size_t g = 0; g < G; ++g)
          for (std::size_t k = 0; k < 3; ++k) out.push_back(psi[g * 4 + nodes[k]]);
        break;
      }
    }
  }
}

void SweepEngine::satisfy_downwind() {
  const std::size_t n = downwind_.size();
  for (std::size_t k = 0; k < n; ++k) {
    if (k + kSatisfyAhead < n) ready_->prefetch(downwind_[k + kSatisfyAhead]);
    ready_->satisfy(downwind_[k]);
  }
}

void SweepEngine::make_history_room(RankHistory& history) const {
  // Grown and first touched inside the sweep, ~0.8 us a step on the PVM guest: 8% of a
  // 1-rank sweep of cube-4128 at MCPS 64, 70% at MCPS 1 (reallocations' copies, fresh pages).
  const std::size_t mcps = static_cast<std::size_t>(
      std::min<std::int64_t>(options_.mcps, static_cast<std::int64_t>(plan_.tasks()) + 1));
  const std::size_t steps = last_steps_ > 0 ? last_steps_ : (plan_.tasks() + mcps - 1) / mcps;
  instrument::make_room_huge(history.steps, steps + steps / 4 + 64);
  // Before the first sweep: a send and a receive a step per peer at most, and at most a
  // message a record.
  std::size_t messages = last_messages_;
  if (last_steps_ == 0)
    for (std::size_t p = 0; p < plan_.peers.size(); ++p)
      messages += std::min(steps, static_cast<std::size_t>(plan_.records_to[p])) +
                  std::min(steps, static_cast<std::size_t>(plan_.records_from[p]));
  if (messages > 0) instrument::make_room_huge(history.messages, messages + messages / 4 + 64);
  // The trace, when the models run: an event a step (its compute) and one a message.
  const std::size_t events = steps + messages;
  if (recorder_.tracing()) recorder_.touch_trace_room(events + events / 4 + 64);
}

void SweepEngine::sweep(std::int32_t iteration, RankHistory& history, std::vector<double>& leakage) {
  const std::size_t steps_before = history.steps.size(), messages_before = history.messages.size();
  recorder_.begin(sweep_phase_);
  std::swap(lag_cur_, lag_next_);
  done_ = 0;
  received_ = 0;
  std::fill(received_from_.begin(), received_from_.end(), 0);
  if (options_.nonblocking)
    for (std::size_t p = 0; p < plan_.peers.size(); ++p)
      if (plan_.records_from[p] > 0)
        MPI_Irecv(recv_buffers_[p].data(), static_cast<int>(recv_buffers_[p].size() * sizeof(double)), MPI_BYTE,
                  plan_.peers[p], kRecordTag, comm_, &recv_requests_[p]);
  const std::size_t mcps = static_cast<std::size_t>(options_.mcps);
  const instrument::ClockConversion& conv = instrument::provisional_conversion();
  instrument::Ticks solve_ticks = 0;
  // The ready queue's reset (every task's count of inputs, 16 B a task) is work a task, so it
  // is the first step's compute and in T_elem: outside every step it was a per-sweep cost the
  // models did not price, or spread over the steps as T_step, a figure that then grew with
  // MCPS.
  const instrument::Ticks reset_start = instrument::now_ticks();
  ready_->reset(plan_.in_degree, plan_.priority);
  for (std::int32_t step = 0; !sweep_over(); ++step) {
    StepRecord rec;
    rec.iteration = iteration;
    rec.step = step;
    const instrument::Ticks t0 = step == 0 ? reset_start : instrument::now_ticks();
    batch_.clear();
    while (batch_.size() < mcps && !ready_->empty()) batch_.push_back(ready_->pop());
    const std::int64_t n = static_cast<std::int64_t>(batch_.size());
    outflow_.resize(batch_.size());  // no allocation: reserved as batch_ is
    const instrument::Ticks t_chosen = instrument::now_ticks();
    if (options_.threads > 1 && n > 1) {
      // Each thread a contiguous share, so its prefetches run ahead of its own tasks.
#pragma omp parallel num_threads(options_.threads)
      {
        const std::int64_t k = omp_get_thread_num(), T = omp_get_num_threads();
        solve_batch(static_cast<std::size_t>(n * k / T), static_cast<std::size_t>(n * (k + 1) / T));
      }
    } else {
      // Outside an OpenMP region: an outlined loop body reloads the engine's members for
      // every task (measured 129 vs 111 ns per cell-angle-group on cube-10717).
      solve_batch(0, batch_.size());
    }
    const instrument::Ticks t_solved = instrument::now_ticks();
    downwind_.clear();
    for (std::size_t b = 0; b < batch_.size(); ++b) release_task(batch_[b], outflow_[b], leakage);
    satisfy_downwind();
    done_ += batch_.size();
    rec.work = n;
    const instrument::Ticks t1 = instrument::now_ticks();
    send_step(iteration, step, rec, history);
    const instrument::Ticks t2 = instrument::now_ticks();
    receive_step(iteration, step, ready_->empty() && !sweep_over(), rec, history);
    const instrument::Ticks t3 = instrument::now_ticks();
    recorder_.add_ticks(compute_phase_, t1 - t0);
    recorder_.add_ticks(send_phase_, t2 - t1);
    recorder_.add_ticks(receive_phase_, t3 - t2);
    if (recorder_.tracing()) recorder_.record_interval(compute_phase_, t0, t1, -1, 0, n);
    rec.compute_s = conv.seconds(t1 - t0);
    solve_ticks += t_solved - t_chosen;
    rec.send_s = conv.seconds(t2 - t1);
    rec.receive_s = conv.seconds(t3 - t2);
    history.steps.push_back(rec);
  }
  finish_sends();
  gather_solve_s_ = conv.seconds(solve_ticks);
  recorder_.end(sweep_phase_, static_cast<std::int64_t>(plan_.tasks()));
  last_steps_ = history.steps.size() - steps_before;
  last_messages_ = history.messages.size() - messages_before;
}

}  // namespace tycho
