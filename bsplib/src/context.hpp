// The state of one BSP process between bsp_begin and bsp_end: its place in the SPMD group,
// the superstep counter, the registrations, what it sends each destination, the gets it
// waits for, its BSMP queue and its profile. The C API (bsp_api.cpp) forwards to the one
// Context the definition's global-function interface forces; nothing else is global.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bsmp_queue.hpp"
#include "byte_buffer.hpp"
#include "fatal.hpp"
#include "line_pairs.hpp"
#include "outbox.hpp"
#include "profiler.hpp"
#include "registry.hpp"
#include "shared_arena.hpp"
#include "shared_headers.hpp"

namespace bsplib {

// Words of the per-peer header bsp_sync exchanges (see sync.cpp), the words of a stream
// that may ride in the header message instead of a message of its own, and the MPI tags.
// The header is kept at 7 words: with a one-word stream that is 64 bytes, UCX's short
// messages; 9 words made a one-word superstep 0.1-0.2 us dearer (bsplib/BENCHMARKS.md).
constexpr int header_words = 7;
// The header's fields, by word.
namespace header {
constexpr std::size_t bytes = 0;       // the stream's bytes
constexpr std::size_t gets = 1;        // the stream's gets; bit 63: bsp_end, not bsp_sync
constexpr std::uint64_t ending_bit = std::uint64_t{1} << 63;
constexpr std::size_t reg_sizes = 2;   // this superstep's registrations, 32 bits each
constexpr std::size_t signature = 3;   // of the registration sequence
constexpr std::size_t tagsize = 4;     // the tag size asked for; high 32 bits: calls
constexpr std::size_t wanted = 5;      // the shared segment's half size asked for
constexpr std::size_t in_segment = 6;  // 1 + where the stream is in the shared segment, or 0
}  // namespace header
// Header and inline stream within 8 KiB, one of UCX's FIFO elements: a message that crosses
// it costs 3-5 us more (bsplib/BENCHMARKS.md); a longer stream within the node goes through
// the shared segment instead (sync.cpp).
constexpr int inline_words = 1017;
constexpr int tag_data = 1, tag_reply = 2, tag_header = 3, tag_direct = 4, tag_get_direct = 5,
              tag_warm_up = 6;

class Context {
 public:
  Context(MPI_Comm comm, double t0);
  ~Context();
  // Sends a stream of small messages to and from every other process, so that the MPI
  // transport's first-use costs are paid here, outside every superstep (see warm_up.cpp).
  void warm_up();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  int pid() const { return m_pid; }
  int nprocs() const { return m_nprocs; }
  long superstep() const { return m_superstep; }
  double time() const;
  // bsp_time's origin; the first superstep begins there, numbered 0.
  void start_clock(double t0) {
    m_t0 = t0;
    m_step_begin = 0;
    m_superstep = 0;
    m_shared_exchanges = 0;
  }
  MPI_Comm comm() const { return m_comm; }
  Profiler& profiler() { return m_profiler; }
  // The syncs since the clock started whose headers went through shared memory.
  long shared_header_exchanges() const { return m_shared_exchanges; }
  unsigned long long shared_put_half_bytes() const { return m_arena.half_bytes(); }
  // Collective: the processes' cache-line round trip (line_pairs.hpp), seconds; the shared
  // lines are set up at the first call.
  double core_round_trip(int blocks, int per_block) {
    if (!m_lines)
      m_lines = std::make_unique<instrument::LinePairs>(
          m_comm, [](const std::string& text) { fatal("core_round_trip", -1, -1, "%s", text.c_str()); });
    return m_lines->measure(blocks, per_block);
  }

  [[noreturn]] void fail(const char* call, const char* what) const {
    fatal(call, m_pid, m_superstep, "%s", what);
  }
  // An argument the call would read or write through: null is the library's error, not a
  // segmentation fault in it.
  void need(const char* call, const void* p, const char* argument) const {
    if (!p) fatal(call, m_pid, m_superstep, "%s is a null pointer", argument);
  }

  void push_reg(const void* ident, int size);
  void pop_reg(const void* ident);

