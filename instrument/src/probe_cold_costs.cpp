// The cold-message and after-stream measurements as machine-file keys (probe_cold_costs.hpp:
// what each function decides). Moved from loggps-probe, which alone wrote them until the apps'
// short probe did too.
#include "instrument/probe_cold_costs.hpp"

#include <string>
#include <vector>

namespace instrument::probe {

namespace {

// A cold point is a measurement when at least kMinAsIntended of its allreduces had the ranks
// arriving as intended (a loaded host deschedules them during long streams).
bool measured(const ColdPoint& p) { return p.allreduce_kept >= kMinAsIntended; }

std::string not_measured(const ColdPoint& p) {
  return std::to_string(p.working_set_bytes) + " B (only " + std::to_string(p.allreduce_kept) + " of " +
         std::to_string(p.allreduce_reps) + " allreduces had rank 1 arriving about 20 us after rank 0)";
}

}  // namespace

std::string after_stream_problem(const AfterStreamMeasurement& a) {
  for (const auto& p : a.points)
    if (p.kept == 0)
      return std::to_string(p.messages) + " messages (fewer than " + std::to_string(kMinAsIntended) + " of " +
             std::to_string(p.made) + " repetitions had rank 1 arriving after rank 0)";
  for (std::size_t i = 1; i < a.points.size(); ++i)
    if (a.points[i].interval <= a.points[i - 1].interval) return "intervals not increasing with the message count";
  return "";
}

// The intervals are the spinning series': the compute is timed by the clock either way.
loggp::AfterStream after_stream_costs(const std::vector<AfterStreamMeasurement>& streams, std::string& dropped) {
  const auto& a = streams.front();
  loggp::AfterStream k;
  k.operations = loggp::kAfterStreamOperations;  // what measure_after_stream times
  k.message_bytes = a.bytes;
  k.gap = a.gap;
  for (const auto& p : a.points)
    k.points.push_back({p.messages, p.interval, p.allreduce8, p.second_allreduce8, {}, {}});
  for (std::size_t w = 1; w < streams.size(); ++w) {
    if (const std::string problem = after_stream_problem(streams[w]); !problem.empty()) {
      dropped += (dropped.empty() ? "" : "; ") + std::to_string(streams[w].working_set) + " B: " + problem;
      continue;
    }
    k.working_sets.push_back(streams[w].working_set);
    for (std::size_t i = 0; i < k.points.size(); ++i) {
      k.points[i].streamed_allreduce8.push_back(streams[w].points[i].allreduce8);
      k.points[i].streamed_second_allreduce8.push_back(streams[w].points[i].second_allreduce8);
    }
  }
  return k;
}

std::string cold_problem(const ColdMessages& c) {
  if (c.points.empty()) return "no points";
  if (!measured(c.points.front())) return not_measured(c.points.front());
  for (std::size_t i = 1; i < c.points.size(); ++i)
    if (measured(c.points[i])) return "";
  return "no working set beyond 0 B measured";
}

std::string cold_dropped(const ColdMessages& c) {
  std::string d;
  for (const auto& p : c.points)
    if (!measured(p)) d += (d.empty() ? "" : "; ") + not_measured(p);
  return d;
}

loggp::ColdCosts cold_costs(const ColdMessages& c) {
  loggp::ColdCosts k;
  k.order = loggp::kColdOrder;  // what measure_cold_messages does
  k.small_bytes = c.small_bytes;
  k.face_bytes = c.face_bytes;
  k.rendezvous_bytes = c.rendezvous_bytes;
  for (const auto& p : c.points)
    if (measured(p))
      k.points.push_back({p.working_set_bytes, p.allreduce8, p.receive_small, p.receive_face, p.send_small, p.send_face,
                          p.send_rendezvous, p.receive_rendezvous});
  return k;
}

void write_cold_keys(const std::optional<loggp::ColdCosts>& cold, const std::string& cold_note,
                     const std::optional<loggp::AfterStream>& after_stream, const std::string& after_stream_note,
                     MachineFile& mf) {
  if (cold) loggp::write_cold(*cold, mf);
  if (!cold_note.empty()) mf.set(cold ? "probe.cold_dropped" : "probe.cold_omitted", cold_note);
  if (after_stream) loggp::write_after_stream(*after_stream, mf);
  if (!after_stream_note.empty())
    mf.set(after_stream ? "probe.after_stream_dropped" : "probe.after_stream_omitted", after_stream_note);
}

void write_cold_keys(const ColdMessages& c, const std::vector<AfterStreamMeasurement>& streams, MachineFile& mf) {
  const std::string omitted = cold_problem(c), stream_omitted = after_stream_problem(streams.front());
  std::string stream_dropped;
  const loggp::AfterStream stream = after_stream_costs(streams, stream_dropped);
  const bool cold_kept = omitted.empty(), stream_kept = stream_omitted.empty();
  write_cold_keys(cold_kept ? std::optional(cold_costs(c)) : std::nullopt, cold_kept ? cold_dropped(c) : omitted,
                  stream_kept ? std::optional(stream) : std::nullopt, stream_kept ? stream_dropped : stream_omitted, mf);
}

}  // namespace instrument::probe
