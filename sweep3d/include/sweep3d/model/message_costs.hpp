// MessageCosts: the LogGP costs of one message of a given size, as the Sweep3D model of
// Sundaram-Stukel & Vernon uses them (their eq. 1-4): the sender's cost, the receiver's
// cost, the end-to-end cost, and whether the size needs the rendezvous handshake (only then
// does a blocking send wait for its receiver, which is what the (m-1)L term models).
// The sweep models take a function from bytes to costs, so any machine model can feed them.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "instrument/loggp_cold.hpp"

namespace sweep3d::model {

struct MessageCosts {
  double send = 0.0;        // Send(k): a blocking MPI_Send
  double receive = 0.0;     // Receive(k)
  double total_comm = 0.0;  // Total_Comm(k), one way, end to end
  bool handshake = false;   // k above the eager limit S
  double isend = 0.0;       // the post of an MPI_Isend (the sender's only cost when it does not wait)
};

struct MachineCosts {
  std::function<MessageCosts(std::int64_t bytes)> message;
  double latency = 0.0;  // L, for the synchronisation terms
  // Seconds of one MPI_Allreduce of `bytes` over `nranks`; empty: free.
  std::function<double(int nranks, std::int64_t bytes)> allreduce;
  // The first calls after a kernel block streamed N bytes, as loggps-probe measured them
  // (instrument/loggp_cold.hpp); nullopt (a machine file of an earlier probe): the terms
  // above alone, as measured by a ping-pong with warm caches.
  std::optional<instrument::loggp::ColdCosts> cold;
  // The first collective after a one-way message stream, by the time since the previous
  // collective (instrument/loggp_cold.hpp, loggp.after_stream.*); nullopt in files of
  // earlier probes.
  std::optional<instrument::loggp::AfterStream> after_stream;
};

// What a working set of N bytes adds to a blocking receive (of a message already there) or
// an eager send of `bytes` right after a kernel block: the probe's figure at N less its warm
// reference, at the small size up to small_bytes, at the face size from face_bytes,
// linear in bytes between; never below 0 (a cold call is not cheaper). 0 without cold costs
// or with N = 0 (working set unknown).
double cold_receive_extra(const MachineCosts& m, std::int64_t bytes, std::int64_t working_set);
double cold_send_extra(const MachineCosts& m, std::int64_t bytes, std::int64_t working_set);

// A message above the eager limit (the LogGP handshake) right after a kernel block that
// streamed working_set: the probe's cold rendezvous figures (loggp.cold.rendezvous.*), each
// call from its partner's arrival, as the measured critical path charges it. nullopt for an
// eager size, without those figures (an earlier probe) or with working_set = 0.
std::optional<instrument::loggp::RendezvousCosts> rendezvous_after_block(const MachineCosts& m, std::int64_t bytes,
                                                                         std::int64_t working_set);

// The costs of the sweep's face messages, each sent right after a kernel block that streamed
// block_bytes and received after the receiver's block. Above the eager limit, with the
// probe's rendezvous figures: Send and Receive are those figures and Total_Comm the Receive
// (the waiting receiver's call, from the send's start). Otherwise Send plus the cold send
// extra, Receive plus the cold receive extra, Total_Comm (both ends) plus both. The Isend
// post (the request-to-send) gets the cold send extra. The same costs as `m` without cold
// figures or with block_bytes = 0.
MachineCosts after_kernel_blocks(const MachineCosts& m, std::int64_t block_bytes);

// One 8-byte MPI_Allreduce over nranks entered right after streaming N bytes: the probe's cold
// 2-rank figure plus what more ranks add by the warm model (its later recursive-doubling
// steps); without cold costs or N = 0, the warm model alone.
double cold_allreduce8(const MachineCosts& m, int nranks, std::int64_t working_set);

// One 8-byte MPI_Allreduce over nranks entered `interval` seconds after the previous
// collective, with the sweep's one-way messages between and each rank's kernel streaming its
// `working_set` bytes (0: unknown, the spinning ranks' figures), and the one right after it:
// the probe's after-stream figures at that interval and working set (loggp_cold.hpp's
// AfterStream::at) plus what more ranks add by the warm model
// (its later recursive-doubling steps); nullopt without after-stream figures, with
// interval <= 0 or on one rank (then the caller prices them otherwise).
struct AllreducePair {
  double first = 0.0, second = 0.0;
};
std::optional<AllreducePair> allreduce8_after_stream(const MachineCosts& m, int nranks, double interval,
                                                     std::int64_t working_set);
std::string describe_allreduce_after_stream(const MachineCosts& m, double interval, int messages_in_a_row,
                                            std::int64_t working_set);

// Why a machine file may lack the cold or after-stream figures, for a row's text: an earlier
// probe's file, or one whose probe could not measure them (probe.cold_omitted).
inline constexpr const char* kNoColdWhy = "an earlier probe, or a loaded host: run loggps-probe idle";

// For a row's text: which probe figure priced the calls after a kernel block, e.g.
// "cold allreduce8 at 4.6 MB = 8.1 us (loggps-probe)", or why none did.
std::string describe_cold_allreduce(const MachineCosts& m, std::int64_t working_set);
std::string describe_cold_messages(const MachineCosts& m, std::int64_t bytes, std::int64_t working_set);

// How the sweep sends its face messages: the original's MPI_Send, or MPI_Isend (sweep3d
// --nonblocking), whose sender never waits for its receiver.
enum class SendMode { blocking, nonblocking };

}  // namespace sweep3d::model
