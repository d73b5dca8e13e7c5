// Which route bsp_sync's header exchange takes, for tests and benchmarks (C++). Within one
// node of up to 16 processes the headers (and streams of up to 8 KiB) go through shared
// memory; BSP_SHARED_SYNC=0 in the environment of any process at bsp_begin forces MPI
// messages, the route across nodes.
#pragma once

namespace bsplib {

// The bsp_sync calls of this SPMD section (since bsp_begin returned) whose headers went
// through shared memory: every sync, or none. Inside bsp_begin/bsp_end only.
long shared_header_exchanges();

}  // namespace bsplib
