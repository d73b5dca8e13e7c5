#include "tycho/model/machine_comm.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "instrument/loggp.hpp"
#include "instrument/machine_file.hpp"

namespace tycho::model {

CommCost comm_cost_from_loggps(const instrument::loggps::LogGpsParams& params) {
  return [params](std::int64_t bytes) {
    if (bytes < 0) throw std::invalid_argument("T_comm: negative message size " + std::to_string(bytes));
    // The receiver is waiting (t_r - t_s = 0): eq. 7's measurement, half a ping-pong.
    return instrument::loggps::communication_cost(params, bytes, 0.0);
  };
}

instrument::loggps::LogGpsParams read_checked_loggps(const instrument::MachineFile& file) {
  file.require_finite_parameters();
  for (const std::string& key : file.keys())
    if (key.rfind("loggp.", 0) == 0) {
      (void)instrument::loggp::read_params(file);  // validates the set sweep3d would read
      break;
    }
  return instrument::loggps::read_params(file);
}

CommCost comm_cost_from_machine(const instrument::MachineFile& file) {
  return comm_cost_from_loggps(read_checked_loggps(file));
}

std::optional<instrument::loggp::LogGpParams> read_loggp_if_any(const instrument::MachineFile& file) {
  for (const std::string& key : file.keys())
    if (key.rfind("loggp.", 0) == 0) return instrument::loggp::read_params(file);
  return std::nullopt;
}

double PathMessagePrice::send_call(std::int64_t k) const {
  if (!loggp) return instrument::loggps::T1(loggps, k) + bsend_extra(k);
  const double o = instrument::loggp::band_for(*loggp, k).o;
  // A buffered send never waits for its receiver: above the handshake size it copies the
  // bytes out and returns.
  return (instrument::loggp::has_handshake(*loggp, k) ? o + instrument::loggp::transfer_time(*loggp, k) : o) +
         bsend_extra(k);
}

double PathMessagePrice::bsend_extra(std::int64_t k) const {
  return bsend_priced ? bsend_s_per_call + static_cast<double>(k) * bsend_s_per_byte : 0.0;
}

double PathMessagePrice::receive_call(std::int64_t k) const {
  return loggp ? instrument::loggp::receive_cost(*loggp, k) : instrument::loggps::T3(loggps, k);
}

double PathMessagePrice::unpack(double bytes) const {
  if (!unpack_priced || bytes <= 0) return 0.0;
  return bytes / record_bytes * unpack_s_per_record + (unpack_message_priced ? unpack_s_per_message : 0.0);
}

std::string PathMessagePrice::describe(std::int64_t k) const {
  char s[400];
  std::snprintf(s, sizeof s, "%s at %lld B: send call %.3g us + receive call %.3g us",
                loggp ? "LogGP o of the size's band (loggp.*, eq. 3a, 3b)" : "LogGPS T1, T3 (loggps.*)",
                static_cast<long long>(k), send_call(k) * 1e6, receive_call(k) * 1e6);
  std::string text = s;
  if (unpack_priced) {
    std::snprintf(s, sizeof s, " + %.3g records x T_unpack %.3g us", static_cast<double>(k) / record_bytes,
                  unpack_s_per_record * 1e6);
    text += s;
    if (unpack_message_priced) {
      std::snprintf(s, sizeof s, " + T_unpack a message %.3g us", unpack_s_per_message * 1e6);
      text += s;
    } else {
      text += " (a message's fixed part not measured)";
    }
    if (!unpack_source.empty()) text += " (" + unpack_source + ")";
  } else {
    text += "; the unpack is not priced (no calibration file with /tycho/calibration/unpack_s_per_record; without "
            "--calibration, this run's own out of range)";
  }
  if (bsend_priced) {
    std::snprintf(s, sizeof s, "; the send call holds MPI_Bsend's extra %.3g us (%.3g us a call + %.3g ns a byte)",
                  bsend_extra(k) * 1e6, bsend_s_per_call * 1e6, bsend_s_per_byte * 1e9);
    text += s;
    if (!bsend_source.empty()) text += " (" + bsend_source + ")";
  } else {
    text += "; MPI_Bsend's extra is not priced (no calibration file with /tycho/calibration/bsend_extra_s_per_call; "
            "without --calibration, this run's own out of range)";
  }
  return text;
}

bool PathMessagePrice::waiting_priced(std::int64_t k) const {
  return pending && pending_buffered && k <= pending->largest_bytes();
}

double PathMessagePrice::send_call_waiting(std::int64_t k) const {
  return waiting_priced(k) ? pending->at(k).bsend_pending : send_call(k);
}

double PathMessagePrice::receive_call_waiting(std::int64_t k) const {
  return waiting_priced(k) ? pending->at(k).receive_pending : receive_call(k);
}

std::string PathMessagePrice::describe_waiting(std::int64_t k, double waiting, double sends) const {
  char s[400];
  if (!pending) return "; a send that finds the peer's message waiting is priced as any (no loggp.pending.* keys)";
  if (!pending_buffered)
    return "; a send that finds the peer's message waiting is priced as any (MPI_Isend: loggp.pending.* times "
           "MPI_Send and MPI_Bsend)";
  if (!waiting_priced(k)) {
    std::snprintf(s, sizeof s, "; at %lld B, above loggp.pending's largest size %lld B, a waiting message is priced as none",
                  static_cast<long long>(k), static_cast<long long>(pending->largest_bytes()));
    return s;
  }
  std::snprintf(s, sizeof s,
                "; %.3g%% of sends find the peer's message waiting (1 - 2^-receives of a step's first send): "
                "MPI_Bsend %.3g us + receive %.3g us there (loggp.pending at %lld B; nothing waiting: "
                "MPI_Bsend %.3g us, receive %.3g us)",
                sends > 0 ? 100.0 * waiting / sends : 0.0, send_call_waiting(k) * 1e6, receive_call_waiting(k) * 1e6,
                static_cast<long long>(k), pending->at(k).bsend_plain * 1e6, pending->at(k).receive_plain * 1e6);
  return s;
}

namespace {

void check_price(const PathMessagePrice& price) {
  if (!(price.record_bytes > 0) || !std::isfinite(price.record_bytes))
    throw std::invalid_argument("T_msg: bytes per face record must be > 0, got " + std::to_string(price.record_bytes));
  if (!std::isfinite(price.unpack_s_per_record) || price.unpack_s_per_record < 0)
    throw std::invalid_argument("T_msg: T_unpack must be finite and >= 0, got " +
                                std::to_string(price.unpack_s_per_record));
  for (const double v : {price.unpack_s_per_message, price.bsend_s_per_call, price.bsend_s_per_byte})
    if (!std::isfinite(v) || v < 0)
      throw std::invalid_argument("T_msg: T_unpack a message and MPI_Bsend's extra must be finite and >= 0, got " +
                                  std::to_string(v));
}

}  // namespace

CommCost path_message_cost(const PathMessagePrice& price) {
  check_price(price);
  return [price](std::int64_t bytes) {
    if (bytes < 0) throw std::invalid_argument("T_msg: negative message size " + std::to_string(bytes));
    return price.send_call(bytes) + price.receive_call(bytes) + price.unpack(static_cast<double>(bytes));
  };
}

CommCost path_message_cost_waiting(const PathMessagePrice& price) {
  check_price(price);
  return [price](std::int64_t bytes) {
    if (bytes < 0) throw std::invalid_argument("T_msg: negative message size " + std::to_string(bytes));
    return price.send_call_waiting(bytes) + price.receive_call_waiting(bytes) + price.unpack(static_cast<double>(bytes));
  };
}

}  // namespace tycho::model
