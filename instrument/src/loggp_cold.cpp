#include "instrument/loggp_cold.hpp"

#include <algorithm>
#include <cmath>

#include "instrument/error.hpp"
#include "instrument/machine_file.hpp"
#include "model_ranges.hpp"

namespace instrument::loggp {

namespace {

constexpr model_ranges::Range kPointCount{1.0, 64.0, "", "a number of working sets"};
constexpr model_ranges::Range kWorkingSet{0.0, 1099511627776.0, "B", "a working set"};
constexpr model_ranges::Range kRendezvousCount{0.0, 8.0, "", "a number of rendezvous sizes"};

std::string point_key(std::size_t i, const std::string& field) {
  return "loggp.cold.point." + std::to_string(i + 1) + "." + field;
}

std::string rendezvous_bytes_key(std::size_t j) { return "loggp.cold.rendezvous." + std::to_string(j + 1) + ".bytes"; }

// "rendezvous.<j>.send" / ".receive" of a point.
std::string rendezvous_field(std::size_t j, const char* call) {
  return "rendezvous." + std::to_string(j + 1) + "." + call;
}

double lerp(double a, double b, double f) { return a + f * (b - a); }

constexpr double ColdPoint::*kTimes[] = {&ColdPoint::allreduce8, &ColdPoint::receive_small, &ColdPoint::receive_face,
                                         &ColdPoint::send_small, &ColdPoint::send_face};

// The five times of a point with their key names, for reading, writing and checking alike.
template <class Point, class F>
void each_time(Point& p, F f) {
  f("allreduce8", p.allreduce8);
  f("receive_small", p.receive_small);
  f("receive_face", p.receive_face);
  f("send_small", p.send_small);
  f("send_face", p.send_face);
}

}  // namespace

ColdPoint ColdCosts::at(std::int64_t n) const {
  if (points.size() == 1 || n <= 0) return points.front();
  std::size_t hi = 1;
  while (hi < points.size() && points[hi].working_set_bytes < n) ++hi;
  if (hi == 1) return points[1];                   // at or below the smallest probed N > 0
  if (hi == points.size()) return points.back();  // beyond the largest
  const ColdPoint& a = points[hi - 1];
  const ColdPoint& b = points[hi];
  const double la = std::log(static_cast<double>(a.working_set_bytes));
  const double f = (std::log(static_cast<double>(n)) - la) /
                   (std::log(static_cast<double>(b.working_set_bytes)) - la);
  ColdPoint r;
  r.working_set_bytes = n;
  for (double ColdPoint::*t : kTimes) r.*t = lerp(a.*t, b.*t, f);
  for (std::size_t j = 0; j < a.send_rendezvous.size() && j < b.send_rendezvous.size(); ++j) {
    r.send_rendezvous.push_back(lerp(a.send_rendezvous[j], b.send_rendezvous[j], f));
    r.receive_rendezvous.push_back(lerp(a.receive_rendezvous[j], b.receive_rendezvous[j], f));
  }
  return r;
}

std::optional<RendezvousCosts> ColdCosts::rendezvous_at(std::int64_t bytes, std::int64_t n) const {
  if (rendezvous_bytes.empty()) return std::nullopt;
  const ColdPoint p = at(n);
  const std::vector<std::int64_t>& k = rendezvous_bytes;
  std::size_t hi = 0;
  while (hi < k.size() && k[hi] < bytes) ++hi;
  if (hi == 0) return RendezvousCosts{p.send_rendezvous.front(), p.receive_rendezvous.front()};
  if (hi == k.size()) return RendezvousCosts{p.send_rendezvous.back(), p.receive_rendezvous.back()};
  const double f = static_cast<double>(bytes - k[hi - 1]) / static_cast<double>(k[hi] - k[hi - 1]);
  return RendezvousCosts{lerp(p.send_rendezvous[hi - 1], p.send_rendezvous[hi], f),
                         lerp(p.receive_rendezvous[hi - 1], p.receive_rendezvous[hi], f)};
}

void validate(const ColdCosts& c, const std::string& source) {
  model_ranges::require_in(c.small_bytes, model_ranges::kMessageBytes, source, "loggp.cold.small_bytes");
  model_ranges::require_in(c.face_bytes, model_ranges::kMessageBytes, source, "loggp.cold.face_bytes");
  model_ranges::require_in(static_cast<std::int64_t>(c.points.size()), kPointCount, source, "loggp.cold.points");
  model_ranges::require_in(static_cast<std::int64_t>(c.rendezvous_bytes.size()), kRendezvousCount, source,
                           "loggp.cold.rendezvous_sizes");
  for (std::size_t j = 0; j < c.rendezvous_bytes.size(); ++j) {
    const std::int64_t k = c.rendezvous_bytes[j];
    model_ranges::require_in(k, model_ranges::kMessageBytes, source, rendezvous_bytes_key(j));
    if (k <= c.face_bytes)
      throw InputError(source, rendezvous_bytes_key(j),
                       "expected a size above loggp.cold.face_bytes = " + std::to_string(c.face_bytes) +
                           " (a message sent by the rendezvous), got " + std::to_string(k));
    if (j > 0 && k <= c.rendezvous_bytes[j - 1])
      throw InputError(source, rendezvous_bytes_key(j), "expected rendezvous sizes in increasing order");
  }
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    const ColdPoint& p = c.points[i];
    model_ranges::require_in(p.working_set_bytes, kWorkingSet, source, point_key(i, "working_set_bytes"));
    if (i == 0 && p.working_set_bytes != 0)
      throw InputError(source, point_key(i, "working_set_bytes"),
                       "expected 0 (the first point is the warm reference), got " + std::to_string(p.working_set_bytes));
    if (i > 0 && p.working_set_bytes <= c.points[i - 1].working_set_bytes)
      throw InputError(source, point_key(i, "working_set_bytes"), "expected working sets in increasing order");
    each_time(p, [&](const char* name, const double& v) {
      model_ranges::require_in(v, model_ranges::kOverhead, source, point_key(i, name));
    });
    for (std::size_t j = 0; j < c.rendezvous_bytes.size(); ++j) {
      const std::string send = point_key(i, rendezvous_field(j, "send")), receive = point_key(i, rendezvous_field(j, "receive"));
      if (p.send_rendezvous.size() != c.rendezvous_bytes.size() || p.receive_rendezvous.size() != c.rendezvous_bytes.size())
        throw InputError(source, send, "expected one send and one receive time per rendezvous size");
      model_ranges::require_in(p.send_rendezvous[j], model_ranges::kOverhead, source, send);
      model_ranges::require_in(p.receive_rendezvous[j], model_ranges::kOverhead, source, receive);
    }
  }
}

