// The calls after a kernel block, priced at the working set it streamed. See message_costs.hpp.
#include <algorithm>
#include <cstdio>
#include <optional>

#include "sweep3d/model/message_costs.hpp"

namespace sweep3d::model {

namespace {

// The figure for a `bytes` message between the small and the face size (linear in bytes).
double by_size(const instrument::loggp::ColdCosts& c, std::int64_t bytes, double small, double face) {
  if (bytes <= c.small_bytes || c.face_bytes <= c.small_bytes) return small;
  if (bytes >= c.face_bytes) return face;
  const double f = static_cast<double>(bytes - c.small_bytes) / static_cast<double>(c.face_bytes - c.small_bytes);
  return small + f * (face - small);
}

std::string us(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f us", s * 1e6);
  return b;
}

std::string mb(std::int64_t bytes) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f MB", static_cast<double>(bytes) * 1e-6);
  return b;
}

}  // namespace

double cold_receive_extra(const MachineCosts& m, std::int64_t bytes, std::int64_t working_set) {
  if (!m.cold || working_set <= 0) return 0.0;
  const auto at = m.cold->at(working_set);
  const auto& warm = m.cold->warm();
  return std::max(0.0, by_size(*m.cold, bytes, at.receive_small - warm.receive_small, at.receive_face - warm.receive_face));
}

double cold_send_extra(const MachineCosts& m, std::int64_t bytes, std::int64_t working_set) {
  if (!m.cold || working_set <= 0) return 0.0;
  const auto at = m.cold->at(working_set);
  const auto& warm = m.cold->warm();
  return std::max(0.0, by_size(*m.cold, bytes, at.send_small - warm.send_small, at.send_face - warm.send_face));
}

std::optional<instrument::loggp::RendezvousCosts> rendezvous_after_block(const MachineCosts& m, std::int64_t bytes,
                                                                         std::int64_t working_set) {
  if (!m.cold || working_set <= 0 || !m.message || !m.message(bytes).handshake) return std::nullopt;
  return m.cold->rendezvous_at(bytes, working_set);
}

MachineCosts after_kernel_blocks(const MachineCosts& m, std::int64_t block_bytes) {
  if (!m.cold || block_bytes <= 0 || !m.message) return m;
  MachineCosts c = m;
  c.message = [m, block_bytes](std::int64_t bytes) {
    MessageCosts k = m.message(bytes);
    const double r = cold_receive_extra(m, bytes, block_bytes), s = cold_send_extra(m, bytes, block_bytes);
    k.isend += s;  // the post of the request-to-send: an eager call's extra
    if (const auto rv = rendezvous_after_block(m, bytes, block_bytes)) {
      // The probe's own figures for this call (not warm + extra): what the path charges it.
      k.send = rv->send;
      k.receive = rv->receive;
      k.total_comm = rv->receive;  // a waiting receiver's call: the send's start to its return
      return k;
    }
    k.send += s;
    k.receive += r;
    k.total_comm += s + r;
    return k;
  };
  return c;
}

double cold_allreduce8(const MachineCosts& m, int nranks, std::int64_t working_set) {
  const double warm = m.allreduce ? m.allreduce(nranks, 8) : 0.0;
  if (!m.cold || working_set <= 0 || nranks < 2) return warm;
  const double warm_pair = m.allreduce ? m.allreduce(2, 8) : 0.0;
  return m.cold->at(working_set).allreduce8 + std::max(0.0, warm - warm_pair);
}

std::optional<AllreducePair> allreduce8_after_stream(const MachineCosts& m, int nranks, double interval,
                                                     std::int64_t working_set) {
  if (!m.after_stream || interval <= 0.0 || nranks < 2) return std::nullopt;
  const double warm = m.allreduce ? m.allreduce(nranks, 8) : 0.0;
  const double warm_pair = m.allreduce ? m.allreduce(2, 8) : 0.0;
  const double more_ranks = std::max(0.0, warm - warm_pair);
  const auto at = m.after_stream->at(interval, working_set);
  return AllreducePair{at.first + more_ranks, at.second + more_ranks};
}

std::string describe_allreduce_after_stream(const MachineCosts& m, double interval, int messages_in_a_row,
                                            std::int64_t working_set) {
  if (!m.after_stream) return "";
  char b[64];
  std::snprintf(b, sizeof b, "%.2f ms", interval * 1e3);
  const auto at = m.after_stream->at(interval, working_set);
  const bool streamed = !m.after_stream->working_sets.empty() && working_set > 0;
  const std::string compute =
      streamed ? ", the ranks streaming " + mb(working_set) + " each"
               : (m.after_stream->working_sets.empty()
                      ? ", ranks spinning (no streaming figures in the machine file: " + std::string(kNoColdWhy) + ")"
                      : ", ranks spinning (working set unknown)");
  return "first allreduce after the sweeps' one-way stream (" + std::to_string(messages_in_a_row) +
         " messages in a row at the end), " + b + " after the previous reductions" + compute + " = " + us(at.first) +
         ", the second " + us(at.second) +
         " (loggps-probe after_stream: the cost follows that interval and the working set, not the count)" +
         (m.after_stream->operations == instrument::loggp::kAfterStreamOperations
              ? std::string()
              : std::string("; an earlier probe's series, two double sums, ~1.4x below the sweep's pair of "
                            "reductions: measure the machine file again"));
}

std::string describe_cold_allreduce(const MachineCosts& m, std::int64_t working_set) {
  if (!m.cold) return "no cold figures in the machine file (" + std::string(kNoColdWhy) + "): warm LogGP allreduce";
  if (working_set <= 0) return "working set unknown: warm LogGP allreduce";
  return "cold allreduce8 after " + mb(working_set) + " streamed = " + us(m.cold->at(working_set).allreduce8) +
         " (loggps-probe)";
}

std::string describe_cold_messages(const MachineCosts& m, std::int64_t bytes, std::int64_t working_set) {
  if (!m.cold) return "no cold figures in the machine file (" + std::string(kNoColdWhy) + "): warm LogGP messages";
  if (working_set <= 0) return "working set unknown: warm LogGP messages";
  const std::string face = "face " + std::to_string(bytes) + " B";
  // A file of an earlier probe, whose working sets went one repetition at a time (loggp_cold.hpp,
  // loggp.cold.order): its points past the L2 read high. The apps measure a cached one again;
  // one given with --machine is used, and the row says so.
  const std::string earlier = m.cold->order.empty()
                                  ? "; an earlier probe's points, its working sets one repetition at a time, ~1.15x "
                                    "high past the L2 (loggp.cold.order)"
                                  : "";
  if (const auto rv = rendezvous_after_block(m, bytes, working_set))
    return face + " above the eager limit, after a block (" + mb(working_set) + " streamed): Send " + us(rv->send) +
           ", Receive " + us(rv->receive) + ", Total_Comm = T_msg = the Receive (loggps-probe cold rendezvous: each "
           "call from its partner's arrival" + earlier + ")";
  const bool handshake = m.message && m.message(bytes).handshake;
  return (handshake ? face + " above the eager limit, no cold rendezvous figures in the machine file (an earlier "
                             "loggps-probe): warm LogGP Send/Receive plus the eager face's extras; "
                    : std::string()) +
          "after a block (" + mb(working_set) + " streamed): receive +" + us(cold_receive_extra(m, bytes, working_set)) +
         ", send +" + us(cold_send_extra(m, bytes, working_set)) + " (loggps-probe, cold - warm" + earlier + ")";
}

}  // namespace sweep3d::model
