// The replay engine: simulate() advances every rank of a Program through its operations under
// the LogGOPS semantics documented in replay.hpp.
//
// Without contention every time an operation gets depends only on its rank's own clock and
// NIC and on its matched partner (or, for a collective, on every rank's call). So the engine
// runs a rank until it blocks on a partner not yet simulated and wakes it when the partner
// gets there (a work list, last in first out: no priority queue, and a rank runs many
// operations in a row while its state is in cache). The order changes no result.
//
// With contention the node's link is granted in the order of the requests' keys (inj0, the
// sending rank, the send's index in its program), so grants must be made in key order. The
// key is the message's own: known when the request is made, whichever side's call made it
// (a seq in the order requests happen to be made would tie-break by processing order, which
// differs between the two loops below). The requests wait in a priority queue and the
// smallest key is granted only when no rank can run. That is exact: no rank running, every
// later request is made by a rank woken by this grant or a later one, so running from a
// clock >= this grant's time t, and every request lies T1 >= o' > 0 after the call that
// makes it: at inj0 > t, a larger key than any pending one. (check_machine refuses o' <= 0.)
// The ranks still run in causal order in between.
//
// Options::time_ordered processes everything (ranks too) from one queue in time order: the
// textbook discrete-event loop, slower, kept as the reference the unit tests compare with.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <queue>
#include <stdexcept>
#include <string>
#include <vector>

#include "instrument/collective_model.hpp"
#include "instrument/replay.hpp"
#include "replay_engine_index.hpp"
#include "replay_engine_state.hpp"
#include "replay_engine_text.hpp"

namespace instrument::replay {

namespace {

using detail::Block;
using detail::CachedChannel;
using detail::Event;
using detail::kCachedChannels;
using detail::Channel;
using detail::FlatIndex;
using detail::IndexKey;
using detail::Message;
using detail::OpenCollective;
using detail::RankState;
using namespace detail;  // the message flags

constexpr const char* kKindNames[] = {"compute", "send", "recv",      "isend", "irecv",
                                      "wait",    "barrier", "allreduce", "bcast"};
constexpr int kCollectiveKind0 = 6;  // kKindNames index of Collective::barrier

void check_machine(const Machine& m) {
  // o' > 0 makes every link request later than the call that makes it (the causal loop's
  // grants rely on it); loggps::validate refuses o' <= 0 too.
  if (!(m.net.o_prime > 0.0) || !std::isfinite(m.net.o_prime)) {
    throw std::invalid_argument("replay: machine overhead o' must be finite and > 0");
  }
  for (const double x : {m.net.L, m.net.O_s, m.net.O_r, m.net.G_s, m.net.G_l}) {
    if (!(x >= 0.0) || !std::isfinite(x)) {
      throw std::invalid_argument("replay: machine L, O_s, O_r, G_s, G_l must be finite and >= 0");
    }
  }
  if (!(m.g >= 0.0) || !std::isfinite(m.g)) {
    throw std::invalid_argument("replay: machine gap g must be finite and >= 0");
  }
  if (m.ranks_per_node < 0) throw std::invalid_argument("replay: ranks_per_node must be >= 0");
  if (m.ranks_per_node > 0 && !(m.node_bytes_per_second > 0.0)) {
    throw std::invalid_argument("replay: contention needs node_bytes_per_second > 0");
  }
}

class Engine {
 public:
  Engine(const Program& program, const Machine& machine, const Options& options)
      : program_(program), m_(machine), net_(machine.net), keep_(options.keep_timeline),
        contention_(machine.ranks_per_node > 0), time_ordered_(options.time_ordered),
        P_(program.ranks()) {
    ranks_.resize(static_cast<std::size_t>(P_));
    result_.ranks.resize(static_cast<std::size_t>(P_));
    for (int r = 0; r < P_; ++r) {
      ranks_[static_cast<std::size_t>(r)].size = program.size(r);
      if (ranks_[static_cast<std::size_t>(r)].size < 0) {
        throw ReplayError(r, 0, "replay: rank " + std::to_string(r) + " has a negative size");
      }
    }
    if (contention_) {
      link_free_.assign(static_cast<std::size_t>((P_ + m_.ranks_per_node - 1) / m_.ranks_per_node),
                        0.0);
    }
    if (keep_) {
      result_.timeline.kinds.assign(std::begin(kKindNames), std::end(kKindNames));
      result_.timeline.per_rank.resize(static_cast<std::size_t>(P_));
      result_.timeline.dropped.assign(static_cast<std::size_t>(P_), 0);
    }
    collective_.waiting.reserve(static_cast<std::size_t>(P_));
    messages_.reserve(1024);
  }

