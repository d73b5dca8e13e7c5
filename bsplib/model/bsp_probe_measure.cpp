// The timed loops of bspprobe: what each measures, and why this way, is at each function.
#include "bsplib/model/bsp_probe_measure.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bsp.h"
#include "bsp_round_trip.hpp"
#include "bsplib/model/core_round_trip.hpp"
#include "bsplib/model/machine_params.hpp"
#include "instrument/clock.hpp"
#include "instrument/probe_measure.hpp"
#include "instrument/rank_reduce.hpp"
#include "instrument/statistics.hpp"

namespace bspmodel {

namespace {

// The short probe's time limit: process 0's clock past `at` (0: none) ends the measurement on
// every process at once. Checked between repetitions, where no superstep is under way and no
// put is queued, never inside a timed one: process 0 says, by a broadcast, and every process
// throws instrument::probe::ProbeOutOfTime at the same point (bsp_end then ends the section).
struct Deadline {
  double at = 0;
  void check() const {
    if (at <= 0) return;
    int passed = bsp_pid() == 0 && instrument::now_seconds() > at ? 1 : 0;
    MPI_Bcast(&passed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (passed) throw instrument::probe::ProbeOutOfTime("the probe passed its time limit");
  }
};

// s: flop/s of y += a x on 1024 doubles (in cache), the slowest process's median.
double measure_s(int reps, const Deadline& deadline) {
  const int n = 1024, passes = 20000;
  std::vector<double> x(n, 1.0), y(n, 0.0);
  std::vector<double> rates;
  for (int r = 0; r < reps; ++r) {
    deadline.check();
    const double a = 1e-9 * (r + 1);
    const double t0 = bsp_time();
    for (int k = 0; k < passes; ++k) {
      for (int i = 0; i < n; ++i) y[i] += a * x[i];
      asm volatile("" : : "r"(y.data()) : "memory");  // keep every pass
    }
    rates.push_back(2.0 * n * passes / (bsp_time() - t0));
  }
  return instrument::min_over_ranks(instrument::median(rates), MPI_COMM_WORLD);
}

// The samples of one measurement by repetition, each repetition with the cache-line round
// trip between the processes' CPUs sampled just before it (core_round_trip.hpp: the host's
// placement of the CPUs sets what a small superstep costs, 2-3x apart between placements, and
// it may move while the probe runs). A repetition taken at another placement than most (its
// round trip more than 1.5x from the placement chosen) is left out of the medians, so that
// the probe's figures are of one placement, which its machine file names. The same numbers on
// every process (the samples are reduced before they are kept), so the same choice.
struct ByRepetition {
  std::vector<double> round_trip;                    // [rep]; empty at p = 1 or off-node
  std::vector<std::vector<std::vector<double>>> at;  // [rep][point]: the samples

