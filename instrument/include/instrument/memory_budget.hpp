// What this process may still allocate, so that a size read from input (a grid, a trace
// buffer, a probe's message) is refused with the figure and the limit before the allocation
// fails as a bad_alloc, or the kernel's OOM killer ends the job without a word.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>

namespace instrument {

// Bytes this process can still get: min(MemAvailable from /proc/meminfo, RLIMIT_AS and
// RLIMIT_DATA less what is already mapped, the memory cgroup's limit less its non-cache
// usage). Unknown parts count as unlimited. Ranks on one node each see the node's whole
// MemAvailable: callers check their own rank's share.
std::uint64_t memory_limit_bytes();

// Throws InputError(source, field, "<what> needs <X>, more than the <Y> this process can
// allocate") when bytes > memory_limit_bytes(). Call it BEFORE allocating, inside the code
// that validates input collectively (so every rank learns it).
void require_memory(std::uint64_t bytes, const std::string& source, const std::string& field,
                    const std::string& what);

// "1.5 GiB", "12 MiB", "512 B": binary units, at most one decimal (none when whole).
std::string format_bytes(std::uint64_t bytes);

// The product of counts and sizes, saturated at UINT64_MAX instead of wrapping: a size that
// overflows is refused by require_memory like any other that is too large.
std::uint64_t saturating_product(std::initializer_list<std::uint64_t> factors);

}  // namespace instrument