  Result run() {
    if (time_ordered_) {
      run_time_ordered();
    } else {
      run_causal();
    }
    if (ended_ < P_) report_stuck();
    report_unmatched();
    for (const RankTotals& t : result_.ranks) {
      result_.total = std::max(result_.total, t.end);
      result_.events += t.ops;
    }
    return std::move(result_);
  }

 private:
  RankState& rank(int r) { return ranks_[static_cast<std::size_t>(r)]; }
  Message& msg(std::int32_t i) { return messages_[static_cast<std::size_t>(i)]; }

  // ---- processing orders ---------------------------------------------------------------

  void run_causal() {
    ready_.reserve(static_cast<std::size_t>(P_));
    for (int r = P_ - 1; r >= 0; --r) ready_.push_back(r);  // rank 0 first
    for (;;) {
      while (!ready_.empty()) {
        const int r = ready_.back();
        ready_.pop_back();
        RankState& st = rank(r);
        bool running = true;
        while (running && st.next < st.size) running = step(r);
        if (running) end_rank(r);
      }
      if (events_.empty()) return;
      const Event e = events_.top();  // contention: no rank can run, grant the smallest key
      events_.pop();
      grant_link(e.id);
    }
  }

  void run_time_ordered() {
    for (int r = 0; r < P_; ++r) events_.push(Event{0.0, false, r, seq_++, r});
    while (!events_.empty()) {
      const Event e = events_.top();
      events_.pop();
      if (e.link) {
        grant_link(e.id);
        continue;
      }
      const int r = e.id;
      RankState& st = rank(r);
      bool running = true;
      while (st.next < st.size) {
        if (!events_.empty() && st.t > events_.top().time) {  // someone else is earlier
          events_.push(Event{st.t, false, r, seq_++, r});
          running = false;
          break;
        }
        if (!step(r)) {
          running = false;
          break;
        }
      }
      if (running) end_rank(r);
    }
  }

  void make_ready(int r) {
    rank(r).block = Block::ready;
    if (time_ordered_) {
      events_.push(Event{rank(r).t, false, r, seq_++, r});
    } else {
      ready_.push_back(r);
    }
  }

  void end_rank(int r) {
    RankState& st = rank(r);
    st.block = Block::ended;
    result_.ranks[static_cast<std::size_t>(r)].end = st.t;
    ++ended_;
  }

  // ---- one operation -------------------------------------------------------------------

  // Runs rank r's next operation from its clock; false when the rank blocked.
  bool step(int r) {
    RankState& st = rank(r);
    const Op op = program_.op(r, st.next);
    const double t = st.t;
    check_op(r, st.next, op);
    switch (op.kind) {
      case OpKind::compute:
        finish(r, op, t, t + op.seconds, nullptr);
        return true;
      case OpKind::send:
      case OpKind::isend:
        return send(r, op, t);
      case OpKind::recv:
      case OpKind::irecv:
        return receive(r, op, t);
      case OpKind::wait:
        return wait(r, op, t);
      case OpKind::collective:
        arrive_at_collective(r, op, t);
        return false;
    }
    return true;  // unreachable: check_op refused other kinds
  }