std::optional<ColdCosts> read_cold(const MachineFile& f) {
  if (!f.has("loggp.cold.points")) {
    for (const std::string& k : f.keys())
      if (k.rfind("loggp.cold.", 0) == 0)
        throw InputError(f.name(), "loggp.cold.points", "missing required key (the file has " + k + ")");
    return std::nullopt;
  }
  ColdCosts c;
  c.order = f.get_string("loggp.cold.order").value_or("");
  c.small_bytes = f.require_bytes("loggp.cold.small_bytes");
  c.face_bytes = f.require_bytes("loggp.cold.face_bytes");
  const std::int64_t n = f.require_bytes("loggp.cold.points");
  model_ranges::require_in(n, kPointCount, f.name(), "loggp.cold.points");  // before the loop
  // Rendezvous sizes: absent in files of probes before them (then none, and no point may
  // have rendezvous keys).
  std::int64_t r = 0;
  if (f.has("loggp.cold.rendezvous_sizes")) {
    r = f.require_bytes("loggp.cold.rendezvous_sizes");
    model_ranges::require_in(r, kRendezvousCount, f.name(), "loggp.cold.rendezvous_sizes");  // before the loop
  } else {
    for (const std::string& k : f.keys())
      if (k.rfind("loggp.cold.rendezvous.", 0) == 0 || (k.rfind("loggp.cold.point.", 0) == 0 && k.find(".rendezvous.") != std::string::npos))
        throw InputError(f.name(), "loggp.cold.rendezvous_sizes", "missing required key (the file has " + k + ")");
  }
  for (std::size_t j = 0; j < static_cast<std::size_t>(r); ++j) c.rendezvous_bytes.push_back(f.require_bytes(rendezvous_bytes_key(j)));
  for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
    ColdPoint p;
    p.working_set_bytes = f.require_bytes(point_key(i, "working_set_bytes"));
    each_time(p, [&](const char* name, double& v) { v = f.require_double(point_key(i, name), "seconds"); });
    for (std::size_t j = 0; j < static_cast<std::size_t>(r); ++j) {
      p.send_rendezvous.push_back(f.require_double(point_key(i, rendezvous_field(j, "send")), "seconds"));
      p.receive_rendezvous.push_back(f.require_double(point_key(i, rendezvous_field(j, "receive")), "seconds"));
    }
    c.points.push_back(p);
  }
  validate(c, f.name());
  return c;
}

