// The pending-message figures of the machine file. See loggp_pending.hpp.
#include "instrument/loggp_pending.hpp"

#include "instrument/error.hpp"
#include "instrument/machine_file.hpp"
#include "model_ranges.hpp"

#include <set>
#include <string>

namespace instrument::loggp {

namespace {

constexpr model_ranges::Range kSizeCount{1.0, 16.0, "", "a number of message sizes"};

std::string size_key(std::size_t i, const char* field) {
  return "loggp.pending.size." + std::to_string(i + 1) + "." + field;
}

// The six figures of a point with their key names, for reading, writing and checking alike.
template <class Point, class F>
void each_figure(Point& p, F f) {
  f("send_plain", p.send_plain);
  f("send_pending", p.send_pending);
  f("bsend_plain", p.bsend_plain);
  f("bsend_pending", p.bsend_pending);
  f("receive_plain", p.receive_plain);
  f("receive_pending", p.receive_pending);
}

constexpr double PendingPoint::*kFigures[] = {&PendingPoint::send_plain,    &PendingPoint::send_pending,
                                             &PendingPoint::bsend_plain,   &PendingPoint::bsend_pending,
                                             &PendingPoint::receive_plain, &PendingPoint::receive_pending};

}  // namespace

PendingPoint PendingCosts::at(std::int64_t k) const {
  if (k <= points.front().bytes) return points.front();
  if (k >= points.back().bytes) return points.back();
  std::size_t hi = 1;
  while (points[hi].bytes < k) ++hi;
  const PendingPoint& a = points[hi - 1];
  const PendingPoint& b = points[hi];
  const double f = static_cast<double>(k - a.bytes) / static_cast<double>(b.bytes - a.bytes);
  PendingPoint r;
  r.bytes = k;
  for (double PendingPoint::*x : kFigures) r.*x = a.*x + f * (b.*x - a.*x);
  return r;
}

void validate(const PendingCosts& c, const std::string& source) {
  model_ranges::require_in(static_cast<std::int64_t>(c.points.size()), kSizeCount, source, "loggp.pending.sizes");
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    const PendingPoint& p = c.points[i];
    model_ranges::require_in(p.bytes, model_ranges::kMessageBytes, source, size_key(i, "bytes"));
    if (i > 0 && p.bytes <= c.points[i - 1].bytes)
      throw InputError(source, size_key(i, "bytes"),
                       "expected sizes in increasing order (above " + std::to_string(c.points[i - 1].bytes) +
                           " B), got " + std::to_string(p.bytes));
    each_figure(p, [&](const char* name, const double& v) {
      model_ranges::require_in(v, model_ranges::kOverhead, source, size_key(i, name));
    });
  }
}

std::optional<PendingCosts> read_pending(const MachineFile& f) {
  if (!f.has("loggp.pending.sizes")) {
    for (const std::string& k : f.keys())
      if (k.rfind("loggp.pending.", 0) == 0)
        throw InputError(f.name(), "loggp.pending.sizes", "missing required key (the file has " + k + ")");
    return std::nullopt;
  }
  const std::int64_t n = f.require_bytes("loggp.pending.sizes");
  model_ranges::require_in(n, kSizeCount, f.name(), "loggp.pending.sizes");  // before the loop
  PendingCosts c;
  std::set<std::string> read{"loggp.pending.sizes"};
  for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
    PendingPoint p;
    p.bytes = f.require_bytes(size_key(i, "bytes"));
    read.insert(size_key(i, "bytes"));
    each_figure(p, [&](const char* name, double& v) {
      v = f.require_double(size_key(i, name), "seconds");
      read.insert(size_key(i, name));
    });
    c.points.push_back(p);
  }
  // A key the count leaves out (a size past loggp.pending.sizes, a misspelt field) is a file
  // edited by hand or cut short: refused, not ignored.
  for (const std::string& k : f.keys())
    if (k.rfind("loggp.pending.", 0) == 0 && read.count(k) == 0)
      throw InputError(f.name(), k,
                       "not a key of the " + std::to_string(n) + " sizes loggp.pending.sizes gives (sizes 1 to " +
                           std::to_string(n) + ", each bytes and its figures)");
  validate(c, f.name());
  return c;
}

void write_pending(const PendingCosts& c, MachineFile& f) {
  f.comment("a send with the peer's message waiting (probe_pending.hpp), 2 ranks, seconds, medians;");
  f.comment("the waiting message and the send are both <bytes>; *_plain: nothing waiting; *_pending:");
  f.comment("the message arrived, not received; receive_plain: the message arrived after the send;");
  f.comment("receive_pending: the message the send took in");
  f.set("loggp.pending.sizes", static_cast<std::int64_t>(c.points.size()));
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    PendingPoint p = c.points[i];
    f.set(size_key(i, "bytes"), p.bytes);
    each_figure(p, [&](const char* name, double& v) { f.set(size_key(i, name), v); });
  }
}

}  // namespace instrument::loggp