  bool send(int r, const Op& op, double t) {
    RankState& st = rank(r);
    const std::int32_t mi = match(op.peer, r, op.tag, true);
    {
      Message& m = msg(mi);
      m.flags |= kHasSend | kSenderHolds;  // held: a partner woken below must not free it
      m.t_send = t;
      m.nic_at_send = st.nic_free;
      m.bytes = op.bytes;
      m.send_op = st.next;
    }
    const bool eager = !loggps::is_synchronous(net_, op.bytes);
    if (eager) {
      resolve(mi);
      st.nic_free = nic_after(msg(mi).inj0, op.bytes);
    } else if (msg(mi).flags & kHasRecv) {
      resolve(mi);
    }
    Message& m = msg(mi);
    if (op.kind == OpKind::isend) {
      post_request(r, op, mi, 0);
      finish(r, op, t, t + net_.o_prime, nullptr);
      return true;
    }
    if (m.flags & kInjected) {
      if (!eager) st.nic_free = nic_after(m.inj0, m.bytes);
      const double end = send_done(m);
      m.flags &= static_cast<std::uint16_t>(~kSenderHolds);
      maybe_free(mi);
      finish(r, op, t, end, nullptr);
      return true;
    }
    m.flags |= kSenderWaits;
    block(r, Block::send, mi, op, t);
    return false;
  }

  bool receive(int r, const Op& op, double t) {
    RankState& st = rank(r);
    const std::int32_t mi = match(r, op.peer, op.tag, false);
    {
      Message& m = msg(mi);
      m.flags |= kHasRecv | kReceiverHolds;  // held: a partner woken below must not free it
      m.t_post = t;
      m.recv_op = st.next;
      if (!(m.flags & kHasSend)) {
        m.bytes = op.bytes;
      } else if (!(m.flags & (kInjected | kLinkPending))) {
        resolve(mi);  // a rendezvous send was waiting for this post
      }
    }
    Message& m = msg(mi);
    if (op.kind == OpKind::irecv) {
      post_request(r, op, mi, 1);
      finish(r, op, t, t + net_.o_prime, nullptr);
      return true;
    }
    if (m.flags & kInjected) {
      const double end = std::max(t, m.arrival) + loggps::T3(net_, m.bytes);
      m.flags &= static_cast<std::uint16_t>(~kReceiverHolds);
      maybe_free(mi);
      finish(r, op, t, end, nullptr);
      return true;
    }
    m.flags |= kReceiverWaits;
    block(r, Block::recv, mi, op, t);
    return false;
  }

  bool wait(int r, const Op& op, double t) {
    const IndexKey key = request_key(r, op.request);
    const std::int32_t v = requests_.find(key);
    if (v == FlatIndex::kNone) {
      fail(r, rank(r).next, op,
           "wait on request " + std::to_string(op.request) +
               ", which is not outstanding (never posted by an isend/irecv, or already waited)");
    }
    requests_.erase(key);
    const std::int32_t mi = v >> 1;
    const bool is_send = (v & 1) == 0;
    Message& m = msg(mi);
    if (m.flags & kInjected) {
      const double end = std::max(t + net_.o_prime, is_send ? send_done(m) : receive_done(m));
      m.flags &= static_cast<std::uint16_t>(~(is_send ? kSenderHolds : kReceiverHolds));
      finish(r, op, t, end, &m);
      maybe_free(mi);
      return true;
    }
    m.flags |= is_send ? kSenderWaits : kReceiverWaits;
    block(r, is_send ? Block::wait_send : Block::wait_recv, mi, op, t);
    return false;
  }

  void arrive_at_collective(int r, const Op& op, double t) {
    RankState& st = rank(r);
    OpenCollective& c = collective_;
    if (c.arrived == 0) {
      c.first = op;
      c.first_rank = r;
      c.first_index = st.next;
      c.latest_call = t;
    } else if (op.collective != c.first.collective || op.bytes != c.first.bytes ||
               (op.collective == Collective::bcast && op.peer != c.first.peer)) {
      fail(r, st.next, op,
           "collective mismatch: as collective number " + std::to_string(st.collectives + 1) +
               " " + detail::op_place(program_, c.first_rank, c.first_index, c.first) +
               " is called instead");
    }
    c.latest_call = std::max(c.latest_call, t);
    ++c.arrived;
    ++st.collectives;
    c.waiting.push_back(r);
    st.t_call = t;
    st.op = op;
    st.block = Block::collective;
    if (c.arrived < P_) return;
    const double end = c.latest_call + collective_seconds(c.first);
    for (const int q : c.waiting) {
      RankState& sq = rank(q);
      finish(q, sq.op, sq.t_call, end, nullptr);
      make_ready(q);
    }
    c.waiting.clear();
    c.arrived = 0;
  }

