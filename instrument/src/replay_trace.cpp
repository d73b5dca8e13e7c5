#include "instrument/replay_trace.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <utility>

#include "instrument/error.hpp"
#include "replay_trace_span.hpp"

namespace instrument::replay {

namespace {

using detail::Call;
using detail::Gap;
using detail::Piece;
using detail::RankSpan;

std::string op_name(const Op& op) {
  switch (op.kind) {
    case OpKind::send: return "send";
    case OpKind::recv: return "recv";
    case OpKind::isend: return "isend";
    case OpKind::irecv: return "irecv";
    case OpKind::wait: return "wait";
    case OpKind::collective:
      return op.collective == Collective::allreduce ? "allreduce" : op.collective == Collective::bcast ? "bcast" : "barrier";
    case OpKind::compute: break;
  }
  return "compute";
}

std::string place(std::size_t rank, const Call& c) {
  return "/trace/rank_" + std::to_string(rank) + " event " + std::to_string(c.event) + " (" + op_name(c.op) + ")";
}

std::string short_number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

// Checks the calls of one rank and gives each posted receive what its wait matched.
void resolve_calls(std::vector<Call>& calls, std::size_t rank, int nranks, const std::string& file) {
  std::map<std::int32_t, std::size_t> post_of, wait_of;  // request -> call index
  for (std::size_t i = 0; i < calls.size(); ++i)
    if (calls[i].op.kind == OpKind::wait) wait_of.try_emplace(calls[i].op.request, i);
  for (std::size_t i = 0; i < calls.size(); ++i) {
    Op& op = calls[i].op;
    const bool p2p = op.kind == OpKind::send || op.kind == OpKind::recv || op.kind == OpKind::isend ||
                     op.kind == OpKind::irecv;
    if (op.kind == OpKind::isend || op.kind == OpKind::irecv) {
      if (op.request < 0)
        throw InputError(file, place(rank, calls[i]), "a request number >= 0 on a posted call");
      if (!post_of.try_emplace(op.request, i).second)
        throw InputError(file, place(rank, calls[i]),
                         "request " + std::to_string(op.request) + " posted once; it was posted before");
      const auto w = wait_of.find(op.request);
      if (op.kind == OpKind::irecv && w != wait_of.end() && w->second > i) {
        const Op& matched = calls[w->second].op;  // what MPI matched, not what was asked for
        op.peer = matched.peer;
        op.tag = matched.tag;
        op.bytes = matched.bytes;
      }
    } else if (op.kind == OpKind::wait) {
      const auto p = post_of.find(op.request);
      if (p == post_of.end())
        throw InputError(file, place(rank, calls[i]),
                         "a wait on a request posted earlier in the replayed span; request " +
                             std::to_string(op.request) + " is not");
    }
    if (p2p && (op.peer < 0 || op.peer >= nranks || op.peer == static_cast<int>(rank)))
      throw InputError(file, place(rank, calls[i]),
                       "a peer among the other ranks of this " + std::to_string(nranks) + "-rank run; got " +
                           std::to_string(op.peer) +
                           (op.kind == OpKind::irecv ? " (a receive from any source needs its wait in the span)" : ""));
    if (p2p && op.tag < 0)
      throw InputError(file, place(rank, calls[i]), "an MPI tag >= 0; got " + std::to_string(op.tag));
    if (op.bytes < 0) throw InputError(file, place(rank, calls[i]), "bytes >= 0");
    if (op.kind == OpKind::collective && op.collective == Collective::bcast && (op.peer < 0 || op.peer >= nranks))
      throw InputError(file, place(rank, calls[i]), "a bcast root among the ranks; got " + std::to_string(op.peer));
  }
}

// Seconds of each gap of one rank under a cost table; counts what the table does not cover.
class GapCoster {
 public:
  GapCoster(const CostTable& table, const std::vector<std::string>& labels, RecordedProgram& out)
      : table_(table), labels_(labels), out_(out) {}

