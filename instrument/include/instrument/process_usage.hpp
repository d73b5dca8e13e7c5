// ProcessUsage: this process's CPU time in the kernel and its page faults, read twice around a
// part of a run, so the run can say how much of that part was the kernel's.
//
// Why: on a guest whose freed memory goes back to the host (virtio free page reporting, as on
// the Firecracker/PVM guests these figures were measured on), a process's first touch of a page
// the host has dropped costs ~11 us in the guest kernel, where a recently freed page costs a
// tenth of that. The same multigrid set-up (--cube 8 --grids 4, 1 process) took 0.88-1.00 s with
// 0.59 s of system time when it started after a few idle seconds, and 0.31-0.42 s with 0.05-0.06
// s right after another run, with the same ~10^4 page faults. The wall time alone cannot tell
// which of the two a figure is; the kernel's share can.
#pragma once

namespace instrument {

struct ProcessUsage {
  double kernel_seconds = 0;  // CPU time in the kernel on the process's behalf, all threads
  double user_seconds = 0;    // CPU time in user mode, all threads
  long minor_faults = 0;      // page faults served without I/O (first touches among them)
  long major_faults = 0;      // page faults that read from storage

  // Field by field: a later reading minus an earlier one is what was used between them, and
  // the usages of consecutive parts add up to that of the whole.
  ProcessUsage& operator+=(const ProcessUsage& other) {
    kernel_seconds += other.kernel_seconds;
    user_seconds += other.user_seconds;
    minor_faults += other.minor_faults;
    major_faults += other.major_faults;
    return *this;
  }
  ProcessUsage& operator-=(const ProcessUsage& other) {
    kernel_seconds -= other.kernel_seconds;
    user_seconds -= other.user_seconds;
    minor_faults -= other.minor_faults;
    major_faults -= other.major_faults;
    return *this;
  }
};

inline ProcessUsage operator+(ProcessUsage a, const ProcessUsage& b) { return a += b; }
inline ProcessUsage operator-(ProcessUsage a, const ProcessUsage& b) { return a -= b; }

// This process's usage so far (getrusage RUSAGE_SELF); zeros where the call fails.
ProcessUsage process_usage();

}  // namespace instrument