  double collective_seconds(const Op& op) const {
    switch (op.collective) {
      case Collective::barrier:
        return allreduce_seconds(P_, loggps::communication_cost(net_, 0));
      case Collective::allreduce:
        return allreduce_seconds(P_, loggps::communication_cost(net_, op.bytes));
      case Collective::bcast: {
        int rounds = 0;
        while ((std::int64_t{1} << rounds) < P_) ++rounds;  // ceil(log2 P)
        return rounds * loggps::communication_cost(net_, op.bytes);
      }
    }
    return 0.0;
  }

  // ---- messages ------------------------------------------------------------------------

  // The message a call of one side takes: the first queued call of the other side on
  // (dst, src, tag), else a new record queued for the other side to find (MPI's
  // non-overtaking order: the i-th send matches the i-th receive).
  std::int32_t match(int dst, int src, std::int32_t tag, bool as_send) {
    const std::int32_t ci = channel_of(dst, src, tag, as_send);
    Channel& ch = channels_[static_cast<std::size_t>(ci)];
    if (ch.head != -1) {
      Message& h = msg(ch.head);
      const bool head_is_send = (h.flags & kHasSend) != 0;
      if (head_is_send != as_send) {
        const std::int32_t mi = ch.head;
        ch.head = h.next;
        if (ch.head == -1) ch.tail = -1;
        h.next = -1;
        h.flags &= static_cast<std::uint16_t>(~kQueued);
        return mi;
      }
    }
    const std::int32_t mi = allocate();
    Message& m = msg(mi);
    m.src = src;
    m.dst = dst;
    m.tag = tag;
    m.flags = kLive | kQueued;
    Channel& c = channels_[static_cast<std::size_t>(ci)];  // allocate() kept channels_
    if (c.tail == -1) {
      c.head = mi;
    } else {
      msg(c.tail).next = mi;
    }
    c.tail = mi;
    return mi;
  }

  // The channel (dst, src, tag), seen from the rank calling (src for a send).
  std::int32_t channel_of(int dst, int src, std::int32_t tag, bool as_send) {
    RankState& self = rank(as_send ? src : dst);
    const std::int32_t side = as_send ? dst : -2 - src;
    for (const CachedChannel& c : self.cached) {
      if (c.side == side && c.tag == tag) return c.channel;
    }
    std::int32_t& slot = channel_index_.at(
        IndexKey{(static_cast<std::uint64_t>(static_cast<std::uint32_t>(dst)) << 32) |
                     static_cast<std::uint32_t>(src),
                 tag});
    if (slot == FlatIndex::kNone) {
      slot = static_cast<std::int32_t>(channels_.size());
      channels_.push_back(Channel{});
    }
    self.cached[self.cache_next] = CachedChannel{side, tag, slot};
    self.cache_next = static_cast<std::uint8_t>((self.cache_next + 1) % kCachedChannels);
    return slot;
  }

  std::int32_t allocate() {
    if (free_ != -1) {
      const std::int32_t mi = free_;
      free_ = msg(mi).next;
      messages_[static_cast<std::size_t>(mi)] = Message{};
      return mi;
    }
    if (messages_.size() >= (std::size_t{1} << 30)) {
      throw std::length_error("replay: more than 2^30 messages in flight at once");
    }
    messages_.emplace_back();
    return static_cast<std::int32_t>(messages_.size() - 1);
  }

  void maybe_free(std::int32_t mi) {
    Message& m = msg(mi);
    constexpr std::uint16_t kHeld = kQueued | kSenderHolds | kReceiverHolds | kLinkPending;
    if (!(m.flags & kLive) || (m.flags & kHeld)) return;
    m.flags = 0;
    m.next = free_;
    free_ = mi;
  }

  // The injection start once it is determined (an eager send at its call, a rendezvous send
  // once both sides have called): from the sender's NIC, then through the node's link.
  void resolve(std::int32_t mi) {
    Message& m = msg(mi);
    double ready = m.t_send;
    if (loggps::is_synchronous(net_, m.bytes)) {  // the handshake: REQ, the post, ACK
      ready = std::max(m.t_send + net_.o_prime + net_.L, m.t_post) + net_.o_prime +
              loggps::T5(net_);
    }
    m.inj0 = std::max(ready + loggps::T1(net_, m.bytes), m.nic_at_send);
    if (contention_ && m.src / m_.ranks_per_node != m.dst / m_.ranks_per_node) {
      m.flags |= kLinkPending;
      events_.push(Event{m.inj0, true, m.src, static_cast<std::uint64_t>(m.send_op), mi});
      return;
    }
    inject(mi, m.inj0);
  }

