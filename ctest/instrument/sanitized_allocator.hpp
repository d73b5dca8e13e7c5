// SUITE_SANITIZED_ALLOCATOR: defined where a sanitizer brings an allocator of its own
// (AddressSanitizer, as in the suite's SANITIZE=1 build; MSan, TSan, HWASan, LSan), which
// refuses glibc's mallopt advice (heap_reuse.hpp). GCC's macros, then clang's features.
#pragma once

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || defined(__SANITIZE_HWADDRESS__)
#define SUITE_SANITIZED_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(hwaddress_sanitizer) || __has_feature(leak_sanitizer)
#define SUITE_SANITIZED_ALLOCATOR 1
#endif
#endif
