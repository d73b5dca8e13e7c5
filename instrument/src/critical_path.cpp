#include "instrument/critical_path.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

#include "instrument/comm.hpp"
#include "instrument/run_results.hpp"

namespace instrument::critical_path {

namespace {

// A stretch of untimed time between two leaves, inside one innermost enclosing phase.
struct GapPiece {
  double begin = 0.0, end = 0.0;
  int category = 0;
  int epoch = -1;
};

// One rank's trace, prepared for the walk: its leaf activities (phases with nothing timed
// inside them) in time order, and for each leaf the untimed time after it, cut where the
// phases that enclose it begin or end (one gap may close one phase and open another).
struct RankTimeline {
  std::vector<Event> leaves;         // sorted by begin; they do not overlap
  std::vector<int> leaf_category;    // category index of each leaf
  std::vector<int> leaf_epoch;       // epoch of leaf i, -1 outside every epoch
  std::vector<std::vector<GapPiece>> gap_after;  // after leaf i, up to the next (or the end)
  std::vector<double> epoch_begin, epoch_end;
  // Where the partner of a communication leaf is: rank and leaf index, or -1.
  std::vector<int> partner_rank, partner_leaf;
};

struct Categories {
  std::vector<std::string> names;
  std::vector<int> of_phase;  // per phase index
  int fallback = -1;
};

Categories categorise(const Trace& t, const Rules& rules) {
  Categories c;
  c.names = rules.categories;
  auto index_of = [&](const std::string& name) {
    const auto it = std::find(c.names.begin(), c.names.end(), name);
    if (it != c.names.end()) return static_cast<int>(it - c.names.begin());
    c.names.push_back(name);
    return static_cast<int>(c.names.size() - 1);
  };
  c.fallback = index_of(rules.fallback);  // time no phase encloses lands there
  for (const auto& phase : t.phases) {
    const auto it = rules.category_of.find(phase);
    c.of_phase.push_back(it == rules.category_of.end() ? -1 : index_of(it->second));
  }
  for (int& k : c.of_phase)
    if (k < 0) k = c.fallback;
  return c;
}

// Leaves, enclosing phases and epochs of one rank. Events of one rank nest (one Recorder,
// one thread): sorted by begin (longest first on ties), a stack of the open enclosing
// intervals tells each event's parent.
RankTimeline prepare(std::vector<Event> ev, const Categories& cat, int epoch_phase) {
  // On equal intervals the one recorded later is the parent (a phase is recorded when it
  // ends, so an enclosing one after what it encloses): it must come first.
  std::vector<std::size_t> order(ev.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (ev[a].begin != ev[b].begin) return ev[a].begin < ev[b].begin;
    if (ev[a].end != ev[b].end) return ev[a].end > ev[b].end;
    return a > b;
  });
  {
    std::vector<Event> sorted;
    sorted.reserve(ev.size());
    for (std::size_t i : order) sorted.push_back(ev[i]);
    ev = std::move(sorted);
  }
  const std::size_t n = ev.size();
  std::vector<int> parent(n, -1);
  std::vector<bool> has_child(n, false);
  std::vector<int> open;
  for (std::size_t i = 0; i < n; ++i) {
    while (!open.empty() && ev[static_cast<std::size_t>(open.back())].end <= ev[i].begin &&
           !(ev[static_cast<std::size_t>(open.back())].end == ev[i].begin && ev[i].end == ev[i].begin))
      open.pop_back();
    if (!open.empty() && ev[i].end <= ev[static_cast<std::size_t>(open.back())].end) {
      parent[i] = open.back();
      has_child[static_cast<std::size_t>(open.back())] = true;
    } else {
      open.clear();  // partial overlap cannot happen on one rank; treat as a new top level
    }
    open.push_back(static_cast<int>(i));
  }