  void grant_link(std::int32_t mi) {
    Message& m = msg(mi);
    double& link = link_free_[static_cast<std::size_t>(m.src / m_.ranks_per_node)];
    const double inj = std::max(m.inj0, link);
    link = inj + static_cast<double>(m.bytes) / m_.node_bytes_per_second;
    inject(mi, inj);  // still held by kLinkPending while the woken ranks read it
    msg(mi).flags &= static_cast<std::uint16_t>(~kLinkPending);
    maybe_free(mi);
  }

  void inject(std::int32_t mi, double inj) {
    Message& m = msg(mi);
    m.inj = inj;
    m.arrival = inj + loggps::T2_for(net_, m.bytes);
    m.flags |= kInjected;
    if (m.flags & kSenderWaits) wake(m.src, mi);
    if (msg(mi).flags & kReceiverWaits) wake(msg(mi).dst, mi);
  }

  // Completes the operation rank r is blocked in, now that message mi is injected.
  void wake(int r, std::int32_t mi) {
    RankState& st = rank(r);
    Message& m = msg(mi);
    double end = 0.0;
    const Message* for_wait = nullptr;
    switch (st.block) {
      case Block::send:
        end = send_done(m);
        if (loggps::is_synchronous(net_, m.bytes)) st.nic_free = nic_after(m.inj0, m.bytes);
        m.flags &= static_cast<std::uint16_t>(~(kSenderWaits | kSenderHolds));
        break;
      case Block::wait_send:
        end = std::max(st.t_call + net_.o_prime, send_done(m));
        m.flags &= static_cast<std::uint16_t>(~(kSenderWaits | kSenderHolds));
        for_wait = &m;
        break;
      case Block::recv:
        end = std::max(st.t_call, m.arrival) + loggps::T3(net_, m.bytes);
        m.flags &= static_cast<std::uint16_t>(~(kReceiverWaits | kReceiverHolds));
        break;
      case Block::wait_recv:
        end = std::max(st.t_call + net_.o_prime, receive_done(m));
        m.flags &= static_cast<std::uint16_t>(~(kReceiverWaits | kReceiverHolds));
        for_wait = &m;
        break;
      default:
        return;
    }
    finish(r, st.op, st.t_call, end, for_wait);
    maybe_free(mi);
    make_ready(r);
  }

  // When the sender's blocking send or wait returns: once the injection has started (the
  // paper), or once the data is in (a rendezvous that returns after the transfer, measured
  // by the probe: loggps.rendezvous_send).
  double send_done(const Message& m) const {
    const bool after_transfer = net_.send_returns == loggps::SendReturns::after_transfer &&
                                loggps::is_synchronous(net_, m.bytes);
    return after_transfer ? m.arrival : m.inj;
  }

  double receive_done(const Message& m) const {
    return std::max(m.t_post, m.arrival) + loggps::T3(net_, m.bytes);
  }

  // When the NIC can start the next injection: after the gap, and after this message's
  // bytes have left (T2 - L of them).
  double nic_after(double inj, std::int64_t bytes) const {
    return std::max(inj + m_.g, inj + loggps::T2_for(net_, bytes) - net_.L);
  }

  static IndexKey request_key(int r, std::int32_t request) {
    return IndexKey{static_cast<std::uint64_t>(static_cast<std::uint32_t>(r)),
                    request};
  }

  void post_request(int r, const Op& op, std::int32_t mi, int side) {
    std::int32_t& v = requests_.at(request_key(r, op.request));
    if (v != FlatIndex::kNone) {
      const Message& old = msg(v >> 1);
      const std::int64_t at = (v & 1) == 0 ? old.send_op : old.recv_op;
      fail(r, rank(r).next, op,
           "request " + std::to_string(op.request) + " posted again while outstanding (" +
               program_.describe(r, at) + " posted it and no wait completed it)");
    }
    v = mi * 2 + side;
  }