  void put(int pid, const void* src, void* dst, int offset, int nbytes) {
    const int slot = checked_slot("bsp_put", pid, dst, offset, nbytes);
    if (nbytes) {
      need("bsp_put", src, "the source");
      if (nbytes >= static_cast<int>(SharedArena::put_min) && m_arena.reaches(pid) &&
          put_shared(pid, slot, offset, src, nbytes))
        return;
      m_out[pid].put(slot, offset, src, nbytes);
    }
  }
  void hpput(int pid, const void* src, void* dst, int offset, int nbytes) {
    const int slot = checked_slot("bsp_hpput", pid, dst, offset, nbytes);
    if (nbytes) {
      need("bsp_hpput", src, "the source");
      m_out[pid].hpput(slot, offset, src, nbytes);
    }
  }
  void get(const char* call, int pid, const void* src, int offset, void* dst, int nbytes);

  void set_tagsize(int* tag_nbytes);
  void send(int pid, const void* tag, const void* payload, int payload_nbytes);
  BsmpQueue& queue() { return m_queue; }

  // The end of a superstep. `ending` is bsp_end's final sync: every process must be ending.
  void sync(bool ending);

 private:
  int checked_slot(const char* call, int pid, const void* area, int offset, int nbytes) {
    if (pid < 0 || pid >= m_nprocs) bad_pid(call, pid);
    if (offset < 0 || nbytes < 0) bad_size(call, offset, nbytes);
    const int slot = m_registry.find(area);
    if (slot < 0) unregistered(call, area, slot);
    if (long{offset} + nbytes > m_registry.size_on(slot, pid))
      out_of_area(call, pid, area, offset, nbytes, slot);
    return slot;
  }
  // A large put to a process of this node: copied into the shared segment now, if it has
  // room (else false: the put goes by MPI).
  bool put_shared(int pid, int slot, int offset, const void* src, int nbytes);
  [[noreturn]] void bad_pid(const char* call, int pid) const;
  [[noreturn]] void bad_size(const char* call, int offset, int nbytes) const;
  // slot: -1 (not registered) or Registry::ambiguous.
  [[noreturn]] void unregistered(const char* call, const void* area, int slot) const;
  [[noreturn]] void out_of_area(const char* call, int pid, const void* area, int offset,
                                int nbytes, int slot) const;

  void exchange_headers(bool ending);
  void exchange_data();
  void serve_gets();
  void post_get_receives();
  void send_replies();
  void apply_puts_and_sends();
  void deliver_gets();
  void finish_gets();

