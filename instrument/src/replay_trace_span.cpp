#include "replay_trace_span.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include "instrument/comm.hpp"
#include "instrument/critical_path.hpp"
#include "instrument/error.hpp"
#include "instrument/replay_trace.hpp"

namespace instrument::replay::detail {

namespace {

std::string rank_place(std::size_t r) { return "/trace/rank_" + std::to_string(r); }

std::string number_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

// The operation a traced phase stands for, or nullopt for compute.
std::optional<Op> call_of(const std::string& phase) {
  Op op;
  if (phase == comm_phase::kSend) op.kind = OpKind::send;
  else if (phase == comm_phase::kIsend) op.kind = OpKind::isend;
  else if (phase == comm_phase::kRecv) op.kind = OpKind::recv;
  else if (phase == comm_phase::kIrecv) op.kind = OpKind::irecv;
  else if (critical_path::is_wait_phase(phase)) op.kind = OpKind::wait;
  else if (critical_path::is_collective_phase(phase)) {
    op.kind = OpKind::collective;
    op.collective = phase == comm_phase::kAllreduce ? Collective::allreduce
                    : phase == comm_phase::kBcast   ? Collective::bcast
                                                    : Collective::barrier;
  } else {
    return std::nullopt;
  }
  return op;
}

// One rank's events as a nesting (one Recorder, one thread: intervals nest), in begin order.
struct Nesting {
  std::vector<std::size_t> order;    // sorted position -> recorded index
  std::vector<int> parent, depth;    // by sorted position, -1: top level
  std::vector<char> has_child;
  std::vector<std::int64_t> work;    // own work if any, else the work of the children
  std::vector<int> scope;            // innermost ancestor-or-self holding work, -1: none
};

Nesting nest(const std::vector<TraceEvent>& ev) {
  Nesting n;
  const std::size_t size = ev.size();
  n.order.resize(size);
  for (std::size_t i = 0; i < size; ++i) n.order[i] = i;
  // A phase is recorded when it ends, so a child is recorded before its parent. An interval
  // that ends at or before another's begin is never its child: an instant at x comes before
  // the intervals that begin at x (it was recorded first, and so happened first), instants at
  // one x in the order recorded. Of equal intervals the one recorded later encloses.
  std::sort(n.order.begin(), n.order.end(), [&](std::size_t a, std::size_t b) {
    if (ev[a].t_begin != ev[b].t_begin) return ev[a].t_begin < ev[b].t_begin;
    const bool instant_a = ev[a].t_end == ev[a].t_begin, instant_b = ev[b].t_end == ev[b].t_begin;
    if (instant_a != instant_b) return instant_a;
    if (instant_a) return a < b;
    if (ev[a].t_end != ev[b].t_end) return ev[a].t_end > ev[b].t_end;
    return a > b;
  });
  // e (not before `top` in this order) inside top: an instant at top's end only if it was
  // recorded before top (after it, it is a later sibling).
  auto inside = [&](std::size_t e_index, std::size_t top_index) {
    const TraceEvent &e = ev[e_index], &top = ev[top_index];
    if (e.t_end > top.t_end || e.t_end <= top.t_begin) return false;
    return e.t_begin < top.t_end || e_index < top_index;
  };
  n.parent.assign(size, -1);
  n.depth.assign(size, 0);
  n.has_child.assign(size, 0);
  std::vector<int> open;
  for (std::size_t i = 0; i < size; ++i) {
    while (!open.empty() && !inside(n.order[i], n.order[static_cast<std::size_t>(open.back())])) open.pop_back();
    if (!open.empty()) {
      n.parent[i] = open.back();
      n.depth[i] = n.depth[static_cast<std::size_t>(open.back())] + 1;
      n.has_child[static_cast<std::size_t>(open.back())] = 1;
    }
    open.push_back(static_cast<int>(i));
  }
  // Children come after their parent in this order: sum them from the back.
  std::vector<std::int64_t> children(size, 0);
  n.work.assign(size, 0);
  for (std::size_t i = size; i-- > 0;) {
    const std::int64_t own = ev[n.order[i]].work;
    n.work[i] = own > 0 ? own : children[i];
    if (n.parent[i] >= 0) {
      std::int64_t& sum = children[static_cast<std::size_t>(n.parent[i])];
      sum = add_work(sum, n.work[i]);
    }
  }
  n.scope.assign(size, -1);
  for (std::size_t i = 0; i < size; ++i)
    n.scope[i] = n.work[i] > 0 ? static_cast<int>(i) : (n.parent[i] >= 0 ? n.scope[static_cast<std::size_t>(n.parent[i])] : -1);
  return n;
}

class Labels {
 public:
  explicit Labels(std::vector<std::string>& names) : names_(names) {}
  int of(const std::string& name) {
    const auto [it, added] = index_.try_emplace(name, static_cast<int>(names_.size()));
    if (added) names_.push_back(name);
    return it->second;
  }