  void block(int r, Block why, std::int32_t mi, const Op& op, double t) {
    RankState& st = rank(r);
    st.block = why;
    st.message = mi;
    st.op = op;
    st.t_call = t;
  }

  // Books a completed operation: totals, timeline, the rank's clock and position.
  void finish(int r, const Op& op, double begin, double end, const Message* waited) {
    RankState& st = rank(r);
    if (!std::isfinite(end)) clock_not_finite(r, op, end);  // every later time derives from clocks
    RankTotals& tot = result_.ranks[static_cast<std::size_t>(r)];
    const double d = end - begin;
    switch (op.kind) {
      case OpKind::compute: tot.compute += d; break;
      case OpKind::send:
      case OpKind::isend: tot.send += d; break;
      case OpKind::recv:
      case OpKind::irecv: tot.receive += d; break;
      case OpKind::wait: tot.wait += d; break;
      case OpKind::collective: tot.collective += d; break;
    }
    ++tot.ops;
    st.t = end;
    ++st.next;
    if (keep_) record(r, op, begin, end, waited);
  }

  void record(int r, const Op& op, double begin, double end, const Message* waited) {
    TraceEvent e;
    e.t_begin = begin;
    e.t_end = end;
    if (op.kind == OpKind::collective) {
      e.kind = kCollectiveKind0 + static_cast<int>(op.collective);
      e.bytes = op.bytes;
      if (op.collective == Collective::bcast) e.peer = op.peer;
    } else {
      e.kind = static_cast<int>(op.kind);
    }
    if (op.kind == OpKind::compute) e.work = op.work;
    if (op.kind != OpKind::compute && op.kind != OpKind::collective) {
      e.peer = op.peer;
      e.bytes = op.bytes;
      e.tag = op.tag;
      if (op.kind == OpKind::isend || op.kind == OpKind::irecv || op.kind == OpKind::wait) {
        e.request = op.request;
      }
    }
    if (waited != nullptr) {
      e.peer = waited->src == r ? waited->dst : waited->src;
      e.bytes = waited->bytes;
      e.tag = waited->tag;
    }
    result_.timeline.per_rank[static_cast<std::size_t>(r)].push_back(e);
  }

  // ---- errors --------------------------------------------------------------------------

  [[noreturn]] void fail(int r, std::int64_t index, const Op& op, const std::string& what) const {
    throw ReplayError(r, index, "replay: " + detail::op_place(program_, r, index, op) + ": " + what);
  }

  // Out of line and cold: finish() runs once per operation and stays small.
  [[noreturn, gnu::cold, gnu::noinline]] void clock_not_finite(int r, const Op& op, double end) const {
    fail(r, ranks_[static_cast<std::size_t>(r)].next, op,
         "its clock is no longer finite (" + detail::seconds_text(end) +
             " at the end of this operation): the times overflow a double");
  }

  void check_op(int r, std::int64_t index, const Op& op) const {
    const auto bad = [&](const std::string& what) { fail(r, index, op, what); };
    switch (op.kind) {
      case OpKind::compute:
        if (!(op.seconds >= 0.0 && op.seconds <= kMaxComputeSeconds)) {
          bad("expected a compute cost in [0, 1e9] s");
        }
        return;
      case OpKind::send:
      case OpKind::recv:
      case OpKind::isend:
      case OpKind::irecv:
        if (op.peer < 0 || op.peer >= P_) {
          bad("expected a peer rank in [0, " + std::to_string(P_ - 1) + "]");
        }
        if (op.tag < 0) bad("expected a tag >= 0");
        if (op.bytes < 0 || op.bytes > kMaxMessageBytes) bad("expected a message size in [0, 2^50] B");
        if ((op.kind == OpKind::isend || op.kind == OpKind::irecv) && op.request < 0) {
          bad("expected a request id >= 0");
        }
        return;
      case OpKind::wait:
        if (op.request < 0) bad("expected a request id >= 0");
        return;
      case OpKind::collective:
        if (static_cast<int>(op.collective) > static_cast<int>(Collective::bcast)) {
          bad("expected a barrier, allreduce or bcast");
        }
        if (op.bytes < 0 || op.bytes > kMaxMessageBytes) bad("expected a message size in [0, 2^50] B");
        if (op.collective == Collective::bcast && (op.peer < 0 || op.peer >= P_)) {
          bad("expected a root rank in [0, " + std::to_string(P_ - 1) + "]");
        }
        return;
    }
    bad("expected an operation kind of replay.hpp");
  }

