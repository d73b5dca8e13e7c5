#include <cstring>

#include "sweep3d/sweep_kernel.hpp"

namespace sweep3d {

#define SWEEP3D_DECLARE_FAST(isa) \
  namespace fast_##isa { std::int64_t sweep_block_fast(const BlockData&, const AngleBlock&); }
#ifdef SWEEP3D_HAVE_SSE2
SWEEP3D_DECLARE_FAST(sse2)
#endif
#ifdef SWEEP3D_HAVE_AVX2
SWEEP3D_DECLARE_FAST(avx2)
#endif
#ifdef SWEEP3D_HAVE_AVX512
SWEEP3D_DECLARE_FAST(avx512)
#endif

namespace {

struct Variant {
  const char* name;
  SweepKernel kernel;
  bool (*usable)();
};

const Variant kVariants[] = {  // widest first
#ifdef SWEEP3D_HAVE_AVX512
    {"avx512", &fast_avx512::sweep_block_fast,
     [] { return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                 __builtin_cpu_supports("avx512dq"); }},
#endif
#ifdef SWEEP3D_HAVE_AVX2
    {"avx2", &fast_avx2::sweep_block_fast, [] { return static_cast<bool>(__builtin_cpu_supports("avx2")); }},
#endif
#ifdef SWEEP3D_HAVE_SSE2
    {"sse2", &fast_sse2::sweep_block_fast, [] { return true; }},
#endif
    {"reference", &sweep_block_ref, [] { return true; }},
};

const Variant& choose(const char* isa) {
  for (const auto& v : kVariants)
    if (v.usable() && (isa == nullptr || *isa == '\0' || std::strcmp(isa, v.name) == 0)) return v;
  return kVariants[sizeof kVariants / sizeof kVariants[0] - 1];
}

}  // namespace

SweepKernel select_kernel(KernelKind kind, const char* isa) {
  if (kind == KernelKind::reference) return &sweep_block_ref;
  return choose(isa).kernel;
}

const char* fast_kernel_isa(const char* isa) { return choose(isa).name; }

}  // namespace sweep3d
