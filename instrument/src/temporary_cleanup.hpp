// The temporaries of OutputFile (output_file.hpp) that a process ending WITHOUT unwinding
// its stack must still remove: by a termination signal (mpiexec forwards SIGINT and SIGTERM
// to every rank: Ctrl-C, a batch system's time limit) or by std::exit. Internal.
//
// remember() arms a fixed slot with the path (no allocation, so the signal handler reads
// plain memory); forget() disarms it. On first use it installs, for each of SIGHUP, SIGINT,
// SIGQUIT, SIGTERM, SIGABRT, SIGXCPU and SIGXFSZ whose disposition is still the default,
// a one-shot handler that unlinks this process's armed paths (unlink is async-signal-safe)
// and raises the signal again, so the process still ends by that signal (same exit status,
// same core dump). A signal the program ignores or handles itself is left alone. An atexit
// function does the same for std::exit. SIGKILL cannot be caught: its temporary stays until
// the next write of the same target removes it (output_file.hpp).
#pragma once
#include <string>

namespace instrument::temporary_cleanup {

// The slot armed with `path`, or -1 when none is free or the path is longer than a slot
// (then only the owner's destructor removes it). Call before the file is created.
int remember(const std::string& path);

// Disarms `slot` (-1: nothing). Call once the file is renamed or removed.
void forget(int slot);

}  // namespace instrument::temporary_cleanup