  std::vector<double> cost(const RankSpan& rank) {
    // A label's share of a scope is split evenly over the scope's pieces of that label.
    std::map<std::pair<std::int64_t, int>, int> pieces_in_scope;
    for (const Gap& g : rank.gaps)
      for (const Piece& p : g.pieces)
        if (p.work == 0 && p.scope >= 0) ++pieces_in_scope[{p.scope, p.label}];
    std::vector<double> seconds;
    for (const Gap& g : rank.gaps) {
      double s = 0.0;
      for (const Piece& p : g.pieces) s += piece(p, pieces_in_scope);
      seconds.push_back(s);
    }
    return seconds;
  }

 private:
  double piece(const Piece& p, const std::map<std::pair<std::int64_t, int>, int>& pieces_in_scope) {
    const std::string& label = labels_[static_cast<std::size_t>(p.label)];
    if (p.work > 0) {
      const auto it = table_.per_work.find(label);
      if (it == table_.per_work.end()) {
        std::string have;
        for (const auto& [name, rate] : table_.per_work) have += (have.empty() ? "" : ", ") + name;
        throw InputError(table_.file, "/trace",
                         "a cost per work unit of \"" + label + "\", which carries work in the replayed run; the calibration's phases with work: " +
                             (have.empty() ? "none" : have) + " (calibrate with the same program and options)");
      }
      return static_cast<double>(p.work) * it->second.rate();
    }
    if (p.scope >= 0) {
      if (const auto it = table_.per_scope.find(label); it != table_.per_scope.end())
        return it->second.rate() * static_cast<double>(p.scope_work) / pieces_in_scope.at({p.scope, p.label});
    }
    if (const auto it = table_.per_piece.find(label); it != table_.per_piece.end()) return it->second.rate();
    ++out_.uncovered_pieces;
    out_.uncovered_measured_seconds += p.seconds;
    if (std::find(out_.uncovered_labels.begin(), out_.uncovered_labels.end(), label) == out_.uncovered_labels.end())
      out_.uncovered_labels.push_back(label);
    return 0.0;
  }