  RankTimeline r;
  std::vector<int> epoch_of_event(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    if (ev[i].phase == epoch_phase) {
      epoch_of_event[i] = static_cast<int>(r.epoch_begin.size());
      r.epoch_begin.push_back(ev[i].begin);
      r.epoch_end.push_back(ev[i].end);
    } else if (parent[i] >= 0) {
      epoch_of_event[i] = epoch_of_event[static_cast<std::size_t>(parent[i])];
    }
  }
  std::vector<std::size_t> leaf_events;
  for (std::size_t i = 0; i < n; ++i)
    if (!has_child[i]) leaf_events.push_back(i);
  auto chain = [&](std::size_t i, std::vector<std::size_t>& out) {
    for (int p = parent[i]; p >= 0; p = parent[static_cast<std::size_t>(p)]) out.push_back(static_cast<std::size_t>(p));
  };
  for (std::size_t k = 0; k < leaf_events.size(); ++k) {
    const std::size_t i = leaf_events[k];
    r.leaves.push_back(ev[i]);
    r.leaf_category.push_back(cat.of_phase[static_cast<std::size_t>(ev[i].phase)]);
    r.leaf_epoch.push_back(epoch_of_event[i]);
    // The gap after this leaf: its enclosing phases and the next leaf's cut it into pieces,
    // each charged to the innermost phase around it.
    std::vector<std::size_t> around;
    chain(i, around);
    const bool last = k + 1 == leaf_events.size();
    if (!last) chain(leaf_events[k + 1], around);
    const double a = ev[i].end;
    double b = last ? a : ev[leaf_events[k + 1]].begin;
    if (last)
      for (std::size_t c : around) b = std::max(b, ev[c].end);
    std::vector<double> cuts{a, b};
    for (std::size_t c : around)
      for (double x : {ev[c].begin, ev[c].end})
        if (x > a && x < b) cuts.push_back(x);
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    std::vector<GapPiece> pieces;
    for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
      const double x = cuts[c], y = cuts[c + 1];
      int inner = -1;  // the enclosing phase that began last (laminar intervals: the innermost)
      for (std::size_t e : around)
        if (ev[e].begin <= x && ev[e].end >= y && (inner < 0 || ev[e].begin > ev[static_cast<std::size_t>(inner)].begin))
          inner = static_cast<int>(e);
      GapPiece g{x, y, cat.fallback, -1};
      if (inner >= 0) {
        g.category = cat.of_phase[static_cast<std::size_t>(ev[static_cast<std::size_t>(inner)].phase)];
        g.epoch = epoch_of_event[static_cast<std::size_t>(inner)];
      }
      // Between two epochs: the loop's bookkeeping, charged to the epoch that follows.
      if (g.epoch < 0) g.epoch = last ? epoch_of_event[i] : epoch_of_event[leaf_events[k + 1]];
      pieces.push_back(g);
    }
    r.gap_after.push_back(std::move(pieces));
  }
  r.partner_rank.assign(r.leaves.size(), -1);
  r.partner_leaf.assign(r.leaves.size(), -1);
  return r;
}