void write_cold(const ColdCosts& c, MachineFile& f) {
  f.comment("cold messages (probe_cold.hpp): the first MPI call after both ranks streamed");
  f.comment("working_set_bytes (read + write); seconds, medians; point 1 (no streaming) is the");
  f.comment("warm reference; allreduce8: 8 B, ranks 20 us apart, last entry to later exit;");
  f.comment("receive_*: MPI_Recv of a message already there; send_*: eager MPI_Send;");
  f.comment("rendezvous.<j>: a message of rendezvous.<j>.bytes (above the eager limit), the send that");
  f.comment("waited for its receiver from the receive's post, the receive that waited from the send's start");
  if (!c.order.empty()) f.set("loggp.cold.order", c.order);
  f.set("loggp.cold.small_bytes", c.small_bytes);
  f.set("loggp.cold.face_bytes", c.face_bytes);
  f.set("loggp.cold.points", static_cast<std::int64_t>(c.points.size()));
  if (!c.rendezvous_bytes.empty()) {
    f.set("loggp.cold.rendezvous_sizes", static_cast<std::int64_t>(c.rendezvous_bytes.size()));
    for (std::size_t j = 0; j < c.rendezvous_bytes.size(); ++j) f.set(rendezvous_bytes_key(j), c.rendezvous_bytes[j]);
  }
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    ColdPoint p = c.points[i];
    f.set(point_key(i, "working_set_bytes"), p.working_set_bytes);
    each_time(p, [&](const char* name, double& v) { f.set(point_key(i, name), v); });
    for (std::size_t j = 0; j < c.rendezvous_bytes.size() && j < p.send_rendezvous.size(); ++j) {
      f.set(point_key(i, rendezvous_field(j, "send")), p.send_rendezvous[j]);
      f.set(point_key(i, rendezvous_field(j, "receive")), p.receive_rendezvous[j]);
    }
  }
}

namespace {

constexpr model_ranges::Range kStreamPointCount{1.0, 64.0, "", "a number of message counts"};
constexpr model_ranges::Range kMessageCount{0.0, 1e6, "", "a number of messages"};
constexpr model_ranges::Range kInterval{0.0, 1.0, "s", "an interval"};

constexpr model_ranges::Range kStreamWorkingSetCount{0.0, 8.0, "", "a number of working sets"};

std::string stream_key(std::size_t i, const char* field) {
  return "loggp.after_stream.point." + std::to_string(i + 1) + "." + field;
}

std::string stream_key(std::size_t i, std::size_t w, const char* field) {
  return stream_key(i, "working_set.") + std::to_string(w + 1) + "." + field;
}

std::string working_set_key(std::size_t w) {
  return "loggp.after_stream.working_set." + std::to_string(w + 1) + ".bytes";
}

}  // namespace

AfterStreamPoint AfterStream::at_interval(double t) const {
  if (t <= points.front().interval) return points.front();
  if (t >= points.back().interval) return points.back();
  std::size_t hi = 1;
  while (points[hi].interval < t) ++hi;
  const AfterStreamPoint& a = points[hi - 1];
  const AfterStreamPoint& b = points[hi];
  const double f = (t - a.interval) / (b.interval - a.interval);
  AfterStreamPoint r;
  r.messages = a.messages;  // the measured count at or below t
  r.interval = t;
  r.allreduce8 = a.allreduce8 + f * (b.allreduce8 - a.allreduce8);
  r.second_allreduce8 = a.second_allreduce8 + f * (b.second_allreduce8 - a.second_allreduce8);
  for (std::size_t w = 0; w < a.streamed_allreduce8.size() && w < b.streamed_allreduce8.size(); ++w) {
    r.streamed_allreduce8.push_back(a.streamed_allreduce8[w] + f * (b.streamed_allreduce8[w] - a.streamed_allreduce8[w]));
    r.streamed_second_allreduce8.push_back(a.streamed_second_allreduce8[w] +
                                           f * (b.streamed_second_allreduce8[w] - a.streamed_second_allreduce8[w]));
  }
  return r;
}

