// The MPI transport's first-use cost between processes of a node, paid before anything is
// timed: one warm-up for the probes (instrument/probe_measure.hpp) and bsp_begin
// (bsplib/src/warm_up.cpp), which measured the same cost in their first messages.
//
// MPICH's UCX transport passes eager messages between processes of a node through a
// shared-memory FIFO of UCX_MM_FIFO_SIZE elements (64 by default) of UCX_MM_SEG_SIZE bytes
// (8 KiB) per direction; a message's first pass through an element faults in the pages it
// reaches. Measured on the development machines (MPICH 4.0, ch4:ucx): the first ~64 messages
// of a fresh pair took 20-80 us against 1.1-2.7 us after, at any size, with UCX_TLS=sm,self
// too (so not a connection set-up); with UCX_MM_FIFO_SIZE=16 the slow ones were the first
// ~16. The apps' short probe fitted o = 1 ns off by 80% from it; a BSPlib program's first ~64
// supersteps cost 10-20 times their steady state.
//
// A library of its own (MPI only, below instrument and the BSPlib, like placement/): libbsp
// is what bspcc links, alone.
#pragma once
#include <mpi.h>

#include <vector>

namespace suite_transport {

// Collective over comm. Every process exchanges untimed messages with every other one,
// UCX_MM_FIFO_SIZE + 8 rounds (past the ring on both sides) at each size of
// eager_warm_up_sizes, the largest first: the largest message the library still sends eagerly
// then reaches every page of every element, whether its eager limit is the default one or a
// UCX_RNDV_THRESH of 4 or 2 KiB (the larger sizes then go by rendezvous, past the ring). The
// environment may differ between processes: they agree on the largest element and rounds.
// tag must not be in use on comm. Returns the number of messages this process sent.
long warm_up_eager_buffers(MPI_Comm comm, int tag, int min_bytes, long max_bytes);

// The sizes, largest first: max(min_bytes, element) and element if smaller, then the three
// 2^k - 1 below (4095, 2047, 1023 for UCX's 8 KiB element, whose eager part is 7936 bytes);
// none above max_bytes.
std::vector<long> eager_warm_up_sizes(long element, long min_bytes, long max_bytes);

// On this process, before the processes agree: the rounds, UCX_MM_FIFO_SIZE + 8 (at most
// 4096); and the element's eager part, UCX_MM_SEG_SIZE (a number with an optional k or m,
// 1 KiB to 1 MiB; 8 KiB if unset or unreadable) less 256 bytes for UCX's own header.
int eager_warm_up_rounds();
int eager_warm_up_bytes();

}  // namespace suite_transport