  bool kept(std::size_t rep, double placement) const {
    if (round_trip.empty() || !(placement > 0)) return true;
    const double rt = round_trip[rep];
    return rt <= kSamePlacementRatio * placement && rt * kSamePlacementRatio >= placement;
  }
  // The median of each point over the kept repetitions (all of them, should fewer than a
  // third be kept: then the placement was not held long enough to choose).
  std::vector<double> medians(double placement) const {
    std::size_t n_kept = 0;
    for (std::size_t r = 0; r < at.size(); ++r) n_kept += kept(r, placement);
    const bool all = 3 * n_kept < at.size();
    std::vector<double> out;
    const std::size_t points = at.empty() ? 0 : at[0].size();
    for (std::size_t i = 0; i < points; ++i) {
      std::vector<double> v;
      for (std::size_t r = 0; r < at.size(); ++r)
        if (all || kept(r, placement)) v.insert(v.end(), at[r][i].begin(), at[r][i].end());
      out.push_back(instrument::median(v));
    }
    return out;
  }
  // With the placement most of its own repetitions had.
  std::vector<double> medians() const { return medians(core_round_trip(round_trip)); }
};

// A repetition's round-trip sample: 200 round trips (0.012-0.12 ms at 60-600 ns), 0 when not
// measurable.
double placement_sample() { return bsplib::core_round_trip_seconds(10, 20); }

// Splits the reduced samples `mine` (repetition-major, then point, then `per_point` each)
// into a ByRepetition with the repetitions' round trips.
ByRepetition by_repetition(const std::vector<double>& mine, std::size_t points, int per_point,
                           const std::vector<double>& round_trip) {
  ByRepetition out;
  if (!round_trip.empty() && round_trip[0] > 0) out.round_trip = round_trip;
  const std::size_t reps = mine.size() / (points * static_cast<std::size_t>(per_point));
  std::size_t at = 0;
  for (std::size_t r = 0; r < reps; ++r) {
    out.at.emplace_back(points);
    for (std::size_t i = 0; i < points; ++i)
      for (int j = 0; j < per_point; ++j) out.at[r][i].push_back(mine[at++]);
  }
  return out;
}

// h-relations of `bytes` per process as 8-byte words, cyclically over the other processes
// (itself when p = 1), consecutive words per destination: `block` supersteps back to back,
// as a program repeats its supersteps. Appends this process's time in bsp_sync of each but
// the first (which follows a superstep of another size) to `mine`; the caller reduces them
// over processes afterwards, so nothing runs between the supersteps. A reduction between
// supersteps instead (to align the processes) put 1.4-1.6 us on l where programs measure
// 1.0-1.2 us, and moved it by 0.3 us between probe runs (bsplib/BENCHMARKS.md).
void h_relation_block(double* src, double* dst, int bytes, int block, std::vector<double>& mine) {
  const int p = bsp_nprocs(), s = bsp_pid();
  const int others = p > 1 ? p - 1 : 1;
  const int words = bytes / 8;
  std::vector<int> dest(words), offset(words);
  for (int i = 0; i < words; ++i) {
    dest[i] = p > 1 ? (s + 1 + i % others) % p : s;
    offset[i] = (s * words + i / others) * 8;
  }
  for (int k = 0; k < block; ++k) {
    for (int i = 0; i < words; ++i) bsp_put(dest[i], &src[i], dst, offset[i], 8);
    const double t0 = bsp_time();
    bsp_sync();
    if (k > 0) mine.push_back(bsp_time() - t0);
  }
}

enum class Shape { one_way, exchange, gets };

// `block` supersteps back to back, each one transfer of h bytes per pair in `shape` (see
// BspMeasurements), timed as h_relation_block times its supersteps. `area` is registered
// (at least h bytes): puts land there, gets read it.
void pattern_block(Shape shape, const char* src, char* area, char* into, int h, int block,
                   std::vector<double>& mine) {
  const int p = bsp_nprocs(), s = bsp_pid(), half = p / 2;
  for (int k = 0; k < block; ++k) {
    if (shape == Shape::exchange) bsp_put((s + 1) % p, src, area, 0, h);
    if (shape == Shape::one_way && s < half) bsp_put(s + half, src, area, 0, h);
    if (shape == Shape::gets && s < half) bsp_get(s + half, area, 0, into, h);
    const double t0 = bsp_time();
    bsp_sync();
    if (k > 0) mine.push_back(bsp_time() - t0);
  }
}

// The buffers of the curves' supersteps: the source of puts, the registered area (puts land
// there, gets read it) and the destination of gets.
struct CurveBuffers {
  std::vector<char> src, area, into;
};

// The comm+sync of each (h, shape) pair over reps blocks, the repetitions going round every
// pair (as for T(h)), the smallest time over processes per superstep, by repetition: the
// same numbers on every process, so that the decisions made from them agree.
ByRepetition pattern_samples(const std::vector<std::pair<int, Shape>>& points, int reps,
                             CurveBuffers& b, const Deadline& deadline) {
  constexpr int block = 4;
  std::vector<double> mine, round_trip;
  for (int r = 0; r < reps; ++r) {
    deadline.check();
    round_trip.push_back(placement_sample());
    for (const auto& [h, shape] : points)
      pattern_block(shape, b.src.data(), b.area.data(), b.into.data(), h, block, mine);
  }
  MPI_Allreduce(MPI_IN_PLACE, mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, MPI_MIN,
                MPI_COMM_WORLD);
  return by_repetition(mine, points.size(), block - 1, round_trip);
}

// Where between two grid points a curve steps (the transport changing protocol at a
// message size: at p = 2 on this machine a get's reply message crosses UCX's 8 KiB FIFO
// element between h = 8248 and 8256 B, and the superstep goes from 2.6 to 6.5 us), by
// bisection to 8 bytes: the last h below the step and the first above. Interpolating across
// a step instead puts every superstep near it tens of percent off.
std::pair<int, int> locate_step(Shape shape, int lo, double t_lo, int hi, double t_hi, int reps,
                                CurveBuffers& b, const Deadline& deadline) {
  while (hi - lo > 8) {
    const int mid = (lo + hi) / 16 * 8;
    if (mid <= lo) break;
    const double t = pattern_samples({{mid, shape}}, reps, b, deadline).medians()[0];
    if (std::fabs(t - t_lo) <= std::fabs(t - t_hi)) {
      lo = mid;
      t_lo = t;
    } else {
      hi = mid;
      t_hi = t;
    }
  }
  return {lo, hi};
}

// The curves of BspMeasurements: h = 8 B, then powers of two from 64 B to hmax (and hmax),
// denser where the transport changes protocol than the h-relation line's even steps; then
// each step of more than 30% between two neighbours located (locate_step) and both its
// sides added to the grid, where every shape is measured again.
struct CurveSamples {
  std::vector<int> grid, sides;   // the h of each, rising
  ByRepetition at_grid, at_sides; // [point]: h-major, then one way, exchange, gets
};
CurveSamples measure_curves(int reps, int hmax, const Deadline& deadline) {
  CurveSamples out;
  if (bsp_nprocs() < 2) return out;
  std::vector<int> grid;
  for (int h = 8; h < hmax; h = h == 8 ? 64 : 2 * h) grid.push_back(h);
  grid.push_back(hmax);
  CurveBuffers b;
  b.src.assign(static_cast<std::size_t>(hmax), 1);
  b.area.assign(b.src.size(), 0);
  b.into.resize(b.src.size());
  bsp_push_reg(b.area.data(), hmax);
  bsp_sync();
  const Shape shapes[] = {Shape::one_way, Shape::exchange, Shape::gets};
  std::vector<double> scratch;
  for (Shape shape : shapes)  // first use of each shape at the largest h, untimed
    pattern_block(shape, b.src.data(), b.area.data(), b.into.data(), hmax, 2, scratch);
  auto all_shapes_at = [&](const std::vector<int>& hs) {
    std::vector<std::pair<int, Shape>> points;
    for (int h : hs)
      for (Shape shape : shapes) points.emplace_back(h, shape);
    return points;
  };
  out.at_grid = pattern_samples(all_shapes_at(grid), reps, b, deadline);
  const std::vector<double> t = out.at_grid.medians();
  std::vector<int> sides;
  for (std::size_t i = 0; i + 1 < grid.size(); ++i)
    for (std::size_t k = 0; k < 3; ++k) {
      const double t0 = t[3 * i + k], t1 = t[3 * (i + 1) + k];
      if (std::fabs(t1 - t0) <= 0.3 * std::min(t0, t1)) continue;
      const auto [lo, hi] = locate_step(shapes[k], grid[i], t0, grid[i + 1], t1, reps, b, deadline);
      for (int h : {lo, hi})
        if (h != grid[i] && h != grid[i + 1]) sides.push_back(h);
    }
  std::sort(sides.begin(), sides.end());
  sides.erase(std::unique(sides.begin(), sides.end()), sides.end());
  // A machine file holds at most kMaxCurvePoints points: the steps at small h, where most
  // programs' supersteps are, are kept first.
  if (grid.size() + sides.size() > kMaxCurvePoints) sides.resize(kMaxCurvePoints - grid.size());
  if (!sides.empty()) out.at_sides = pattern_samples(all_shapes_at(sides), reps, b, deadline);
  out.grid = grid;
  out.sides = sides;
  bsp_pop_reg(b.area.data());
  bsp_sync();
  return out;
}

// The curves of BspMeasurements from the samples at `placement`: the grid and the steps'
// sides merged into one rising list.
void assemble_curves(BspMeasurements& m, const CurveSamples& c, double placement) {
  const std::vector<double> t = c.at_grid.medians(placement), t_sides = c.at_sides.medians(placement);
  std::size_t i = 0, j = 0;
  while (i < c.grid.size() || j < c.sides.size()) {
    const bool from_grid = j == c.sides.size() || (i < c.grid.size() && c.grid[i] < c.sides[j]);
    const std::vector<double>& src = from_grid ? t : t_sides;
    const std::size_t at = from_grid ? i++ : j++;
    m.curve_h.push_back(from_grid ? c.grid[at] : c.sides[at]);
    m.curve_one_way.push_back(src[3 * at]);
    m.curve_exchange.push_back(src[3 * at + 1]);
    m.curve_gets.push_back(src[3 * at + 2]);
  }
}

// The after-gap and after-stream measurements (BspMeasurements): an empty superstep and one
// put of 64 B and of 2 KiB from each process of the lower half into its partner (at p = 1
// into itself), each after every process ran before(i), for each of `points` points, the
// repetitions going round every (point, h) pair, as T(h)'s do, so that a slow spell of the
// host spreads over all of them. An untimed empty superstep first, so that every timed one
// follows the same kind of superstep: after a 10 ms gap the next sync still cost 0.2-0.3 us
// more. Samples [rep][point * 3 + h], the smallest over processes (as T(h)).
template <class Before>
ByRepetition three_supersteps_after(int reps, std::size_t points, const Deadline& deadline, Before before) {
  const int p = bsp_nprocs(), s = bsp_pid(), half = p / 2;
  const int dest = p > 1 ? s + half : s;
  const bool sends = p == 1 || s < half;
  const int hs[] = {0, 64, 2048};
  std::vector<char> src(2048, 1), area(2048, 0);
  bsp_push_reg(area.data(), static_cast<int>(area.size()));
  bsp_sync();
  std::vector<double> mine, round_trip;
  for (int r = 0; r < reps; ++r) {
    deadline.check();
    round_trip.push_back(placement_sample());
    for (std::size_t i = 0; i < points; ++i)
      for (int h : hs) {
        bsp_sync();
        before(i);
        if (h > 0 && sends) bsp_put(dest, src.data(), area.data(), 0, h);
        const double t0 = bsp_time();
        bsp_sync();
        mine.push_back(bsp_time() - t0);
      }
  }
  MPI_Allreduce(MPI_IN_PLACE, mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, MPI_MIN,
                MPI_COMM_WORLD);
  bsp_pop_reg(area.data());
  bsp_sync();
  return by_repetition(mine, points * std::size(hs), 1, round_trip);
}

// Supersteps after a compute gap (BspMeasurements::gap): every process spins on the clock
// for the gap, then puts (or not) and syncs; the repetitions go round every (gap, h) pair, as
// T(h)'s do, so a slow spell of the host spreads over all of them. Spinning, so that the
// gap's length alone is measured: streaming a working set the caches hold (8 MiB on the AMD
// EPYC guest's 32 MiB L3) gave the same increase within the noise (after 10 ms: +3.6-4.1 us
// spinning, +3.9-4.8 us streaming), but one beyond the cache costs more, which
// measure_after_stream measures by the working set. The 10 ms gaps make this about 1 s at
// 31 repetitions.
ByRepetition measure_after_gap(BspMeasurements& m, int reps, const Deadline& deadline) {
  const double gaps[] = {0, 10e-6, 100e-6, 1e-3, 10e-3};
  m.gap.assign(std::begin(gaps), std::end(gaps));
  return three_supersteps_after(reps, m.gap.size(), deadline, [&](std::size_t i) {
    const double start = bsp_time();
    while (bsp_time() - start < gaps[i]) {
    }
  });
}

// The last-level cache a CPU sees, bytes: cpu0's unified level-3 cache as Linux's sysfs
// describes one instance of it; 0 when it does not. Not sysconf(_SC_LEVEL3_CACHE_SIZE): on
// the AMD EPYC guest it gave 384 MiB where the guest's L3 is 32 MiB.
double last_level_cache_bytes() {
  const auto read_line = [](const char* path) {
    char text[64] = "";
    if (std::FILE* f = std::fopen(path, "r")) {
      if (!std::fgets(text, sizeof text, f)) text[0] = '\0';
      std::fclose(f);
    }
    return std::string(text);
  };
  const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index3/";
  if (read_line((dir + "level").c_str()) != "3\n" || read_line((dir + "type").c_str()) != "Unified\n") return 0;
  double size = 0;
  char unit = 0;
  const std::string text = read_line((dir + "size").c_str());
  const int got = std::sscanf(text.c_str(), "%lf%c", &size, &unit);
  if (got < 1 || !(size > 0)) return 0;
  return size * (unit == 'K' ? 1024.0 : unit == 'M' ? 1048576.0 : unit == 'G' ? 1073741824.0 : 1.0);
}

// The working sets of the after-stream supersteps: 0, then 1 MiB rising fourfold to the
// largest, twice the last-level cache, held within [64 MiB, max_bytes] (at least 64 MiB: a
// cache sysfs does not describe, and room beyond a 32 MiB L3; at most max_bytes: each
// repetition makes three passes over it, and every process of the node holds one). Process
// 0's choice, so that every process runs as many supersteps.
std::vector<double> working_sets(double max_bytes) {
  constexpr double MiB = 1048576;
  double largest = std::floor(std::clamp(2.0 * last_level_cache_bytes(), 64 * MiB, std::max(max_bytes, 64 * MiB)) / MiB) * MiB;
  MPI_Bcast(&largest, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  std::vector<double> n = {0};
  for (double w = MiB; w < largest; w *= 4) n.push_back(w);
  n.push_back(largest);
  return n;
}

// Supersteps after a pass over a working set (BspMeasurements::working_set): every process
// reads and writes the first N bytes of its buffer (x = x / 2 + 1, as a kernel's sweep over
// its arrays), then puts (or not) and syncs; the repetitions go round every (N, h) pair, as the
// gaps' do. The pass covers the same N bytes each time, so a working set the caches hold
// stays there, as a program's arrays do from superstep to superstep. `buffer` is the caller's
// (StreamBuffer): allocated and first touched here only when it is smaller than the largest
// working set, so a repeated measurement streams over pages already touched.
ByRepetition measure_after_stream(BspMeasurements& m, int reps, double max_working_set, StreamBuffer& buffer,
                                  const Deadline& deadline) {
  m.working_set = working_sets(max_working_set);
  const std::size_t largest = static_cast<std::size_t>(m.working_set.back() / sizeof(double));
  if (buffer.size() < largest) buffer.assign(largest, 1.0);  // touched here
  return three_supersteps_after(reps, m.working_set.size(), deadline, [&](std::size_t i) {
    const std::size_t words = static_cast<std::size_t>(m.working_set[i] / sizeof(double));
    for (std::size_t k = 0; k < words; ++k) buffer[k] = buffer[k] * 0.5 + 1.0;
    asm volatile("" : : "r"(buffer.data()) : "memory");  // keep the pass
  });
}

// The after-stream figures of BspMeasurements from the samples at `placement`.
void assemble_after_stream(BspMeasurements& m, const ByRepetition& a, double placement) {
  const std::vector<double> t = a.medians(placement);
  std::vector<double>* outs[] = {&m.after_stream_empty, &m.after_stream_64, &m.after_stream_2048};
  for (std::size_t g = 0; g < m.working_set.size(); ++g)
    for (std::size_t k = 0; k < 3; ++k) outs[k]->push_back(t[g * 3 + k]);
}

// The after-gap figures of BspMeasurements from the samples at `placement`.
void assemble_after_gap(BspMeasurements& m, const ByRepetition& a, double placement) {
  const std::vector<double> t = a.medians(placement);
  std::vector<double>* outs[] = {&m.after_gap_empty, &m.after_gap_64, &m.after_gap_2048};
  for (std::size_t g = 0; g < m.gap.size(); ++g)
    for (std::size_t k = 0; k < 3; ++k) outs[k]->push_back(t[g * 3 + k]);
}

// The time of h bytes sent as messages of x bytes, per iteration. combined: scattered
// bsp_put records (one MPI message per destination), bsp_sync timed as in h_relation_block;
// separate: one MPI message per x bytes, the whole exchange timed (the slowest process).
double granular_time(char* src, char* dst, int h, int x, bool combined, int iters,
                     std::vector<MPI_Request>& req) {
  const int p = bsp_nprocs(), s = bsp_pid();
  const int others = p > 1 ? p - 1 : 1;
  const int msgs = h / x;
  // A shuffled order of places within a destination: no two records adjacent or evenly
  // spaced, so none merge into one record or a run (the library would combine those).
  std::vector<int> slot(static_cast<std::size_t>(std::max(msgs / others, 1)));
  std::iota(slot.begin(), slot.end(), 0);
  std::shuffle(slot.begin(), slot.end(), std::mt19937(977u));
  bsp_sync();
  MPI_Barrier(MPI_COMM_WORLD);
  if (combined) {
    std::vector<double> in_sync(static_cast<std::size_t>(iters));
    for (int it = 0; it < iters; ++it) {
      for (int m = 0; m < msgs; ++m) {
        const int dest = p > 1 ? (s + 1 + m % others) % p : s;
        const int k = std::min(m / others, static_cast<int>(slot.size()) - 1);
        bsp_put(dest, src + static_cast<std::size_t>(m) * x, dst,
                (s * (h / others + x)) + slot[static_cast<std::size_t>(k)] * x, x);
      }
      const double t0 = bsp_time();
      bsp_sync();
      in_sync[static_cast<std::size_t>(it)] = bsp_time() - t0;
    }
    MPI_Allreduce(MPI_IN_PLACE, in_sync.data(), iters, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    return std::accumulate(in_sync.begin(), in_sync.end(), 0.0) / iters;
  }
  const double t0 = bsp_time();
  for (int it = 0; it < iters; ++it) {
    int n = 0;
    if (p == 1) {
      for (int m = 0; m < msgs; ++m) std::memcpy(dst + m * x, src + m * x, x);
    } else {
      for (int m = 0; m < msgs; ++m) {
        const int from = (s - 1 - m % others + 2 * p) % p;
        MPI_Irecv(dst + static_cast<std::size_t>(m) * x, x, MPI_BYTE, from, 5, MPI_COMM_WORLD,
                  &req[n++]);
      }
      for (int m = 0; m < msgs; ++m) {
        const int dest = (s + 1 + m % others) % p;
        MPI_Isend(src + static_cast<std::size_t>(m) * x, x, MPI_BYTE, dest, 5, MPI_COMM_WORLD,
                  &req[n++]);
      }
      MPI_Waitall(n, req.data(), MPI_STATUSES_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);  // the superstep's synchronisation
  }
  return instrument::max_over_ranks((bsp_time() - t0) / iters, MPI_COMM_WORLD);
}

}  // namespace

FirstUseCosts measure_first_use(int h_bytes) {
  FirstUseCosts u;
  const int p = bsp_nprocs(), s = bsp_pid(), half = p / 2;
  if (p < 2) return u;
  // Registered in the first superstep, as a program registers its arrays in its first; the
  // puts and gets below go through it, as pattern_block's do through its area.
  std::vector<char> src(static_cast<std::size_t>(h_bytes), 1), area(static_cast<std::size_t>(h_bytes)),
      into(static_cast<std::size_t>(h_bytes));
  double t[5];
  bsp_push_reg(area.data(), h_bytes);
  double t0 = bsp_time();
  bsp_sync();
  t[0] = bsp_time() - t0;
  // Then the patterns in the order of the paper's 500-relation and of pattern_block's shapes.
  bsp_put((s + 1) % p, src.data(), area.data(), 0, h_bytes);
  t0 = bsp_time();
  bsp_sync();
  t[1] = bsp_time() - t0;
  if (s < half) bsp_put(s + half, src.data(), area.data(), 0, h_bytes);
  t0 = bsp_time();
  bsp_sync();
  t[2] = bsp_time() - t0;
  // The upper half gets from the lower: the getters are the processes that left the one-way
  // superstep last (they received), so they enter this sync last, and the last process to
  // enter waits for its reply, as in the curve's gets back to back (pattern_block), where
  // the getters leave last too. Getters entering first (the lower half getting) would time
  // only the server's side: after a one-way superstep into the getter, a get superstep cost
  // 1.13-1.14 us at p = 2 against 0.74-0.75 us after one into the server (AMD EPYC Zen 5).
  if (s >= half && s < 2 * half) bsp_get(s - half, area.data(), 0, into.data(), h_bytes);
  t0 = bsp_time();
  bsp_sync();
  t[3] = bsp_time() - t0;
  // Then the first pop, in an empty superstep, as a program pops its arrays before bsp_end
  // (the 500-relation's bsp_end: 0.63-0.81 us, against 0.23-0.28 without its two pops).
  bsp_pop_reg(area.data());
  t0 = bsp_time();
  bsp_sync();
  t[4] = bsp_time() - t0;
  // As every figure of the probe: the smallest time in bsp_sync over processes (the last
  // process to enter waits for no one), reduced after the supersteps, not between them.
  MPI_Allreduce(MPI_IN_PLACE, t, 5, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  u.h_bytes = h_bytes;
  u.first_superstep = t[0];
  u.exchange = t[1];
  u.one_way = t[2];
  u.gets = t[3];
  u.pop = t[4];
  return u;
}

BspMeasurements measure_bsp_machine(int reps, int hmax_asked, double max_working_set) {
  StreamBuffer buffer;
  return measure_bsp_machine(reps, hmax_asked, max_working_set, buffer);
}

BspMeasurements measure_bsp_machine(int reps, int hmax_asked, double max_working_set, StreamBuffer& stream_buffer,
                                    double deadline_at) {
  const Deadline deadline{deadline_at};
  BspMeasurements m;
  const int p = bsp_nprocs();
  const int others = p > 1 ? p - 1 : 1;
  const int hmax = hmax_asked / (8 * others) * (8 * others);
  using instrument::median;

  m.s = measure_s(reps, deadline);

  // l and g: T(h) for h = 0 .. hmax in 16 steps, each the median of `reps` supersteps.
  std::vector<double> src(hmax / 8 + 8, 1.0), dst(static_cast<std::size_t>(hmax / 8) * p + 8);
  bsp_push_reg(dst.data(), static_cast<int>(dst.size() * sizeof(double)));
  bsp_sync();
  // The repetitions go round the h values (not all of one h, then the next), so a spell in
  // which the host slows the processes down spreads over every h instead of lifting one
  // point of the line (which moved l by 5 us in a run that measured h in blocks).
  // Small h as well (0, 256 B, 1, 4 KiB), where l dominates: the supersteps of many
  // programs are there, and the relative fit needs them to place l.
  const int quantum = 8 * others;
  for (int h : {0, 256, 1024, 4096})
    if (h < hmax / 16) m.h.push_back(h / quantum * quantum);
  for (int k = 1; k <= 16; ++k) m.h.push_back(hmax / 16 / quantum * quantum * k);
  // Each T(h): the median over reps blocks of 4 supersteps (3 timed) of the smallest time in
  // bsp_sync over processes, as the profiler reduces a superstep (the last process to
  // arrive waits for no one); a descheduled process shows as a slow superstep, which the
  // median discards.
  constexpr int block = 4;
  std::vector<double> scratch;
  h_relation_block(src.data(), dst.data(), hmax, 3, scratch);  // the buffers grow
  std::vector<double> mine, round_trip;
  for (int r = 0; r < reps; ++r) {
    deadline.check();
    round_trip.push_back(placement_sample());
    for (std::size_t k = 0; k < m.h.size(); ++k)
      h_relation_block(src.data(), dst.data(), static_cast<int>(m.h[k]), block, mine);
  }
  MPI_Allreduce(MPI_IN_PLACE, mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, MPI_MIN,
                MPI_COMM_WORLD);
  const ByRepetition t_samples = by_repetition(mine, m.h.size(), block - 1, round_trip);

  // g(x) and N_1/2: h = hgran bytes as messages of x bytes.
  const int hgran = 16384 / (8 * others) * (8 * others) * others;
  m.h_granular = hgran;
  std::vector<char> gsrc(hgran + 8192, 1), gdst(static_cast<std::size_t>(hgran + 8192) * p, 0);
  bsp_push_reg(gdst.data(), static_cast<int>(gdst.size()));
  bsp_sync();
  std::vector<MPI_Request> req(2 * (hgran / 8 + 16));
  for (int x = 8; x <= 4096; x *= 2) {
    if (hgran / x < others) break;
    deadline.check();
    const int h = hgran / x / others * others * x;
    std::vector<double> rs, rc;
    granular_time(gsrc.data(), gdst.data(), h, x, true, 3, req);
    granular_time(gsrc.data(), gdst.data(), h, x, false, 3, req);
    for (int r = 0; r < reps; ++r) {
      rc.push_back(granular_time(gsrc.data(), gdst.data(), h, x, true, 1, req));
      rs.push_back(granular_time(gsrc.data(), gdst.data(), h, x, false, 1, req));
    }
    m.x.push_back(x);
    m.h_x.push_back(h);
    m.t_combined.push_back(median(rc));
    m.t_separate.push_back(median(rs));
  }
  bsp_pop_reg(gdst.data());
  bsp_pop_reg(dst.data());
  bsp_sync();
  const CurveSamples curves = measure_curves(reps, hmax, deadline);
  const ByRepetition after_gap = measure_after_gap(m, reps, deadline);
  const ByRepetition after_stream = measure_after_stream(m, reps, max_working_set, stream_buffer, deadline);
  // One placement for every figure that feeds a model: the median of all the repetitions'
  // round trips (T(h), the curves, the gaps, the working sets); repetitions at another are
  // left out.
  for (const ByRepetition* b : {&t_samples, &curves.at_grid, &curves.at_sides, &after_gap, &after_stream})
    m.round_trip.insert(m.round_trip.end(), b->round_trip.begin(), b->round_trip.end());
  m.placement = core_round_trip(m.round_trip);
  std::size_t kept = 0, all = 0;
  for (const ByRepetition* b : {&t_samples, &curves.at_grid, &curves.at_sides, &after_gap, &after_stream})
    for (std::size_t r = 0; r < b->round_trip.size(); ++r, ++all) kept += b->kept(r, m.placement);
  m.placement_kept = all ? static_cast<double>(kept) / static_cast<double>(all) : 1.0;
  m.t = t_samples.medians(m.placement);
  assemble_curves(m, curves, m.placement);
  assemble_after_gap(m, after_gap, m.placement);
  assemble_after_stream(m, after_stream, m.placement);
  return m;
}

}  // namespace bspmodel