 private:
  std::vector<std::string>& names_;
  std::map<std::string, int> index_;
};

// Cuts one rank's span [begin, end] into calls and gaps.
class RankCutter {
 public:
  RankCutter(const GatheredTrace& t, std::size_t rank, const Nesting& n, Labels& labels)
      : trace_(t), ev_(t.per_rank[rank]), n_(n), labels_(labels) {}

  RankSpan cut(double begin, double end) {
    RankSpan out;
    out.begin = begin;
    out.end = end;
    Gap gap;
    gap.begin = begin;
    int prev = -1;  // sorted position of the previous leaf of the span
    double t = begin;
    for (std::size_t i = 0; i < ev_.size(); ++i) {
      const TraceEvent& e = event(i);
      if (n_.has_child[i] || e.t_begin < begin || e.t_end > end) continue;
      const auto call = call_of(trace_.kinds[static_cast<std::size_t>(e.kind)]);
      untimed(gap, t, std::max(t, e.t_begin), prev, static_cast<int>(i));
      t = std::max(t, e.t_end);
      prev = static_cast<int>(i);
      if (call) {
        gap.end = e.t_begin;
        out.gaps.push_back(std::move(gap));
        gap = Gap{};
        gap.begin = e.t_end;
        Call c;
        c.event = static_cast<std::int64_t>(n_.order[i]);
        c.op = *call;
        c.op.peer = e.peer;
        c.op.tag = e.tag;
        c.op.bytes = e.bytes;
        c.op.request = e.request;
        c.begin = e.t_begin;
        c.end = e.t_end;
        out.calls.push_back(c);
      } else if (e.t_end > e.t_begin) {
        Piece p;
        p.label = labels_.of(trace_.kinds[static_cast<std::size_t>(e.kind)]);
        p.seconds = e.t_end - e.t_begin;
        p.work = e.work;
        set_scope(p, e.work > 0 ? static_cast<int>(i) : n_.scope[i]);
        gap.pieces.push_back(p);
      }
    }
    untimed(gap, t, end, prev, -1);
    gap.end = end;
    out.gaps.push_back(std::move(gap));
    return out;
  }

 private:
  const TraceEvent& event(std::size_t sorted) const { return ev_[n_.order[sorted]]; }

  void set_scope(Piece& p, int scope) const {
    if (scope < 0) return;
    p.scope = static_cast<std::int64_t>(n_.order[static_cast<std::size_t>(scope)]);
    p.scope_work = n_.work[static_cast<std::size_t>(scope)];
  }

  // [a, b] holds no leaf: cut it where the phases around the leaves on either side begin or
  // end, each piece to the innermost phase around it.
  void untimed(Gap& gap, double a, double b, int before, int after) {
    if (!(b > a)) return;
    std::vector<int> around;
    for (int leaf : {before, after})
      for (int p = leaf >= 0 ? n_.parent[static_cast<std::size_t>(leaf)] : -1; p >= 0;
           p = n_.parent[static_cast<std::size_t>(p)])
        around.push_back(p);
    std::vector<double> cuts{a, b};
    for (int c : around)
      for (double x : {event(static_cast<std::size_t>(c)).t_begin, event(static_cast<std::size_t>(c)).t_end})
        if (x > a && x < b) cuts.push_back(x);
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
      const double x = cuts[k], y = cuts[k + 1];
      int inner = -1;
      for (int c : around) {
        const TraceEvent& e = event(static_cast<std::size_t>(c));
        if (e.t_begin <= x && e.t_end >= y &&
            (inner < 0 || n_.depth[static_cast<std::size_t>(c)] > n_.depth[static_cast<std::size_t>(inner)]))
          inner = c;
      }
      Piece p;
      p.seconds = y - x;
      if (inner >= 0) {
        p.label = labels_.of(trace_.kinds[static_cast<std::size_t>(event(static_cast<std::size_t>(inner)).kind)] +
                             " (untimed)");
        set_scope(p, n_.scope[static_cast<std::size_t>(inner)]);
      } else {
        p.label = labels_.of("(untimed, outside every phase)");
      }
      gap.pieces.push_back(p);
    }
  }

