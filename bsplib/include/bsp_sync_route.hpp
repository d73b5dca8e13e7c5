// Which route bsp_sync's header exchange takes, and how large the shared segment for large
// puts has grown, for tests and benchmarks (C++). Within one node of up to 16 processes the
// headers (and streams of up to 8 KiB) go through shared memory; BSP_SHARED_SYNC=0 in the
// environment of any process at bsp_begin forces MPI messages, the route across nodes.
#pragma once

namespace bsplib {

// The bsp_sync calls of this SPMD section (since bsp_begin returned) whose headers went
// through shared memory: every sync, or none. Inside bsp_begin/bsp_end only.
long shared_header_exchanges();

// The bytes of this process's half of its shared segment for large puts (a superstep's puts
// of 8 KiB or more to processes of its node fit in it, or go by MPI and grow it at the sync:
// to the power of two at or above their sum, 64 KiB at least, whole MiB above 1 MiB); 0
// before any has grown, at p = 1 and with BSP_SHARED_PUTS=0. Inside bsp_begin/bsp_end only.
unsigned long long shared_put_half_bytes();

}  // namespace bsplib