  const CostTable& table_;
  const std::vector<std::string>& labels_;
  RecordedProgram& out_;
};

std::string describe_costs(const CostTable& t) {
  std::string s = "costs from " + t.file + " (" + std::to_string(t.nranks) + (t.nranks == 1 ? " rank" : " ranks") +
                  "): per work unit";
  for (const auto& [name, rate] : t.per_work) s += " " + name + " " + short_number(rate.rate()) + " s";
  s += "; other compute in proportion to the work of the phase around it";
  return s;
}

// Each rate of a cost table finite and in [0, max] (a physical rate: replay_trace.hpp).
void check_rates(const std::map<std::string, MeasuredRate>& rates, const std::string& what, double max,
                 const char* max_text, const std::string& file) {
  for (const auto& [label, r] : rates) {
    const double x = r.rate();
    if (!(std::isfinite(x) && x >= 0.0 && x <= max))
      throw InputError(file, "/trace",
                       what + " \"" + label + "\" in [0, " + max_text + "] s (a physical rate); got " + short_number(x) +
                           " (" + short_number(r.seconds) + " s over " + short_number(r.units) + ")");
  }
}

void add_call_time(RankTotals& t, const Call& c) {
  const double d = c.end - c.begin;
  switch (c.op.kind) {
    case OpKind::send:
    case OpKind::isend: t.send += d; break;
    case OpKind::recv:
    case OpKind::irecv: t.receive += d; break;
    case OpKind::wait: t.wait += d; break;
    case OpKind::collective: t.collective += d; break;
    case OpKind::compute: t.compute += d; break;
  }
}

}  // namespace

CostTable cost_table_from(const GatheredTrace& trace, const std::string& file, const std::string& epoch_phase) {
  const detail::Span span = detail::cut_span(trace, file, epoch_phase);
  CostTable t;
  t.file = file;
  t.nranks = static_cast<int>(span.ranks.size());
  for (const RankSpan& rank : span.ranks) {
    std::map<std::pair<std::int64_t, int>, bool> scope_counted;
    for (const Gap& g : rank.gaps)
      for (const Piece& p : g.pieces) {
        const std::string& label = span.labels[static_cast<std::size_t>(p.label)];
        MeasuredRate* r = nullptr;
        double units = 0.0;
        if (p.work > 0) {
          r = &t.per_work[label];
          units = static_cast<double>(p.work);
        } else if (p.scope >= 0) {
          r = &t.per_scope[label];
          // A scope's work counts once per label, however many pieces it cut the label into.
          if (scope_counted.try_emplace({p.scope, p.label}, true).second) units = static_cast<double>(p.scope_work);
        } else {
          r = &t.per_piece[label];
          units = 1.0;
        }
        r->seconds += p.seconds;
        r->units += units;
        ++r->pieces;
      }
  }
  if (t.per_work.empty())
    throw InputError(file, "/trace",
                     "compute phases that carry work in " + span.description +
                         " (a calibration gives seconds per work unit; this trace has no work)");
  check_rates(t.per_work, "seconds per work unit of", kMaxSecondsPerWork, "1e3", file);
  check_rates(t.per_scope, "seconds per work unit of its scopes for", kMaxSecondsPerWork, "1e3", file);
  check_rates(t.per_piece, "seconds per piece of", kMaxTraceSeconds, "1e9", file);
  return t;
}

RecordedProgram program_from_trace(const GatheredTrace& trace, const std::string& file, const TraceOptions& options) {
  detail::Span span = detail::cut_span(trace, file, options.epoch_phase);
  RecordedProgram out;
  out.span = span.description;
  out.epochs = span.epochs;
  out.compute_from = options.costs ? describe_costs(*options.costs)
                                   : "self: the run's own measured gaps between its MPI calls (a consistency check of "
                                     "the simulator, not a prediction)";
  const int nranks = static_cast<int>(span.ranks.size());
  out.program.per_rank.resize(span.ranks.size());
  out.program.source_index.resize(span.ranks.size());
  out.measured.resize(span.ranks.size());
  std::optional<GapCoster> coster;
  if (options.costs) coster.emplace(*options.costs, span.labels, out);
  for (std::size_t r = 0; r < span.ranks.size(); ++r) {
    RankSpan& rank = span.ranks[r];
    resolve_calls(rank.calls, r, nranks, file);
    std::vector<double> gap_seconds;
    if (coster) gap_seconds = coster->cost(rank);
    else
      for (const Gap& g : rank.gaps) gap_seconds.push_back(g.end - g.begin);

    auto& ops = out.program.per_rank[r];
    auto& index = out.program.source_index[r];
    RankTotals& m = out.measured[r];
    const double skew = rank.begin - span.start;
    out.start_skew = std::max(out.start_skew, skew);
    auto push_compute = [&](double seconds, std::int64_t work) {
      if (seconds <= 0.0 && work == 0) return;
      ops.push_back(compute_op(seconds, work));
      index.push_back(-1);
    };
    push_compute(skew, 0);
    m.compute += skew;
    for (std::size_t i = 0; i < rank.gaps.size(); ++i) {
      const Gap& g = rank.gaps[i];
      std::int64_t work = 0;
      for (const Piece& p : g.pieces) work = detail::add_work(work, p.work);
      push_compute(gap_seconds[i], work);
      m.compute += g.end - g.begin;
      if (i < rank.calls.size()) {
        ops.push_back(rank.calls[i].op);
        index.push_back(rank.calls[i].event);
        add_call_time(m, rank.calls[i]);
      }
    }
    m.end = rank.end - span.start;
    m.ops = static_cast<std::int64_t>(ops.size());
    out.measured_total = std::max(out.measured_total, m.end);
  }
  return out;
}

}  // namespace instrument::replay
