// What this process may still allocate, so that a size read from input (a grid, a trace
// buffer, a probe's message) is refused with the figure and the limit before the allocation
// fails as a bad_alloc, or the kernel's OOM killer ends the job without a word.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <initializer_list>
#include <string>

namespace instrument {

// Bytes this process can still get: min(MemAvailable from /proc/meminfo, RLIMIT_AS and
// RLIMIT_DATA less what is already mapped, the memory cgroup's limit less its non-cache
// usage). Unknown parts count as unlimited. Ranks on one node each see the node's whole
// MemAvailable: callers check their own rank's share.
// SUITE_MEMORY_AVAILABLE in the environment ("4GiB", "512MiB", "1000000": bytes, binary
// units) stands in for MemAvailable, so that a test of a refusal does not depend on the
// machine; the rlimits and the cgroup still apply. A malformed value throws InputError.
std::uint64_t memory_limit_bytes();

// Throws InputError(source, field, "<what> needs <X>, more than the <Y> this process can
// allocate") when bytes > memory_limit_bytes(). Call it BEFORE allocating, inside the code
// that validates input collectively (so every rank learns it).
void require_memory(std::uint64_t bytes, const std::string& source, const std::string& field,
                    const std::string& what);

// Throws InputError(source, field, "<what> needs about <X>, more than the <Z> available"),
// or with several processes "<what> needs about <X> (<Y> a rank at <N> ranks on this node),
// more than ...", when X = N x per_process exceeds memory_limit_bytes(): the ranks of one
// node share its memory. For a need estimated from the counts an option implies, before the
// work (the caller says how the estimate was made and how it compares with a measured peak).
// The processes of `comm` on this process's node, which share its memory (collective).
int processes_on_node(MPI_Comm comm);

void require_node_memory(std::uint64_t per_process, int processes_on_node, const std::string& source,
                         const std::string& field, const std::string& what);

// "1.5 GiB", "12 MiB", "512 B": binary units, at most one decimal (none when whole).
std::string format_bytes(std::uint64_t bytes);

// The product of counts and sizes, saturated at UINT64_MAX instead of wrapping: a size that
// overflows is refused by require_memory like any other that is too large.
std::uint64_t saturating_product(std::initializer_list<std::uint64_t> factors);

}  // namespace instrument
