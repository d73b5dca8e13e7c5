// face_copy_probe.hpp: the four face loops of octant_sweep.cpp, alternated, medians.
#include "sweep3d/face_copy_probe.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#include "instrument/statistics.hpp"

namespace sweep3d {

namespace {

using Clock = std::chrono::steady_clock;

// Seconds a call of f, the median of `reps` timings of `calls` calls each.
struct LoopTimes {
  std::vector<double> unpack, vacuum, pack, leakage;
};

// Keeps the compiler from merging or dropping the repeated calls of a loop being timed.
inline void barrier() { asm volatile("" ::: "memory"); }

// Each cache line of [p, p + n) written back and dropped from every cache.
void flush_lines(const double* p, std::size_t n) {
#if defined(__x86_64__) || defined(__i386__)
  for (std::size_t k = 0; k < n; k += 8) __builtin_ia32_clflush(p + k);
  __builtin_ia32_mfence();
#else
  (void)p, (void)n;
#endif
}

double per_call(Clock::time_point t0, Clock::time_point t1, int calls) {
  return std::chrono::duration<double>(t1 - t0).count() / calls;
}

void measure_axis(const FaceExtent& e, model::FaceWork& out, int axis) {
  const long values = e.values();
  if (values <= 0) return;
  std::vector<double> face(static_cast<std::size_t>(e.nk) * e.n * e.ls, 0.0);
  std::vector<double> msg(static_cast<std::size_t>(e.na) * e.mk * e.n);
  std::vector<double> w(static_cast<std::size_t>(e.ls), 0.5);
  for (std::size_t k = 0; k < msg.size(); ++k) msg[k] = 1.0 + 1e-3 * static_cast<double>(k % 97);
  // Each batch's timing about 20 us (a block's faces take a few us): clock reads are noise beside it.
  const int calls = static_cast<int>(std::clamp<long>(20000 / std::max<long>(values, 1), 1, 4096));
  constexpr int kReps = 41;
  // The pack is timed call by call (its message flushed before each): less a clock pair's own
  // time, 20-40 ns on a VM, a third of a small face's pack.
  std::vector<double> pairs;
  for (int r = 0; r < kReps; ++r) {
    const auto c0 = Clock::now();
    barrier();
    pairs.push_back(per_call(c0, Clock::now(), 1));
  }
  const double clock_pair = instrument::median(pairs);
  LoopTimes t;
  double sink = 0.0;
  for (int r = 0; r < kReps + 1; ++r) {  // the first round warms the caches, and is dropped
    auto t0 = Clock::now();
    for (int c = 0; c < calls; ++c) unpack_face(e, msg.data(), face.data()), barrier();
    auto t1 = Clock::now();
    for (int c = 0; c < calls; ++c) vacuum_face(e, face.data()), barrier();
    auto t2 = Clock::now();
    // The pack writes a message buffer whose lines MPI's copy to the receiver left shared or
    // in another cache: taken out of the caches before each call, as they are in a run.
    double packing = 0.0;
    for (int c = 0; c < calls; ++c) {
      unpack_face(e, msg.data(), face.data());  // the pack reads a face the kernel wrote
      flush_lines(msg.data(), msg.size());
      const auto p0 = Clock::now();
      pack_face(e, face.data(), msg.data());
      barrier();
      packing += per_call(p0, Clock::now(), 1);
    }
    auto t4 = Clock::now();
    for (int c = 0; c < calls; ++c) sink += edge_leakage(e, face.data(), w.data(), 1.0, 1.0), barrier();
    auto t5 = Clock::now();
    if (r == 0) continue;
    t.unpack.push_back(per_call(t0, t1, calls));
    t.vacuum.push_back(per_call(t1, t2, calls));
    t.pack.push_back(std::max(packing / calls - clock_pair, 0.0));
    t.leakage.push_back(per_call(t4, t5, calls));
  }
  // The sums must be used, or the leakage loop is not run.
  if (sink == -1.0) face[0] = sink;
  const double v = static_cast<double>(values);
  out.fill_s[axis] = instrument::median(t.vacuum) / v;
  out.leak_s[axis] = instrument::median(t.leakage) / v;
  out.unpack_s[axis] = instrument::median(t.unpack) / v;
  out.pack_s[axis] = instrument::median(t.pack) / v;
}

}  // namespace

model::FaceWork measure_face_loops(const FaceExtent& i_face, const FaceExtent& j_face) {
  model::FaceWork c;
  measure_axis(i_face, c, 0);
  measure_axis(j_face, c, 1);
  return c;
}

}  // namespace sweep3d
