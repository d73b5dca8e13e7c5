// Costs of the collectives the apps call, built from point-to-point message costs, so every
// model that has a machine's LogGP (or LogGPS) parameters can price them the same way.
//
// MPI_Allreduce of a short message: recursive doubling, MPICH's algorithm for messages up to
// 2 KiB (MPIR_CVAR_ALLREDUCE_SHORT_MSG_SIZE): log2(p') rounds of a pairwise exchange among
// the p' = 2^floor(log2 p) ranks, plus one round before and one after when p is not a power
// of two (the extra ranks hand their data in and get the result back). Both partners of a
// round send at once, so a round costs one end-to-end message (LogGP Total_Comm); the local
// reduction of a few words is negligible beside it.
#pragma once

namespace instrument {

int allreduce_rounds(int nranks);  // 0 for one rank
double allreduce_seconds(int nranks, double one_message_seconds);

}  // namespace instrument
