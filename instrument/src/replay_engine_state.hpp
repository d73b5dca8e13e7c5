// The replay engine's state: one record per message, one per rank, the open collective, the
// queue's entries. Internal (replay_engine.cpp; replay_memory.cpp counts their bytes).
#pragma once
#include <climits>
#include <cstdint>
#include <vector>

#include "instrument/replay.hpp"

namespace instrument::replay::detail {

// Message flags. A message is one send matched with one receive; its record is made by
// whichever side the engine reaches first and freed when no side, queue or link holds it.
enum MessageFlag : std::uint16_t {
  kLive = 1u << 0,
  kHasSend = 1u << 1,        // the send was called: t_send, nic_at_send, bytes are set
  kHasRecv = 1u << 2,        // the receive was posted: t_post is set
  kInjected = 1u << 3,       // inj and arrival are known
  kLinkPending = 1u << 4,    // contention: waiting for the node's link (an event is queued)
  kQueued = 1u << 5,         // in its channel's queue, waiting for the other side
  kSenderHolds = 1u << 6,    // the sender will read it again (its wait, or it is blocked)
  kReceiverHolds = 1u << 7,  // the receiver will read it again
  kSenderWaits = 1u << 8,    // the sender is blocked on kInjected
  kReceiverWaits = 1u << 9,  // the receiver is blocked on kInjected
};

struct Message {
  double t_send = 0.0;       // the send's call
  double nic_at_send = 0.0;  // the sender's nic_free at that call
  double t_post = 0.0;       // the receive's call (or post)
  double inj0 = 0.0;         // injection start without the node link
  double inj = 0.0;          // injection start
  double arrival = 0.0;      // last byte in
  std::int64_t bytes = 0;    // the send's (the receive's until the send is seen)
  std::int64_t send_op = -1, recv_op = -1;
  std::int32_t src = 0, dst = 0, tag = 0;
  std::int32_t next = -1;    // channel queue, or the free list
  std::uint16_t flags = 0;
};

// A channel: the unmatched messages from src to dst with one tag, in program order (they are
// all sends or all receives: a queued side is taken by the first call of the other side).
struct Channel {
  std::int32_t head = -1, tail = -1;
};

// Why a rank is not running.
enum class Block : std::uint8_t { ready, send, recv, wait_send, wait_recv, collective, ended };

// A channel a rank called on recently: `side` is the partner for a send, -2 - partner for a
// receive. A rank of a stencil or a sweep talks to a handful of neighbours, so a few entries
// kept beside its clock spare most lookups in the (large, cache-missing) channel index.
struct CachedChannel {
  std::int32_t side = INT32_MIN;
  std::int32_t tag = 0;
  std::int32_t channel = -1;
};
constexpr int kCachedChannels = 4;

struct RankState {
  double t = 0.0;         // its CPU is free from t: the next operation's call time
  double nic_free = 0.0;  // its next injection cannot start before
  double t_call = 0.0;    // the call time of the operation it is blocked in
  std::int64_t next = 0;  // index of its next (or current, when blocked) operation
  std::int64_t size = 0;
  std::int64_t collectives = 0;  // collectives called so far
  std::int32_t message = -1;     // the message it is blocked on
  Block block = Block::ready;
  std::uint8_t cache_next = 0;   // the cached channel replaced next (round robin)
  CachedChannel cached[kCachedChannels];
  Op op;                         // the operation it is blocked in
};

// The collective ranks are gathering at: every rank must call the same one before any
// returns, so only one is open at a time.
struct OpenCollective {
  int arrived = 0;
  double latest_call = 0.0;
  Op first;  // the first caller's operation, that the others must match
  int first_rank = 0;
  std::int64_t first_index = 0;
  std::vector<int> waiting;  // ranks that called it
};

// An entry of the time-ordered queue (contention only): a rank resuming, or a link request.
// A link request's (time, rank, order) is its grant key: inj0, the sender, the send's index.
struct Event {
  double time;
  bool link;           // at one time ranks run first: they may still request the link then
  std::int32_t rank;   // the rank resuming, or the sender requesting the link
  std::uint64_t order; // a link: the send's index in the sender's program; a rank: push order
  std::int32_t id;     // a rank, or a message
  bool operator>(const Event& o) const {
    if (time != o.time) return time > o.time;
    if (link != o.link) return link;
    if (rank != o.rank) return rank > o.rank;
    return order > o.order;
  }
};

}  // namespace instrument::replay::detail