// Pairs every send with its receive (MPI's rule: per source, destination and tag, in the
// order posted), a wait with its post's partner, and the k-th collective of each rank with
// the k-th of the rank that entered it last. A call left without a partner keeps -1.
void match_partners(const Trace& t, std::vector<RankTimeline>& ranks) {
  const int nranks = static_cast<int>(ranks.size());
  std::vector<char> send_like(t.phases.size()), recv_like(t.phases.size()), wait_like(t.phases.size()),
      coll_like(t.phases.size());
  for (std::size_t p = 0; p < t.phases.size(); ++p) {
    send_like[p] = is_send_phase(t.phases[p]);
    recv_like[p] = is_receive_phase(t.phases[p]);
    wait_like[p] = is_wait_phase(t.phases[p]);
    coll_like[p] = is_collective_phase(t.phases[p]);
  }
  using Key = std::tuple<int, int, int>;  // source, destination, tag
  std::map<Key, std::vector<std::pair<int, int>>> sends, recvs;
  std::vector<std::vector<int>> collectives(static_cast<std::size_t>(nranks));
  for (int r = 0; r < nranks; ++r) {
    const auto& leaves = ranks[static_cast<std::size_t>(r)].leaves;
    // The source and tag a receive matched: its own for a blocking one, its wait's for a
    // post (which may have asked for any source or tag).
    std::map<int, std::pair<int, int>> matched_by_request;
    for (const Event& e : leaves)
      if (wait_like[static_cast<std::size_t>(e.phase)] && e.request >= 0) matched_by_request[e.request] = {e.peer, e.tag};
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      const auto ph = static_cast<std::size_t>(leaves[i].phase);
      if (send_like[ph]) {
        sends[{r, leaves[i].peer, leaves[i].tag}].emplace_back(r, static_cast<int>(i));
      } else if (recv_like[ph]) {
        auto [source, tag] = std::pair{leaves[i].peer, leaves[i].tag};
        if (const auto m = matched_by_request.find(leaves[i].request); leaves[i].request >= 0 && m != matched_by_request.end())
          std::tie(source, tag) = m->second;
        recvs[{source, r, tag}].emplace_back(r, static_cast<int>(i));
      } else if (coll_like[ph]) {
        collectives[static_cast<std::size_t>(r)].push_back(static_cast<int>(i));
      }
    }
  }
  auto link = [&](std::pair<int, int> a, std::pair<int, int> b) {
    auto& ra = ranks[static_cast<std::size_t>(a.first)];
    ra.partner_rank[static_cast<std::size_t>(a.second)] = b.first;
    ra.partner_leaf[static_cast<std::size_t>(a.second)] = b.second;
  };
  for (const auto& [key, list] : sends) {
    const auto it = recvs.find(key);
    const std::size_t matched = it == recvs.end() ? 0 : std::min(list.size(), it->second.size());
    for (std::size_t k = 0; k < matched; ++k) {
      link(list[k], it->second[k]);
      link(it->second[k], list[k]);
    }
  }
  // A wait completes the request of an earlier post on the same rank: it waits for that
  // post's partner.
  for (auto& rank : ranks) {
    std::map<int, int> post_of_request;
    for (std::size_t i = 0; i < rank.leaves.size(); ++i) {
      const Event& e = rank.leaves[i];
      const auto ph = static_cast<std::size_t>(e.phase);
      if ((send_like[ph] || recv_like[ph]) && e.request >= 0) post_of_request[e.request] = static_cast<int>(i);
      if (wait_like[ph]) {
        const auto it = post_of_request.find(e.request);
        if (it == post_of_request.end()) continue;
        rank.partner_rank[i] = rank.partner_rank[static_cast<std::size_t>(it->second)];
        rank.partner_leaf[i] = rank.partner_leaf[static_cast<std::size_t>(it->second)];
      }
    }
  }
  // Collectives: all ranks call them in the same order.
  std::size_t common = collectives.empty() ? 0 : collectives[0].size();
  for (const auto& c : collectives) common = std::min(common, c.size());
  for (std::size_t k = 0; k < common; ++k) {
    int last = 0;
    for (int r = 1; r < nranks; ++r)
      if (ranks[static_cast<std::size_t>(r)].leaves[static_cast<std::size_t>(collectives[static_cast<std::size_t>(r)][k])].begin >
          ranks[static_cast<std::size_t>(last)].leaves[static_cast<std::size_t>(collectives[static_cast<std::size_t>(last)][k])].begin)
        last = r;
    for (int r = 0; r < nranks; ++r)
      link({r, collectives[static_cast<std::size_t>(r)][k]}, {last, collectives[static_cast<std::size_t>(last)][k]});
  }
}

}  // namespace

Trace from_gathered(const GatheredTrace& g) {
  Trace t;
  t.phases = g.kinds;
  for (const auto& events : g.per_rank) {
    auto& out = t.ranks.emplace_back();
    out.reserve(events.size());
    for (const TraceEvent& e : events) {
      Event ev;
      ev.begin = e.t_begin;
      ev.end = e.t_end;
      ev.phase = e.kind;
      ev.peer = e.peer;
      ev.tag = e.tag;
      ev.bytes = e.bytes;
      ev.request = e.request;
      out.push_back(ev);
    }
  }
  return t;
}

bool is_send_phase(const std::string& p) { return p == comm_phase::kSend || p == comm_phase::kIsend; }
bool is_receive_phase(const std::string& p) { return p == comm_phase::kRecv || p == comm_phase::kIrecv; }
bool is_post_phase(const std::string& p) { return p == comm_phase::kIsend || p == comm_phase::kIrecv; }
bool is_wait_phase(const std::string& p) { return p == comm_phase::kWait; }
bool is_collective_phase(const std::string& p) {
  return p == comm_phase::kAllreduce || p == comm_phase::kBarrier || p == comm_phase::kBcast;
}

double Result::total(const std::string& category) const {
  const auto it = std::find(categories.begin(), categories.end(), category);
  if (it == categories.end()) return 0.0;
  const auto c = static_cast<std::size_t>(it - categories.begin());
  double s = 0.0;
  for (const auto& e : seconds) s += e[c];
  return s;
}