  // No rank can move while some have operations left: name the first rank waiting for one
  // that has ended (an unmatched operation), else report the deadlock.
  [[noreturn]] void report_stuck() {
    int first = -1;
    for (int r = 0; r < P_; ++r) {
      const RankState& st = rank(r);
      if (st.block == Block::ended) continue;
      if (first == -1) first = r;
      if (st.block == Block::collective) {
        for (int q = 0; q < P_; ++q) {
          if (rank(q).block == Block::ended) {
            fail(r, st.next, st.op,
                 "rank " + std::to_string(q) + " ended after " +
                     std::to_string(rank(q).collectives) + " collectives, without calling this one (number " +
                     std::to_string(st.collectives) + ")");
          }
        }
        continue;
      }
      const Message& m = msg(st.message);
      const bool needs_send = st.block == Block::recv || st.block == Block::wait_recv;
      const int partner = needs_send ? m.src : m.dst;
      if (rank(partner).block != Block::ended) continue;
      std::string what = needs_send ? "no matching send" : "no matching receive";
      what += " (rank " + std::to_string(partner) + " ended)";
      if (st.block == Block::wait_recv || st.block == Block::wait_send) {
        const std::int64_t at = needs_send ? m.recv_op : m.send_op;
        what = "the request's " + detail::op_place(program_, r, at, program_.op(r, at)) +
               " has " + what;
      }
      fail(r, st.next, st.op, what);
    }
    std::string what = "deadlock: no rank can move";
    int listed = 0;
    for (int r = first + 1; r < P_; ++r) {
      const RankState& st = rank(r);
      if (st.block == Block::ended) continue;
      if (listed == 3) {
        what += "; ...";
        break;
      }
      what += listed == 0 ? " (also waiting: " : "; ";
      what += detail::op_place(program_, r, st.next, st.op);
      ++listed;
    }
    if (listed > 0) what += ")";
    const RankState& st = rank(first);
    fail(first, st.next, st.op, what);
  }

  // Every rank ended: a send or posted receive still queued was never matched.
  void report_unmatched() {
    const Message* worst = nullptr;
    auto owner = [](const Message& m) { return (m.flags & kHasSend) ? m.src : m.dst; };
    auto index = [](const Message& m) { return (m.flags & kHasSend) ? m.send_op : m.recv_op; };
    for (const Message& m : messages_) {
      if (!(m.flags & kQueued)) continue;
      if (worst == nullptr || owner(m) < owner(*worst) ||
          (owner(m) == owner(*worst) && index(m) < index(*worst))) {
        worst = &m;
      }
    }
    if (worst == nullptr) return;
    const int r = owner(*worst);
    const std::int64_t i = index(*worst);
    const bool is_send = (worst->flags & kHasSend) != 0;
    fail(r, i, program_.op(r, i),
         std::string(is_send ? "no matching receive" : "no matching send") + " (rank " +
             std::to_string(is_send ? worst->dst : worst->src) + " ended)");
  }

  const Program& program_;
  const Machine& m_;
  const loggps::LogGpsParams& net_;
  const bool keep_;
  const bool contention_;
  const bool time_ordered_;
  const int P_;

  std::vector<RankState> ranks_;
  std::vector<Message> messages_;
  std::int32_t free_ = -1;
  std::vector<Channel> channels_;
  FlatIndex channel_index_;
  FlatIndex requests_;
  OpenCollective collective_;
  std::vector<double> link_free_;
  std::vector<int> ready_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
  std::uint64_t seq_ = 0;
  int ended_ = 0;
  Result result_;
};

}  // namespace

Result simulate(const Program& program, const Machine& machine, const Options& options) {
  const auto start = std::chrono::steady_clock::now();
  check_machine(machine);
  Engine engine(program, machine, options);
  Result result = engine.run();
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace instrument::replay
