// The sweep's messages (sweep_engine.hpp): one per downwind rank per step, received as they
// come, and the stall guard.
#include <algorithm>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "instrument/clock.hpp"
#include "face_records_unpack.hpp"
#include "ready_queue.hpp"
#include "tycho/sweep_engine.hpp"

namespace tycho {

void SweepEngine::send_step(std::int32_t iteration, std::int32_t step, StepRecord& rec, RankHistory& history) {
  if (options_.nonblocking && !send_requests_.empty()) {
    // Reclaim the buffers of sends that have completed.
    int flag = 0;
    for (std::size_t k = 0; k < send_requests_.size();) {
      MPI_Test(&send_requests_[k], &flag, MPI_STATUS_IGNORE);
      if (flag) {
        spare_buffers_.push_back(std::move(send_buffers_[k]));
        send_buffers_[k] = std::move(send_buffers_.back());
        send_buffers_.pop_back();
        send_requests_[k] = send_requests_.back();
        send_requests_.pop_back();
      } else {
        ++k;
      }
    }
  }
  for (std::size_t p = 0; p < outgoing_.size(); ++p) {
    std::vector<double>& out = outgoing_[p];
    if (out.empty()) continue;
    const std::int64_t bytes = static_cast<std::int64_t>(out.size() * sizeof(double));
    const int peer = plan_.peers[p];
    const instrument::Ticks called = recorder_.tracing() ? instrument::now_ticks() : 0;
    if (options_.nonblocking) {
      MPI_Request r;
      MPI_Isend(out.data(), static_cast<int>(bytes), MPI_BYTE, peer, kRecordTag, comm_, &r);
      send_requests_.push_back(r);
      send_buffers_.push_back(std::move(out));
      out = std::vector<double>();
      if (!spare_buffers_.empty()) {
        out = std::move(spare_buffers_.back());
        spare_buffers_.pop_back();
      }
      out.clear();
    } else {
      MPI_Bsend(out.data(), static_cast<int>(bytes), MPI_BYTE, peer, kRecordTag, comm_);
      out.clear();
    }
    if (recorder_.tracing())
      recorder_.record_interval(message_send_phase_, called, instrument::now_ticks(), peer, bytes, 0, kRecordTag);
    ++rec.sends;
    rec.send_bytes += bytes;
    history.messages.push_back(MessageRecord{iteration, step, peer, bytes, true});
  }
}

void SweepEngine::finish_sends() {
  if (send_requests_.empty()) return;
  MPI_Waitall(static_cast<int>(send_requests_.size()), send_requests_.data(), MPI_STATUSES_IGNORE);
  for (auto& b : send_buffers_) spare_buffers_.push_back(std::move(b));
  send_buffers_.clear();
  send_requests_.clear();
}

void SweepEngine::unpack(const double* records, std::size_t count) {
  unpack_face_records(plan_, records, count, ghost_, lag_next_, *ready_);  // the calibration times the same
  received_ += static_cast<std::int64_t>(count);
}

void SweepEngine::receive_message(int source, std::size_t bytes, std::int32_t iteration, std::int32_t step,
                                  StepRecord& rec, RankHistory& history) {
  ++rec.receives;
  rec.receive_bytes += static_cast<std::int64_t>(bytes);
  history.messages.push_back(MessageRecord{iteration, step, source, static_cast<std::int64_t>(bytes), false});
  const int p = plan_.peer_index(source);
  if (p >= 0) received_from_[static_cast<std::size_t>(p)] += static_cast<std::int64_t>(bytes / (plan_.record_doubles() * sizeof(double)));
}

void SweepEngine::receive_step(std::int32_t iteration, std::int32_t step, bool must_wait, StepRecord& rec,
                               RankHistory& history) {
  // Every record of this sweep is in: at P > 1 nothing is left to look for (a probe that found
  // nothing and the stall clock's read, ~43 ns a step on AMD EPYC Zen 5). At one rank, where
  // there are none, a blocking-mode step still makes that one empty probe (a non-blocking one
  // has no request to test: a clock read), so that T_step measured there
  // (tycho/model/measured_path.hpp, results_calibration.hpp) prices the empty probes that the
  // steps at P > 1 make until their last record is in. (Once it is, a step that sends nothing
  // makes no MPI call: a library without background progress moves a neighbour's pending
  // rendezvous send on at this rank's next send or the allreduce after the sweep; a delay,
  // never a deadlock.) Nothing ready then is nothing ever: the tasks left can never be ready.
  if (received_ == plan_.records_in) {
    if (must_wait) stalled();
    if (plan_.records_in > 0) return;
  }
  const std::size_t width_bytes = plan_.record_doubles() * sizeof(double);
  double start = instrument::now_seconds();
  // Traced: each message from when the rank began looking for it to its records unpacked
  // (tycho/sweep_phases.hpp); the critical path charges only what follows its send's start.
  instrument::Ticks looking_since = recorder_.tracing() ? instrument::now_ticks() : 0;
  auto trace_received = [&](int source, int bytes) {
    if (!recorder_.tracing()) return;
    const instrument::Ticks now = instrument::now_ticks();
    recorder_.record_interval(message_receive_phase_, looking_since, now, source, bytes, 0, kRecordTag);
    looking_since = now;
  };
  for (;;) {
    bool got = false;
    if (options_.nonblocking) {
      for (std::size_t p = 0; p < plan_.peers.size(); ++p) {
        if (recv_requests_[p] == MPI_REQUEST_NULL) continue;
        int flag = 0;
        MPI_Status status;
        MPI_Test(&recv_requests_[p], &flag, &status);
        if (!flag) continue;
        int bytes = 0;
        MPI_Get_count(&status, MPI_BYTE, &bytes);
        const std::size_t n = static_cast<std::size_t>(bytes) / width_bytes;
        receive_message(plan_.peers[p], static_cast<std::size_t>(bytes), iteration, step, rec, history);
        unpack(recv_buffers_[p].data(), n);
        trace_received(plan_.peers[p], bytes);
        if (received_from_[p] < plan_.records_from[p])
          MPI_Irecv(recv_buffers_[p].data(), static_cast<int>(recv_buffers_[p].size() * sizeof(double)), MPI_BYTE,
                    plan_.peers[p], kRecordTag, comm_, &recv_requests_[p]);
        got = true;
      }
    } else {
      for (;;) {
        int flag = 0;
        MPI_Status status;
        MPI_Iprobe(MPI_ANY_SOURCE, kRecordTag, comm_, &flag, &status);
        if (!flag) break;
        int bytes = 0;
        MPI_Get_count(&status, MPI_BYTE, &bytes);
        const std::size_t n = static_cast<std::size_t>(bytes) / width_bytes;
        probe_buffer_.resize(n * plan_.record_doubles());
        MPI_Recv(probe_buffer_.data(), bytes, MPI_BYTE, status.MPI_SOURCE, kRecordTag, comm_, MPI_STATUS_IGNORE);
        receive_message(status.MPI_SOURCE, static_cast<std::size_t>(bytes), iteration, step, rec, history);
        unpack(probe_buffer_.data(), n);
        trace_received(status.MPI_SOURCE, bytes);
        got = true;
      }
    }
    // Received what there was; wait on only while nothing is ready and the sweep goes on
    // (a record that readies nothing, a lagged one, is progress but no reason to step).
    if (!must_wait || sweep_over() || !ready_->empty()) return;
    if (got) start = instrument::now_seconds();
    else if (instrument::now_seconds() - start > options_.stall_seconds) stalled();
  }
}

void SweepEngine::stalled() const {
  std::ostringstream s;
  s << "tycho sweep: no progress ";
  if (received_ == plan_.records_in) s << "(every face record in)";
  else s << "for " << options_.stall_seconds << " s";
  s << " on rank " << plan_.rank << ": " << plan_.tasks() - done_ << " of " << plan_.tasks()
    << " tasks left, none ready; ";
  if (received_ == plan_.records_in) {
    s << "no face record to come: their inputs can never all arrive (a bad plan)";
  } else {
    s << "waiting for " << plan_.records_in - received_ << " face records (";
    for (std::size_t p = 0; p < plan_.peers.size(); ++p)
      s << (p ? ", " : "") << plan_.records_from[p] - received_from_[p] << " from rank " << plan_.peers[p];
    s << ")";
  }
  throw std::runtime_error(s.str());
}

}  // namespace tycho
