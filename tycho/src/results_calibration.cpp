// /tycho/calibration, written and read (results_calibration.hpp).
#include "tycho/results_calibration.hpp"

#include <algorithm>
#include <cmath>

#include "instrument/calibration_reader.hpp"
#include "instrument/results_file.hpp"
#include "tycho/run_report.hpp"
#include "tycho/bsend_probe.hpp"
#include "tycho/model/history_steps.hpp"
#include "tycho/unpack_probe.hpp"

namespace tycho {

namespace {

const char* const kGroup = "/tycho/calibration";
const instrument::CalibrationGroup kCalibration{"tycho", kGroup, "the calibration results file"};
constexpr double kMinTelemSeconds = 1e-10, kMaxTelemSeconds = 1.0;
// Which iterations T_elem counts: "scored" (the sweeps the run's timings count), or "every"
// (files written before the key, whose T_elem counted the first iteration too).
const char* const kTelemIterationsKey = "t_elem_iterations";
// A record's unpack is a memcpy of 24 G bytes and a queue update: ns on any CPU of today, up
// to a few us from memory under a sanitizer; [0.1 ns, 1 ms] refuses only nonsense.
constexpr double kMinUnpackSeconds = 1e-10, kMaxUnpackSeconds = 1e-3;
const char* const kUnpackKey = "unpack_s_per_record";
// The fixed parts (a message's unpack, a buffered send's call) may be 0 (within noise).
const char* const kUnpackMessageKey = "unpack_s_per_message";
const char* const kBsendCallKey = "bsend_extra_s_per_call";
const char* const kBsendByteKey = "bsend_extra_s_per_byte";
// A buffered send's copy into the attached buffer: tens of GB/s; 1 us a byte is nonsense.
constexpr double kMinBsendByteSeconds = 1e-15, kMaxBsendByteSeconds = 1e-6;
// A step's bookkeeping: under 0.1 us on today's CPUs (tycho/BENCHMARKS.md; about 1 us in files
// written before 2026-12-07, whose runs timed the step history's growth), 100x more under a
// sanitizer; 10 ms a step is a stalled run, not a cost to project.
const char* const kStepKey = "step_s_per_step";
constexpr double kMinStepSeconds = 1e-10, kMaxStepSeconds = 1e-2;

// A probe's figure as the reader will take it back: a positive value below the reader's least
// (the difference of two medians within the clock's resolution) becomes `below`, one above its
// greatest (nonsense from a preempted probe) is left out (-1, or 0 for the record's unpack), so a
// run never writes a calibration file that the next run refuses.
double as_the_reader_takes_it(double v, double least, double greatest, double below, double absent) {
  if (!(v > 0)) return v;
  if (v < least) return below;
  return v > greatest ? absent : v;
}

}  // namespace

const char* scheme_option_name(Scheme s) { return s == Scheme::step ? "step" : "ld"; }

double step_seconds_of(const RunResult& r, const model::MeasuredSweepPath& path) {
  if (r.ranks != 1 || !path.walked() || r.histories.empty()) return -1.0;
  double steps = 0.0;
  for (const std::int32_t it : path.iterations) steps += static_cast<double>(model::work_by_step(r.histories[0], 0, it).size());
  steps /= static_cast<double>(path.iterations.size());
  return steps > 0.0 ? path.mean.other / steps : -1.0;
}

TychoCalibration calibration_of(const RunOptions& o, const RunResult& r, const model::MeasuredSweepPath& path) {
  TychoCalibration c;
  c.e_p = static_cast<double>(r.mesh_cells) / r.ranks;
  c.t_elem_s = measured_t_elem(r);
  c.groups = r.problem.groups;
  c.directions = static_cast<int>(r.problem.quadrature.size());
  c.scheme = scheme_option_name(r.problem.scheme);
  c.threads = o.sweep.threads;
  c.priority = priority_name(o.priority);
  c.mcps = r.mcps;
  c.mesh = o.mesh_path;
  // Cold as in the sweep: a step of this run's MCPS tasks between two messages. A step holds
  // at most the rank's own tasks (an MCPS of 2^40 means "no limit"), and at most
  // kProbeStepBytes: the probes read a step's bytes before each of ~2300 timed calls, and past
  // the L2 of today's CPUs (1-2 MiB a core) a larger step leaves the calls no colder.
  constexpr std::size_t kProbeStepBytes = std::size_t{8} << 20;
  const auto rank_tasks = static_cast<std::int64_t>(std::ceil(c.e_p)) * c.directions;
  const auto most_tasks = static_cast<std::int64_t>(kProbeStepBytes / step_working_set_bytes(1, c.groups));
  const auto step_tasks = static_cast<std::size_t>(
      std::clamp<std::int64_t>(c.mcps, 1, std::max<std::int64_t>(1, std::min(rank_tasks, most_tasks))));
  const std::size_t step_bytes = step_working_set_bytes(step_tasks, c.groups);
  const UnpackCost unpack =
      measure_unpack_cost(static_cast<std::size_t>(std::llround(c.e_p)), c.directions, c.groups, step_tasks);
  c.unpack_s_per_record = as_the_reader_takes_it(unpack.s_per_record, kMinUnpackSeconds, kMaxUnpackSeconds,
                                                 kMinUnpackSeconds, 0.0);
  c.unpack_s_per_message =
      as_the_reader_takes_it(unpack.s_per_message, kMinUnpackSeconds, kMaxUnpackSeconds, 0.0, -1.0);
  const BsendExtra bsend = measure_bsend_extra(step_bytes);
  c.bsend_extra_s_per_call = as_the_reader_takes_it(bsend.s_per_call, kMinUnpackSeconds, kMaxUnpackSeconds, 0.0, -1.0);
  c.bsend_extra_s_per_byte =
      as_the_reader_takes_it(bsend.s_per_byte, kMinBsendByteSeconds, kMaxBsendByteSeconds, 0.0, -1.0);
  c.step_s = as_the_reader_takes_it(step_seconds_of(r, path), kMinStepSeconds, kMaxStepSeconds, 0.0, -1.0);
  return c;
}

void add_calibration(const TychoCalibration& c, instrument::ResultsExtras& x) {
  x.set_attribute(kGroup, "e_p", c.e_p);
  x.set_attribute(kGroup, "t_elem_s", c.t_elem_s);
  x.set_attribute(kGroup, kTelemIterationsKey, std::string(c.t_elem_scored ? "scored" : "every"));
  x.set_attribute(kGroup, "groups", static_cast<std::int64_t>(c.groups));
  x.set_attribute(kGroup, "directions", static_cast<std::int64_t>(c.directions));
  x.set_attribute(kGroup, "scheme", c.scheme);
  x.set_attribute(kGroup, "threads", static_cast<std::int64_t>(c.threads));
  if (!c.priority.empty()) x.set_attribute(kGroup, "priority", c.priority);
  if (c.mcps > 0) x.set_attribute(kGroup, "mcps", c.mcps);
  x.set_attribute(kGroup, "mesh", c.mesh);
  if (c.unpack_s_per_record > 0) x.set_attribute(kGroup, kUnpackKey, c.unpack_s_per_record);
  if (c.unpack_s_per_message >= 0) x.set_attribute(kGroup, kUnpackMessageKey, c.unpack_s_per_message);
  if (c.bsend_extra_s_per_call >= 0) x.set_attribute(kGroup, kBsendCallKey, c.bsend_extra_s_per_call);
  if (c.bsend_extra_s_per_byte >= 0) x.set_attribute(kGroup, kBsendByteKey, c.bsend_extra_s_per_byte);
  if (c.step_s >= 0) x.set_attribute(kGroup, kStepKey, c.step_s);
  x.set_attribute(kGroup, "description",
                  std::string("T_elem = every rank's time in the cell solves of its tasks, summed, / every rank's "
                              "cell-angle tasks (each all groups), over the iterations the run's sweep time counts (the first left "
                              "out when more than two: t_elem_iterations = scored; every in files from before it was kept), at "
                              "E_p = mesh cells / ranks, with these groups, "
                              "directions, scheme, threads per rank, priority and MCPS; unpack_s_per_record = T_unpack, the sweep's "
                              "unpack of one received face record timed on synthetic messages of this size, "
                              "unpack_s_per_message its fixed part a message (tycho/unpack_probe.hpp); "
                              "bsend_extra_s_per_call + bytes x bsend_extra_s_per_byte = an MPI_Bsend call less an "
                              "MPI_Isend call of the bytes (tycho/bsend_probe.hpp); step_s_per_step = T_step, a one-rank "
                              "sweep's critical path outside the solves and message calls over its steps (the step loop's "
                              "bookkeeping)"));
}

std::string telem_point_name(const TychoCalibration& c) {
  return c.t_elem_scored ? c.path : c.path + " (an older file: its T_elem counts the first iteration too)";
}

model::TelemPoint telem_point(const TychoCalibration& c) {
  return {c.e_p, c.t_elem_s, telem_point_name(c), static_cast<double>(c.mcps)};
}

std::string calibration_priority(const TychoCalibration& c) { return c.priority.empty() ? "blevel" : c.priority; }

std::string calibration_priority_found(const TychoCalibration& c) {
  return c.priority.empty() ? "none recorded (a file from before 2026-12-04: blevel, the default then, assumed)" : c.priority;
}

TychoCalibration read_tycho_calibration(const std::string& path) {
  return tycho_calibration_from(instrument::read_calibration_file(path, kCalibration), path);
}

std::vector<instrument::ResultsDocument> read_tycho_results_shared(const std::vector<std::string>& paths,
                                                                   MPI_Comm comm) {
  return instrument::read_calibration_files_shared(paths, kCalibration, comm);
}

TychoCalibration tycho_calibration_from(const instrument::ResultsDocument& doc, const std::string& path) {
  const instrument::CalibrationReader a(doc, kCalibration, path);
  TychoCalibration c;
  c.e_p = a.real("e_p", 1, 0x1p40, "cells per rank");
  // A cell-angle task of 1 to 64 groups takes tens of ns to tens of us on any CPU of today,
  // 100x more under a sanitizer or valgrind: [0.1 ns, 1 s] leaves room for both.
  c.t_elem_s = a.real("t_elem_s", kMinTelemSeconds, kMaxTelemSeconds, "seconds per cell-angle task");
  c.t_elem_scored = a.has(kTelemIterationsKey) && a.choice(kTelemIterationsKey, {"scored", "every"}) == "scored";
  c.groups = static_cast<int>(a.whole("groups", 1, 64, "energy groups"));
  c.directions = static_cast<int>(a.whole("directions", 1, 1 << 20, "directions of the quadrature"));
  c.scheme = a.choice("scheme", {"ld", "step"});
  c.threads = static_cast<int>(a.whole("threads", 1, 256, "OpenMP threads per rank"));
  if (a.has("priority")) c.priority = a.choice("priority", {"band-octant", "blevel", "boundary", "direction", "octant", "fifo"});
  c.mesh = a.text("mesh", "the mesh file of the calibration run");
  c.mcps = a.whole_or("mcps", 0, 1, std::int64_t{1} << 40, "the run's MCPS");  // 0: a file from before MCPS was kept
  c.unpack_s_per_record = a.real_or(kUnpackKey, 0.0, kMinUnpackSeconds, kMaxUnpackSeconds,
                                    "seconds per face record unpacked");  // 0: a file from before it was kept
  // -1: files from before these were kept.
  c.unpack_s_per_message = a.zero_or_real_or(kUnpackMessageKey, -1.0, kMinUnpackSeconds, kMaxUnpackSeconds,
                                             "seconds a message's unpack takes besides its records");
  c.bsend_extra_s_per_call = a.zero_or_real_or(kBsendCallKey, -1.0, kMinUnpackSeconds, kMaxUnpackSeconds,
                                               "seconds an MPI_Bsend call takes beyond an MPI_Isend");
  c.bsend_extra_s_per_byte = a.zero_or_real_or(kBsendByteKey, -1.0, kMinBsendByteSeconds, kMaxBsendByteSeconds,
                                               "seconds per byte an MPI_Bsend takes beyond an MPI_Isend");
  c.step_s = a.zero_or_real_or(kStepKey, -1.0, kMinStepSeconds, kMaxStepSeconds,
                               "seconds of a one-rank sweep's step bookkeeping per step");
  c.path = path;
  c.unreliable_because = instrument::calibration_unreliable_because(doc);
  return c;
}

}  // namespace tycho