AfterStream::Pair AfterStream::at(double interval, std::int64_t n) const {
  const AfterStreamPoint p = at_interval(interval);
  const std::size_t k = std::min(working_sets.size(), p.streamed_allreduce8.size());
  if (n <= 0 || k == 0) return {p.allreduce8, p.second_allreduce8};
  auto series = [&](std::size_t w) { return Pair{p.streamed_allreduce8[w], p.streamed_second_allreduce8[w]}; };
  auto mix = [](Pair a, Pair b, double f) { return Pair{a.first + f * (b.first - a.first), a.second + f * (b.second - a.second)}; };
  if (n >= working_sets[k - 1]) return series(k - 1);
  if (n <= working_sets[0])  // from the spinning series (N = 0), linear in N
    return mix({p.allreduce8, p.second_allreduce8}, series(0),
               static_cast<double>(n) / static_cast<double>(working_sets[0]));
  std::size_t hi = 1;
  while (working_sets[hi] < n) ++hi;
  const double la = std::log(static_cast<double>(working_sets[hi - 1])), lb = std::log(static_cast<double>(working_sets[hi]));
  return mix(series(hi - 1), series(hi), (std::log(static_cast<double>(n)) - la) / (lb - la));
}

void validate(const AfterStream& a, const std::string& source) {
  model_ranges::require_in(a.message_bytes, model_ranges::kMessageBytes, source, "loggp.after_stream.message_bytes");
  model_ranges::require_in(a.gap, model_ranges::kOverhead, source, "loggp.after_stream.gap_seconds");
  model_ranges::require_in(static_cast<std::int64_t>(a.points.size()), kStreamPointCount, source,
                           "loggp.after_stream.points");
  for (std::size_t i = 0; i < a.points.size(); ++i) {
    const AfterStreamPoint& p = a.points[i];
    model_ranges::require_in(p.messages, kMessageCount, source, stream_key(i, "messages"));
    if (i == 0 && p.messages != 0)
      throw InputError(source, stream_key(i, "messages"),
                       "expected 0 (the first point is the reference without a stream), got " +
                           std::to_string(p.messages));
    if (i > 0 && p.messages <= a.points[i - 1].messages)
      throw InputError(source, stream_key(i, "messages"), "expected message counts in increasing order");
    model_ranges::require_in(p.interval, kInterval, source, stream_key(i, "interval_seconds"));
    if (i > 0 && p.interval <= a.points[i - 1].interval)
      throw InputError(source, stream_key(i, "interval_seconds"), "expected intervals in increasing order");
    model_ranges::require_in(p.allreduce8, model_ranges::kOverhead, source, stream_key(i, "allreduce8"));
    model_ranges::require_in(p.second_allreduce8, model_ranges::kOverhead, source, stream_key(i, "second_allreduce8"));
    if (p.streamed_allreduce8.size() != a.working_sets.size() || p.streamed_second_allreduce8.size() != a.working_sets.size())
      throw InputError(source, stream_key(i, "working_set.1.allreduce8"),
                       "expected one figure per working set (" + std::to_string(a.working_sets.size()) + ")");
    for (std::size_t w = 0; w < a.working_sets.size(); ++w) {
      model_ranges::require_in(p.streamed_allreduce8[w], model_ranges::kOverhead, source, stream_key(i, w, "allreduce8"));
      model_ranges::require_in(p.streamed_second_allreduce8[w], model_ranges::kOverhead, source,
                               stream_key(i, w, "second_allreduce8"));
    }
  }
  model_ranges::require_in(static_cast<std::int64_t>(a.working_sets.size()), kStreamWorkingSetCount, source,
                           "loggp.after_stream.working_sets");
  for (std::size_t w = 0; w < a.working_sets.size(); ++w) {
    model_ranges::require_in(a.working_sets[w], kWorkingSet, source, working_set_key(w));
    if (a.working_sets[w] <= 0)
      throw InputError(source, working_set_key(w), "expected a working set above 0 B (0 is the spinning series)");
    if (w > 0 && a.working_sets[w] <= a.working_sets[w - 1])
      throw InputError(source, working_set_key(w), "expected working sets in increasing order");
  }
}

