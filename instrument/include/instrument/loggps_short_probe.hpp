// The short LogGP/LogGPS probe of the apps: loggps-probe's own loops (probe_measure) and
// fits (probe_fit), reduced, for an app that finds no machine file of this host in the
// per-user cache (machine_cache.hpp). loggps-probe measures the same in full.
//
// Reduced how, and why that is enough for the models' rows: message sizes 1 B .. 256 KiB by
// factors of 4 instead of 1 B .. 4 MiB by 2 (the apps' default runs send far less than
// 256 KiB a message; the last band's G serves beyond it), 9 round trips per size instead of
// 51, one late-receiver trial per size instead of three (20 ms each, against microseconds:
// one tells them apart), and no rendezvous-send experiment (a send above S returns after
// injecting, Ino's eq. 5, as loggps-probe assumes when it cannot tell). The message costs
// under a working set (the loggp.cold.* and loggp.after_stream.* keys, probe_cold.hpp) are
// measured at fewer working sets and with fewer repetitions (loggps_short_probe.cpp says
// which), once, after the LogGP fit is accepted. About 2 s at 2 ranks on an idle 2-core
// machine (0.5 s without the costs under a working set; loggps-probe 6.8-7.0 s).
#pragma once
#include <mpi.h>

#include <string>

namespace instrument::probe {

// Collective over `comm` (at least 2 ranks): ranks 0 and 1 measure, the others wait. Rank 0
// fits both models and writes a machine file at `path` with loggps-probe's keys
// (MachineFile::write: a temporary, then rename; never through a symbolic link), checked by
// the models' readers first; a fit they refuse (a loaded host) is measured again, up to
// three times. Then it, or a file it cannot write, throws on rank 0 only, after every rank
// has left the measurement. `program` names the app in the file. Past `time_limit` seconds
// on rank 0's clock (Pair::deadline) no fit is tried again, and the messages under a working
// set are left unfinished (probe.cold_unfinished: the cache measures such a file again; where
// the file at `path` says so already, probe.cold_omitted, which it keeps).
void measure_loggps_short(const std::string& path, const std::string& program, MPI_Comm comm, double time_limit);

}  // namespace instrument::probe
