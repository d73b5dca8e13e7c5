// MessageCosts: the LogGP costs of one message of a given size, as the Sweep3D model of
// Sundaram-Stukel & Vernon uses them (their eq. 1-4): the sender's cost, the receiver's
// cost, the end-to-end cost, and whether the size needs the rendezvous handshake (only then
// does a blocking send wait for its receiver, which is what the (m-1)L term models).
// The sweep models take a function from bytes to costs, so any machine model can feed them.
#pragma once
#include <cstdint>
#include <functional>

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
};

// How the sweep sends its face messages: the original's MPI_Send, or MPI_Isend (sweep3d
// --nonblocking), whose sender never waits for its receiver.
enum class SendMode { blocking, nonblocking };

}  // namespace sweep3d::model