std::optional<AfterStream> read_after_stream(const MachineFile& f) {
  if (!f.has("loggp.after_stream.points")) {
    for (const std::string& k : f.keys())
      if (k.rfind("loggp.after_stream.", 0) == 0)
        throw InputError(f.name(), "loggp.after_stream.points", "missing required key (the file has " + k + ")");
    return std::nullopt;
  }
  AfterStream a;
  a.operations = f.get_string("loggp.after_stream.operations").value_or("");
  a.message_bytes = f.require_bytes("loggp.after_stream.message_bytes");
  a.gap = f.require_double("loggp.after_stream.gap_seconds", "seconds");
  const std::int64_t n = f.require_bytes("loggp.after_stream.points");
  model_ranges::require_in(n, kStreamPointCount, f.name(), "loggp.after_stream.points");  // before the loop
  const bool has_sets = f.has("loggp.after_stream.working_sets");
  if (!has_sets)  // a working set's key without their count would be read as none: refused
    for (const std::string& key : f.keys())
      if (key.rfind("loggp.after_stream.", 0) == 0 && key.find("working_set.") != std::string::npos)
        throw InputError(f.name(), "loggp.after_stream.working_sets", "missing required key (the file has " + key + ")");
  const std::int64_t k = has_sets ? f.require_bytes("loggp.after_stream.working_sets") : 0;
  model_ranges::require_in(k, kStreamWorkingSetCount, f.name(), "loggp.after_stream.working_sets");
  for (std::size_t w = 0; w < static_cast<std::size_t>(k); ++w) a.working_sets.push_back(f.require_bytes(working_set_key(w)));
  for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
    AfterStreamPoint p;
    p.messages = f.require_bytes(stream_key(i, "messages"));
    p.interval = f.require_double(stream_key(i, "interval_seconds"), "seconds");
    p.allreduce8 = f.require_double(stream_key(i, "allreduce8"), "seconds");
    p.second_allreduce8 = f.require_double(stream_key(i, "second_allreduce8"), "seconds");
    for (std::size_t w = 0; w < static_cast<std::size_t>(k); ++w) {
      p.streamed_allreduce8.push_back(f.require_double(stream_key(i, w, "allreduce8"), "seconds"));
      p.streamed_second_allreduce8.push_back(f.require_double(stream_key(i, w, "second_allreduce8"), "seconds"));
    }
    a.points.push_back(p);
  }
  validate(a, f.name());
  return a;
}

void write_after_stream(const AfterStream& a, MachineFile& f) {
  f.comment("the first collective after a one-way stream (probe_cold.hpp): rank 0 sends `messages`");
  f.comment("messages of message_bytes to rank 1, computing gap_seconds before each; interval_seconds:");
  f.comment("median time since the previous collective; allreduce8: the first 8-byte allreduce after");
  f.comment("the stream, last entry to later exit (median); second_allreduce8: the one right after it;");
  f.comment("operations: the pair's, as the sweep reduces (the previous collectives the same pair)");
  if (!a.operations.empty()) f.set("loggp.after_stream.operations", a.operations);
  f.set("loggp.after_stream.message_bytes", a.message_bytes);
  f.set("loggp.after_stream.gap_seconds", a.gap);
  f.set("loggp.after_stream.points", static_cast<std::int64_t>(a.points.size()));
  if (!a.working_sets.empty()) {
    f.comment("working_set.<w>: the same with each rank's compute streaming that many bytes, not spinning");
    f.set("loggp.after_stream.working_sets", static_cast<std::int64_t>(a.working_sets.size()));
    for (std::size_t w = 0; w < a.working_sets.size(); ++w) f.set(working_set_key(w), a.working_sets[w]);
  }
  for (std::size_t i = 0; i < a.points.size(); ++i) {
    const AfterStreamPoint& p = a.points[i];
    f.set(stream_key(i, "messages"), p.messages);
    f.set(stream_key(i, "interval_seconds"), p.interval);
    f.set(stream_key(i, "allreduce8"), p.allreduce8);
    f.set(stream_key(i, "second_allreduce8"), p.second_allreduce8);
    for (std::size_t w = 0; w < a.working_sets.size() && w < p.streamed_allreduce8.size(); ++w) {
      f.set(stream_key(i, w, "allreduce8"), p.streamed_allreduce8[w]);
      f.set(stream_key(i, w, "second_allreduce8"), p.streamed_second_allreduce8[w]);
    }
  }
}

}  // namespace instrument::loggp