Result walk(const Trace& trace, const Rules& rules) {
  const Categories cat = categorise(trace, rules);
  Result res;
  res.categories = cat.names;
  const auto epoch_it = std::find(trace.phases.begin(), trace.phases.end(), rules.epoch_phase);
  if (epoch_it == trace.phases.end() || trace.ranks.empty()) return res;
  const int epoch_phase = static_cast<int>(epoch_it - trace.phases.begin());

  std::vector<RankTimeline> ranks;
  for (const auto& events : trace.ranks) ranks.push_back(prepare(events, cat, epoch_phase));
  std::size_t epochs = ranks[0].epoch_begin.size();
  for (const auto& r : ranks) epochs = std::min(epochs, r.epoch_begin.size());
  if (epochs == 0) return res;

  // Which leaves can have waited for their partner (see the header).
  std::vector<char> posts(trace.phases.size()), sends(trace.phases.size());
  for (std::size_t p = 0; p < trace.phases.size(); ++p) {
    posts[p] = is_post_phase(trace.phases[p]);
    sends[p] = trace.phases[p] == comm_phase::kSend;
  }
  auto can_wait = [&](const Event& e) {
    const auto ph = static_cast<std::size_t>(e.phase);
    if (posts[ph]) return false;
    return !sends[ph] || e.bytes >= rules.send_waits_from_bytes;
  };

  match_partners(trace, ranks);
  // Calls of the walked epochs whose partner the trace does not hold.
  for (const RankTimeline& R : ranks)
    for (std::size_t i = 0; i < R.leaves.size(); ++i) {
      const std::string& ph = trace.phases[static_cast<std::size_t>(R.leaves[i].phase)];
      const bool communicates = is_send_phase(ph) || is_receive_phase(ph) || is_wait_phase(ph) || is_collective_phase(ph);
      if (communicates && R.partner_rank[i] < 0 && R.leaf_epoch[i] >= 0 && static_cast<std::size_t>(R.leaf_epoch[i]) < epochs)
        ++res.unmatched;
    }
  res.seconds.assign(epochs, std::vector<double>(cat.names.size(), 0.0));

  // Start where the last complete epoch ended last.
  int r = 0;
  for (int q = 1; q < static_cast<int>(ranks.size()); ++q)
    if (ranks[static_cast<std::size_t>(q)].epoch_end[epochs - 1] > ranks[static_cast<std::size_t>(r)].epoch_end[epochs - 1]) r = q;
  double t = ranks[static_cast<std::size_t>(r)].epoch_end[epochs - 1];

  auto charge = [&](int epoch, int category, double from, double to, int phase) {
    if (epoch < 0 || to <= from) return;
    const std::size_t e = std::min<std::size_t>(static_cast<std::size_t>(epoch), epochs - 1);
    res.seconds[e][static_cast<std::size_t>(category)] += to - from;
    res.path.push_back({r, from, to, category, static_cast<int>(e), phase});
  };
  for (;;) {
    const RankTimeline& R = ranks[static_cast<std::size_t>(r)];
    if (t <= R.epoch_begin[0]) break;
    // The last leaf that began before t.
    const auto it = std::lower_bound(R.leaves.begin(), R.leaves.end(), t,
                                     [](const Event& e, double x) { return e.begin < x; });
    if (it == R.leaves.begin()) break;
    const std::size_t i = static_cast<std::size_t>(it - R.leaves.begin()) - 1;
    const Event& leaf = R.leaves[i];
    ++res.steps;
    if (leaf.end < t) {  // in the gap after it: each piece to the phase around it
      const auto& pieces = R.gap_after[i];
      for (auto g = pieces.rbegin(); g != pieces.rend(); ++g) {
        const double from = std::max({g->begin, leaf.end, R.epoch_begin[0]}), to = std::min(g->end, t);
        charge(g->epoch, g->category, from, to, -1);
      }
      t = leaf.end;
      continue;
    }
    const int epoch = R.leaf_epoch[i];
    const int pr = R.partner_rank[i];
    if (pr >= 0) {
      const Event& partner = ranks[static_cast<std::size_t>(pr)].leaves[static_cast<std::size_t>(R.partner_leaf[i])];
      if (can_wait(leaf) && partner.begin > leaf.begin && partner.begin < t) {  // it waited for its partner
        charge(epoch, R.leaf_category[i], partner.begin, t, leaf.phase);
        r = pr;
        t = partner.begin;
        continue;
      }
    }
    charge(epoch, R.leaf_category[i], leaf.begin, t, leaf.phase);
    t = leaf.begin;
  }
  for (const auto& e : res.seconds) {
    double s = 0.0;
    for (double x : e) s += x;
    res.epoch_length.push_back(s);
  }
  return res;
}

}  // namespace instrument::critical_path