  const GatheredTrace& trace_;
  const std::vector<TraceEvent>& ev_;
  const Nesting& n_;
  Labels& labels_;
};

void check_events(const GatheredTrace& t, const std::string& file) {
  for (std::size_t r = 0; r < t.per_rank.size(); ++r) {
    if (r < t.dropped.size() && t.dropped[r] < 0)
      throw InputError(file, "/trace/dropped",
                       "a count of dropped events >= 0 per rank; rank " + std::to_string(r) + " has " +
                           std::to_string(t.dropped[r]));
    if (r < t.dropped.size() && t.dropped[r] > 0)
      throw InputError(file, "/trace/dropped",
                       "rank " + std::to_string(r) + " dropped " + std::to_string(t.dropped[r]) +
                           " events: an incomplete trace cannot be replayed; re-run with a larger --trace");
    const auto& ev = t.per_rank[r];
    double first = 0.0, last = 0.0;  // the rank's earliest begin and latest end
    for (std::size_t i = 0; i < ev.size(); ++i) {
      const TraceEvent& e = ev[i];
      const std::string where = rank_place(r) + " event " + std::to_string(i);
      if (e.kind < 0 || static_cast<std::size_t>(e.kind) >= t.kinds.size())
        throw InputError(file, where,
                         "kind " + std::to_string(e.kind) + " is not one of the " + std::to_string(t.kinds.size()) +
                             " kinds of /trace/kinds");
      if (!std::isfinite(e.t_begin) || !std::isfinite(e.t_end) || e.t_end < e.t_begin)
        throw InputError(file, where, "finite times with t_end >= t_begin");
      if (std::fabs(e.t_begin) > kMaxTraceSeconds || std::fabs(e.t_end) > kMaxTraceSeconds)
        throw InputError(file, where,
                         "times within 1e9 s of the trace's time base; got [" + number_text(e.t_begin) + ", " +
                             number_text(e.t_end) + "] s");
      first = i == 0 ? e.t_begin : std::min(first, e.t_begin);
      last = i == 0 ? e.t_end : std::max(last, e.t_end);
      if (e.work < 0 || e.work > kMaxEventWork)
        throw InputError(file, where,
                         "work in [0, 2^50] units (a physical count of one phase's work); got " + std::to_string(e.work));
    }
    if (last - first > kMaxTraceSeconds)
      throw InputError(file, rank_place(r),
                       "events within 1e9 s of each other; this rank's span [" + number_text(first) + ", " +
                           number_text(last) + "] s");
  }
}

}  // namespace

Span cut_span(const GatheredTrace& trace, const std::string& file, const std::string& epoch_phase) {
  if (trace.per_rank.empty() || std::all_of(trace.per_rank.begin(), trace.per_rank.end(),
                                            [](const auto& r) { return r.empty(); }))
    throw InputError(file, "/trace",
                     "a trace of the run (none recorded: was it run with --trace N?); only a traced run can be replayed");
  check_events(trace, file);
  const std::size_t nranks = trace.per_rank.size();
  std::vector<Nesting> nests;
  nests.reserve(nranks);
  for (const auto& ev : trace.per_rank) nests.push_back(nest(ev));

  // Epochs per rank, in begin order.
  const std::int32_t epoch_kind = trace.kind_of(epoch_phase);
  std::vector<std::vector<std::size_t>> epochs(nranks);  // sorted positions
  for (std::size_t r = 0; r < nranks; ++r)
    for (std::size_t i = 0; i < nests[r].order.size(); ++i)
      if (trace.per_rank[r][nests[r].order[i]].kind == epoch_kind) epochs[r].push_back(i);
  std::size_t common = epochs[0].size();
  for (const auto& e : epochs) common = std::min(common, e.size());
  const bool whole = std::all_of(epochs.begin(), epochs.end(), [](const auto& e) { return e.empty(); });
  if (!whole && common == 0) {
    std::size_t r = 0;
    while (!epochs[r].empty()) ++r;
    throw InputError(file, rank_place(r),
                     "at least one complete \"" + epoch_phase + "\" (the epochs replayed) on every rank; rank " +
                         std::to_string(r) + " has none");
  }

  Span span;
  span.epochs = whole ? 0 : static_cast<int>(common);
  span.description = whole ? "the whole trace (no \"" + epoch_phase + "\" phase to cut it at)"
                           : epoch_phase + "s 1.." + std::to_string(common) + " (complete on every rank)";
  Labels labels(span.labels);
  span.start = 0.0;
  bool first = true;
  for (std::size_t r = 0; r < nranks; ++r) {
    const auto& ev = trace.per_rank[r];
    const Nesting& n = nests[r];
    if (ev.empty()) throw InputError(file, rank_place(r), "trace events on every rank; this rank recorded none");
    double begin = 0.0, end = 0.0;
    if (whole) {
      begin = ev[n.order[0]].t_begin;
      end = begin;
      for (const TraceEvent& e : ev) end = std::max(end, e.t_end);
    } else {
      begin = ev[n.order[epochs[r][0]]].t_begin;
      end = ev[n.order[epochs[r][common - 1]]].t_end;
    }
    span.start = first ? begin : std::min(span.start, begin);
    first = false;
    span.ranks.push_back(RankCutter(trace, r, n, labels).cut(begin, end));
  }
  return span;
}

}  // namespace instrument::replay::detail