  MPI_Comm m_comm;
  int m_pid, m_nprocs;
  long m_superstep = 0;
  double m_t0;
  double m_step_begin = 0;
  bool m_warming = false;  // warm_up's supersteps: not profiled
  Registry m_registry;
  SharedArena m_arena;                  // large puts within the node
  SharedHeaders m_headers;              // the header exchange within one node
  std::unique_ptr<instrument::LinePairs> m_lines;   // core_round_trip's lines, once asked for
  long m_shared_exchanges = 0;          // syncs whose headers went through m_headers
  std::vector<std::uint64_t> m_wanted;  // [process]: its header's arena size, this sync
  std::vector<Outbox> m_out;            // [destination]
  // A get of Outbox::direct_min bytes or more from another process is *direct*: the owner
  // sends it from the registered area itself and the requester receives it straight into
  // dst (one copy in all, as a ping-pong), unless dst is memory that something else of this
  // superstep still uses: one of its own registered areas (this superstep's gets read them,
  // puts write them after the gets have landed), the source of a large hp put being sent, or the destination of another
  // get (gets land in source, then request order). Then it lands in m_get_staging and is
  // copied in order at the end.
  struct PendingGet {
    char* dst;
    std::uint32_t n;
    bool direct;
    bool shared;            // direct, and its destination is shared: must be staged
    std::size_t staged_at;  // direct: offset in m_get_staging, or no_staging
    // Its destination overlaps the source of a large hp put, which MPI may still be reading:
    // copied in only once every send has completed (after the puts).
    bool after_sends;
  };
  // Marks the direct gets whose destination overlaps another get's destination or a large
  // hp put's source (sort and sweep over all of them; only when there is a direct get).
  void find_shared_destinations();
  // Marks the gets (any size) whose destination overlaps a large hp put's source.
  void find_gets_into_hp_sources();
  // Appends to m_spans the source of every large hp put of this superstep (get: nullptr).
  void add_hp_source_spans();
  // Copies the gets' data to their destinations: the pass before the puts, or the one after
  // every send has completed (after_sends).
  void copy_gets(bool after_sends);
  static constexpr std::size_t no_staging = ~std::size_t{0};
  static bool is_direct_get(int owner, int requester, std::uint64_t n) {
    return owner != requester && n >= Outbox::direct_min;
  }
  std::vector<std::vector<PendingGet>> m_gets;  // [source]: in request order
  std::vector<long> m_reply_expected;           // [source]: bytes
  int m_tagsize = 0, m_pending_tagsize = 0;
  std::uint32_t m_tagsize_calls = 0;  // bsp_set_tagsize calls in this superstep
  BsmpQueue m_queue;
  Profiler m_profiler;
  // Per-sync scratch, kept to reuse its capacity.
  // [peer * m_hdr_stride]: the header, then (point-to-point headers only) room for an
  // inline stream of up to inline_words words.
  std::vector<std::uint64_t> m_hdr_out, m_hdr_in;
  std::size_t m_hdr_stride = header_words;
  ByteBuffer m_inbox;                              // incoming streams not inline, by source
  std::vector<const char*> m_in_stream;            // [source] its stream this superstep
  bool inline_stream(std::uint64_t bytes) const {
    return m_hdr_stride > header_words && bytes > 0 &&
           bytes <= std::uint64_t{inline_words} * 8;
  }
  // [source]: its header this sync (in m_hdr_in, or in place in m_headers' slot).
  std::vector<const std::uint64_t*> m_hdr_at;
  const std::uint64_t* header_in(int q) const { return m_hdr_at[static_cast<std::size_t>(q)]; }
  void exchange_headers_shared();
  std::vector<std::size_t> m_reply_at;             // [source] offset into m_reply_in
  std::vector<ByteBuffer> m_replies;               // [requester]: data this process serves
  ByteBuffer m_reply_in;                           // replies to this process's gets
  std::vector<MPI_Request> m_requests;  // the combined streams
  std::vector<MPI_Request> m_late;      // large puts and small-get replies sent, completed last
  std::vector<MPI_Request> m_get_recvs; // this process's gets: completed before puts apply
  std::vector<MPI_Request> m_get_sends; // direct gets served: done before any put lands
  ByteBuffer m_get_staging;             // direct gets that must not land early (see above)
  struct Span {
    std::uintptr_t begin, end;
    PendingGet* get;  // nullptr: a large hp put's source
  };
  std::vector<Span> m_spans;            // scratch of find_shared_destinations
  // The large puts by MPI of this sync not yet waited for, by the start of their destination
  // (disjoint: one that overlaps an earlier one waits for it first): end, index in m_late.
  struct PendingDirect {
    std::uintptr_t end;
    std::size_t request;
  };
  std::map<std::uintptr_t, PendingDirect> m_pending_directs;
  void land_earlier_directs(const char* dst, std::uint64_t n);
  // Up to header_p2p_max processes the headers go by persistent point-to-point requests
  // (measured 2-3x cheaper than MPI_Alltoall at p = 2, see README); above, by MPI_Alltoall.
  static constexpr int header_p2p_max = 16;
  std::vector<MPI_Request> m_hdr_recv, m_hdr_send;  // persistent, [peer] (not self)
  std::vector<int> m_hdr_peer;                      // the peer of each of them
  std::vector<MPI_Request> m_hdr_active;            // this sync's header requests
  long m_bytes_in = 0, m_msgs_in = 0, m_reply_bytes_out = 0, m_reply_msgs_out = 0;
  long m_direct_gets_out = 0;  // direct gets this process served in this sync
  long m_direct_gets_in = 0;   // direct gets this process asked for in this superstep
  long m_gets_asked = 0;       // gets this process asked of others in this superstep (profile)
  std::uint64_t m_reg_sizes[Registry::header_sizes] = {};  // this sync's registrations
  bool m_pops_null = false;  // this sync: some process's pop named NULL (every one sees it)
  long m_gets_after_sends = 0; // of this superstep's gets, those marked after_sends
};

}  // namespace bsplib
