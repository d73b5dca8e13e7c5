// An output written by one rank while the others wait, so that a termination signal sent to
// the whole job (mpiexec forwards Ctrl-C and SIGTERM to every rank) never leaves the
// writer's temporary "<path>.tmp.<pid>" behind (output_file.hpp).
//
// Why the others must not die first: MPICH's launcher (hydra) ends every rank with SIGKILL
// the moment one rank's process ends without MPI_Finalize. The forwarded SIGTERM reaches all
// ranks at once; a waiting rank acts on it at once and dies, while the writer may not have
// acted on its own yet (in an fsync, a write, or not scheduled): SIGKILL cannot be caught,
// so its temporary stayed (issue 36, finding 8: 1 to 2 runs in 5 of the hostile harness).
//
// So while `write` runs on `root`, every other rank of `comm` records SIGHUP, SIGINT,
// SIGQUIT, SIGTERM and SIGXCPU (those it does not ignore) instead of acting on them, and
// acts on the first recorded one, with its own earlier action, once the write is over:
//   - the job was signalled as a whole: the writer removes its temporary and ends by the
//     signal (temporary_cleanup.hpp); the launcher then ends the waiting ranks;
//   - only a waiting rank was signalled: it ends after the write, the file complete;
//   - the writer is stuck (a hung file system): a waiting rank acts on its signal 5 s after
//     it came, so a signal never waits for longer than that.
// The waiting ranks poll for the end of the write every millisecond (MPI_Ibarrier and
// MPI_Test), so they leave the writer the CPU on a node with fewer cores than ranks.
#pragma once
#include <mpi.h>

#include <functional>

namespace instrument {

// Collective over comm. Runs `write` on `root` only, after every other rank has begun to
// defer termination signals, and returns on every rank once it has returned or thrown. An
// exception of `write` propagates on `root` (the caller shares the verdict, e.g. with
// throw_if_any_rank_failed). One write_on_root at a time in a process.
void write_on_root(MPI_Comm comm, int root, const std::function<void()>& write);

}  // namespace instrument
