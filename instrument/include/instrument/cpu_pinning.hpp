// Pinning a one-rank run to one CPU: run_app does it for every program, unless --no-pin;
// --pin-cpu N chooses the CPU.
//
// Why: on the 2-vCPU VMs the suite is calibrated on, a vCPU runs at a different speed when
// the other is idle, and the scheduler moves a lone process between them; a 1-rank
// calibration run then measures a mix of the two speeds, different from run to run. Pinned
// to the lowest CPU of its affinity mask, it measures one CPU, the same one every run; one
// that another pinned one-rank run holds is passed over (a per-CPU lock file in
// $SUITE_CPU_LOCK_DIR, else $TMPDIR, else /tmp), so runs started side by side do not share one.
// Not pinned: a run of several ranks (the launcher's binding is the user's), a process the
// launcher or taskset already bound to one CPU (left as it is), and a run of several OpenMP
// threads (one CPU would serialise them).
#pragma once

namespace instrument {

// Pins this process (its calling thread, and so every thread it starts later) to the lowest
// CPU of its affinity mask that no other pinned run holds (else the lowest) when `ranks` == 1, `threads` == 1 and the mask holds more than one
// CPU. Returns that CPU, or -1 when it did not pin (also where the mask cannot be read or set).
int pin_one_rank_run(int ranks, int threads);

// --pin-cpu N: pins a one-rank run to CPU `cpu`, whatever the launcher or taskset bound it to,
// so that each CPU of a node can be timed or calibrated on its own (on the 2-vCPU guests one
// vCPU at a time ran memory-bound code 1.4-1.5x slower than the other, tycho/BENCHMARKS.md).
// Returns `cpu`, recorded as pinned_cpu().
// Throws InputError("command line", "--pin-cpu", ...) at more than one rank (the launcher
// binds those) or thread, or where the kernel refuses the CPU (not online, not in the
// process's cpuset).
int pin_one_rank_run_to(int cpu, int ranks, int threads);

// The CPU pin_one_rank_run or pin_one_rank_run_to pinned this process to, -1 when neither
// did: the results file's root attribute pinned_cpu.
int pinned_cpu() noexcept;

}  // namespace instrument
