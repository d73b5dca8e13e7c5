// Reads and writes BSP machine files through the suite's generic reader/writer
// (instrument::MachineFile), so LogGP and BSP keys can share one file.
#include "bsplib/model/machine_params.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "bsplib/model/strict_number.hpp"
#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/output_file.hpp"

namespace bspmodel {

namespace {
const char* const known[] = {"format", "name", "source", "bsp.source", "bsp.p", "bsp.s_flops_per_second",
                             "bsp.l_seconds", "bsp.g_seconds_per_byte", "bsp.n_half_bytes",
                             "bsp.word_bytes", "bsp.empty_superstep_seconds",
                             "bsp.curve.h_bytes", "bsp.curve.one_way_seconds",
                             "bsp.curve.exchange_seconds", "bsp.curve.gets_seconds",
                             "bsp.after_gap.gap_seconds", "bsp.after_gap.empty_seconds",
                             "bsp.after_gap.one_way_64_seconds", "bsp.after_gap.one_way_2048_seconds",
                             "bsp.after_stream.working_set_bytes", "bsp.after_stream.empty_seconds",
                             "bsp.after_stream.one_way_64_seconds", "bsp.after_stream.one_way_2048_seconds",
                             "bsp.first_use.h_bytes", "bsp.first_use.first_superstep_seconds",
                             "bsp.first_use.exchange_seconds", "bsp.first_use.one_way_seconds",
                             "bsp.first_use.gets_seconds", "bsp.first_use.pop_seconds",
                             "bsp.core_round_trip_seconds"};
bool is_known(const std::string& k) {
  for (const char* n : known)
    if (k == n) return true;
  return false;
}

// The ranges of the BSP keys (README, "Machine files"). Wide enough for any machine one
// might want to predict for ('fortune telling'), narrow enough to refuse a sign error, a
// unit slip by 10^6 or more, and what no fit of a real measurement gives.
struct KeyRange {
  const char* key;
  double lo, hi;
  const char* unit;
};
// p: an MPI job's size is an int.
constexpr KeyRange kRangeP{"bsp.p", 1, 2147483647, "processes"};
// s: 0 = not measured; 1e18 flop/s is an exaflop machine in one process.
constexpr KeyRange kRangeS{"bsp.s_flops_per_second", 0, 1e18, "flop/s"};
// l: a barrier of 100 s is beyond any machine; 0 only if the network is free (p = 1).
constexpr KeyRange kRangeL{"bsp.l_seconds", 0, 100, "s"};
// g_inf: 1 s per byte is a 1 B/s link; 0 only if bytes are free.
constexpr KeyRange kRangeG{"bsp.g_seconds_per_byte", 0, 1, "s/byte"};
// N_1/2: a message of 1 TB to reach half the bandwidth is beyond any network.
constexpr KeyRange kRangeNHalf{"bsp.n_half_bytes", 0, 1e12, "bytes"};
// a cache line's round trip between two CPUs: 0 = not measured; a second is beyond any
// machine (60-600 ns measured).
constexpr KeyRange kRangeRoundTrip{"bsp.core_round_trip_seconds", 0, 1, "s"};
// the paper's word is 4 bytes; words beyond 64 bytes are not words.
constexpr KeyRange kRangeWord{"bsp.word_bytes", 1, 64, "bytes"};

// The curves: up to 64 points, h a whole number of bytes in [1, 2^31 - 1] rising strictly,
// each time in [0, 100] s as l is.
constexpr KeyRange kRangeCurveH{"bsp.curve.h_bytes", 1, 2147483647, "bytes"};
constexpr KeyRange kRangeCurveT{"bsp.curve.*_seconds", 0, 100, "s"};
const char* const kCurveKeys[] = {"bsp.curve.h_bytes", "bsp.curve.one_way_seconds",
                                  "bsp.curve.exchange_seconds", "bsp.curve.gets_seconds"};

// The after-gap costs: gaps in [0, 100] s, 0 first, strictly rising; times in [0, 100] s.
constexpr KeyRange kRangeGap{"bsp.after_gap.gap_seconds", 0, 100, "s"};
const char* const kAfterGapKeys[] = {"bsp.after_gap.gap_seconds", "bsp.after_gap.empty_seconds",
                                     "bsp.after_gap.one_way_64_seconds",
                                     "bsp.after_gap.one_way_2048_seconds"};

// The after-stream costs: working sets whole numbers of bytes in [0, 2^50], 0 first,
// strictly rising; times in [0, 100] s.
constexpr KeyRange kRangeWorkingSet{"bsp.after_stream.working_set_bytes", 0, 1125899906842624.0, "bytes"};
const char* const kAfterStreamKeys[] = {"bsp.after_stream.working_set_bytes", "bsp.after_stream.empty_seconds",
                                        "bsp.after_stream.one_way_64_seconds",
                                        "bsp.after_stream.one_way_2048_seconds"};

double whole_in_range(const instrument::MachineFile& f, const char* key, const KeyRange& r);

// A fresh process's first supersteps: h a whole number of bytes in [1, 2^31 - 1] as the
// curves', each time in [0, 100] s.
const char* const kFirstUseKeys[] = {"bsp.first_use.h_bytes", "bsp.first_use.first_superstep_seconds",
                                     "bsp.first_use.exchange_seconds", "bsp.first_use.one_way_seconds",
                                     "bsp.first_use.gets_seconds"};
const char* const kFirstUsePopKey = "bsp.first_use.pop_seconds";

// A list of numbers separated by spaces, each the whole token (strict_number.hpp).
std::vector<double> number_list(const instrument::MachineFile& f, const char* key) {
  const std::string text = f.get_string(key).value_or("");
  std::vector<double> out;
  for (std::size_t at = text.find_first_not_of(' '); at != std::string::npos;
       at = text.find_first_not_of(' ', at)) {
    const std::size_t end = std::min(text.find(' ', at), text.size());
    const std::string place = std::string(key) + " item " + std::to_string(out.size() + 1);
    if (out.size() == kMaxCurvePoints)
      throw instrument::InputError(f.name(), key,
                                   std::string(key) + " must hold at most " +
                                       std::to_string(kMaxCurvePoints) + " numbers");
    out.push_back(real_in_range(std::string_view(text).substr(at, end - at), -1e300, 1e300,
                                {f.name(), place, key, ""}));
    at = end;
  }
  return out;
}

SuperstepCurves read_curves(const instrument::MachineFile& f) {
  SuperstepCurves c;
  if (f.has("bsp.empty_superstep_seconds"))
    c.empty_seconds = f.get_double("bsp.empty_superstep_seconds").value_or(0);
  int present = 0;
  for (const char* k : kCurveKeys) present += f.has(k);
  if (present == 0) return c;
  if (present != 4 || !f.has("bsp.empty_superstep_seconds"))
    throw instrument::InputError(f.name(), "bsp.curve.*",
                                 "the superstep curves need all of bsp.curve.h_bytes, "
                                 "bsp.curve.one_way_seconds, bsp.curve.exchange_seconds, "
                                 "bsp.curve.gets_seconds and bsp.empty_superstep_seconds, or "
                                 "none of them");
  c.h_bytes = number_list(f, kCurveKeys[0]);
  c.one_way = number_list(f, kCurveKeys[1]);
  c.exchange = number_list(f, kCurveKeys[2]);
  c.gets = number_list(f, kCurveKeys[3]);
  return c;
}

// A cost series (the after-gap and the after-stream costs): the comm+sync of an empty
// superstep and of one put of 64 B and of 2 KiB one way at rising points, 0 first. Its four
// keys (the points first), what it is called in a refusal, and its points' rule.
struct SeriesSpec {
  const char* const* keys;  // [4]
  const char* costs;        // "after-gap costs"
  const char* point;        // "gap": one time per gap
  const char* points_rule;  // "numbers in [0, 100] s"
  KeyRange range;
  bool whole;               // the points are whole numbers
};
const SeriesSpec kGapSeries{kAfterGapKeys, "after-gap costs", "gap", "numbers in [0, 100] s", kRangeGap, false};
const SeriesSpec kStreamSeries{kAfterStreamKeys, "after-stream costs", "working set",
                               "whole numbers of bytes in [0, 2^50]", kRangeWorkingSet, true};

// All four lists, or none (empty lists).
void read_series(const instrument::MachineFile& f, const SeriesSpec& spec, std::vector<double>* const lists[4]) {
  int present = 0;
  for (int k = 0; k < 4; ++k) present += f.has(spec.keys[k]);
  if (present == 0) return;
  if (present != 4)
    throw instrument::InputError(f.name(), std::string(spec.keys[0]).substr(0, std::string(spec.keys[0]).rfind('.')) + ".*",
                                 std::string("the ") + spec.costs + " need all of " + spec.keys[0] + ", " + spec.keys[1] +
                                     ", " + spec.keys[2] + " and " + spec.keys[3] + ", or none of them");
  for (int k = 0; k < 4; ++k) *lists[k] = number_list(f, spec.keys[k]);
}

void validate_series(const SeriesSpec& spec, const std::vector<double>* const lists[4], const std::string& source) {
  const std::vector<double>& points = *lists[0];
  if (points.empty()) {
    for (int k = 1; k < 4; ++k)
      if (!lists[k]->empty())
        throw instrument::InputError(source, spec.keys[0],
                                     std::string(spec.keys[0]) + " must list the " + spec.point + "s of the " + spec.costs);
    return;
  }
  for (int k = 1; k < 4; ++k)
    if (lists[k]->size() != points.size())
      throw instrument::InputError(source, spec.keys[k],
                                   std::string(spec.keys[k]) + " must hold one time per " + spec.point + " of " +
                                       spec.keys[0] + " (" + std::to_string(points.size()) + "); got " +
                                       std::to_string(lists[k]->size()));
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double x = points[i];
    if (!(x >= spec.range.lo && x <= spec.range.hi) || (spec.whole && x != std::floor(x)) || (i == 0 && x != 0) ||
        (i > 0 && x <= points[i - 1]))
      throw instrument::InputError(source, std::string(spec.keys[0]) + " item " + std::to_string(i + 1),
                                   std::string(spec.keys[0]) + " must be " + spec.points_rule +
                                       ", 0 first, strictly rising; got " + instrument::format_number(x));
    for (int k = 1; k < 4; ++k)
      require_in_range((*lists[k])[i], kRangeCurveT.lo, kRangeCurveT.hi,
                       {source, std::string(spec.keys[k]) + " item " + std::to_string(i + 1), spec.keys[k], "s"});
  }
}

AfterGapCosts read_after_gap(const instrument::MachineFile& f) {
  AfterGapCosts a;
  std::vector<double>* const lists[4] = {&a.gap_seconds, &a.empty, &a.one_way_64, &a.one_way_2048};
  read_series(f, kGapSeries, lists);
  return a;
}

AfterStreamCosts read_after_stream(const instrument::MachineFile& f) {
  AfterStreamCosts a;
  std::vector<double>* const lists[4] = {&a.working_set_bytes, &a.empty, &a.one_way_64, &a.one_way_2048};
  read_series(f, kStreamSeries, lists);
  return a;
}

// All five keys, or none.
FirstUseCosts read_first_use(const instrument::MachineFile& f) {
  FirstUseCosts u;
  int present = 0;
  for (const char* k : kFirstUseKeys) present += f.has(k);
  if (present == 0) {
    if (f.has(kFirstUsePopKey))
      throw instrument::InputError(f.name(), kFirstUsePopKey,
                                   std::string(kFirstUsePopKey) + " needs the other bsp.first_use.* keys");
    return u;
  }
  if (present != 5)
    throw instrument::InputError(f.name(), "bsp.first_use.*",
                                 "a fresh process's first supersteps need all of bsp.first_use.h_bytes, "
                                 "bsp.first_use.first_superstep_seconds, bsp.first_use.exchange_seconds, "
                                 "bsp.first_use.one_way_seconds and bsp.first_use.gets_seconds, or none of them");
  u.h_bytes = whole_in_range(f, kFirstUseKeys[0], kRangeCurveH);
  u.first_superstep = f.get_double(kFirstUseKeys[1]).value_or(0);
  u.exchange = f.get_double(kFirstUseKeys[2]).value_or(0);
  u.one_way = f.get_double(kFirstUseKeys[3]).value_or(0);
  u.gets = f.get_double(kFirstUseKeys[4]).value_or(0);
  u.pop = f.get_double(kFirstUsePopKey).value_or(0);  // optional: files before it lack it
  return u;
}

void validate_first_use(const FirstUseCosts& u, const std::string& source) {
  if (u.none()) return;
  const double h = u.h_bytes;
  if (std::floor(h) != h || h < kRangeCurveH.lo || h > kRangeCurveH.hi)
    throw instrument::InputError(source, kFirstUseKeys[0],
                                 std::string(kFirstUseKeys[0]) + " must be a whole number in " +
                                     integer_range_text(1, 2147483647, "bytes") + "; got " +
                                     instrument::format_number(h));
  const double times[] = {u.first_superstep, u.exchange, u.one_way, u.gets};
  for (int k = 0; k < 4; ++k)
    require_in_range(times[k], kRangeCurveT.lo, kRangeCurveT.hi, {source, kFirstUseKeys[k + 1], kFirstUseKeys[k + 1], "s"});
  if (u.pop != 0) require_in_range(u.pop, kRangeCurveT.lo, kRangeCurveT.hi, {source, kFirstUsePopKey, kFirstUsePopKey, "s"});
}

void validate_after_gap(const AfterGapCosts& a, const std::string& source) {
  const std::vector<double>* const lists[4] = {&a.gap_seconds, &a.empty, &a.one_way_64, &a.one_way_2048};
  validate_series(kGapSeries, lists, source);
}

void validate_after_stream(const AfterStreamCosts& a, const std::string& source) {
  const std::vector<double>* const lists[4] = {&a.working_set_bytes, &a.empty, &a.one_way_64, &a.one_way_2048};
  validate_series(kStreamSeries, lists, source);
}

void validate_curves(const SuperstepCurves& c, const std::string& source) {
  require_in_range(c.empty_seconds, kRangeCurveT.lo, kRangeCurveT.hi,
                   {source, "bsp.empty_superstep_seconds", "bsp.empty_superstep_seconds", "s"});
  if (c.empty()) {
    if (!c.one_way.empty() || !c.exchange.empty() || !c.gets.empty())
      throw instrument::InputError(source, "bsp.curve.h_bytes",
                                   "bsp.curve.h_bytes must list the h of the curves' points");
    return;
  }
  if (c.h_bytes.size() > kMaxCurvePoints)
    throw instrument::InputError(source, kCurveKeys[0],
                                 std::string(kCurveKeys[0]) + " must hold at most " +
                                     std::to_string(kMaxCurvePoints) + " numbers");
  const std::vector<double>* lists[] = {&c.one_way, &c.exchange, &c.gets};
  for (std::size_t k = 0; k < 3; ++k)
    if (lists[k]->size() != c.h_bytes.size())
      throw instrument::InputError(source, kCurveKeys[k + 1],
                                   std::string(kCurveKeys[k + 1]) + " must hold one time per h of "
                                   "bsp.curve.h_bytes (" + std::to_string(c.h_bytes.size()) +
                                   "); got " + std::to_string(lists[k]->size()));
  for (std::size_t i = 0; i < c.h_bytes.size(); ++i) {
    const std::string place = std::string(kRangeCurveH.key) + " item " + std::to_string(i + 1);
    const double h = c.h_bytes[i];
    if (std::floor(h) != h || h < kRangeCurveH.lo || h > kRangeCurveH.hi ||
        (i > 0 && h <= c.h_bytes[i - 1]))
      throw instrument::InputError(source, place,
                                   "bsp.curve.h_bytes must be whole numbers in " +
                                       integer_range_text(1, 2147483647, "bytes") +
                                       ", strictly rising; got " + instrument::format_number(h));
    for (std::size_t k = 0; k < 3; ++k)
      require_in_range((*lists[k])[i], kRangeCurveT.lo, kRangeCurveT.hi,
                       {source, std::string(kCurveKeys[k + 1]) + " item " + std::to_string(i + 1),
                        kCurveKeys[k + 1], "s"});
  }
}

std::string list_text(const std::vector<double>& v) {
  std::string out;
  for (double x : v) {
    if (!out.empty()) out += ' ';
    out += instrument::format_number(x);
  }
  return out;
}

// A key that must hold a whole number within its range.
double whole_in_range(const instrument::MachineFile& f, const char* key, const KeyRange& r) {
  const double v = f.get_double(key).value_or(0);
  if (std::floor(v) != v)
    throw instrument::InputError(f.name(), key,
                                 std::string(key) + " must be an integer in " +
                                     integer_range_text(static_cast<std::int64_t>(r.lo),
                                                        static_cast<std::int64_t>(r.hi), r.unit) +
                                     "; got " +
                                     instrument::quote_token(f.get_string(key).value_or("")));
  require_in_range(v, r.lo, r.hi, {f.name(), key, key, r.unit});
  return v;
}
}  // namespace

BspMachine machine_from(const instrument::MachineFile& f, const std::string& path) {
  BspMachine m;
  m.file = path;
  m.name = f.get_string("name").value_or(path);
  // A file that loggps-probe also wrote keeps its "source"; bspprobe's is "bsp.source".
  m.source = f.get_string("bsp.source").value_or(f.get_string("source").value_or(""));
  if (f.has("bsp.p")) m.p = static_cast<int>(whole_in_range(f, "bsp.p", kRangeP));
  m.s_flops = f.get_double("bsp.s_flops_per_second").value_or(0);
  m.l_seconds = f.require_double("bsp.l_seconds", "BSP synchronisation cost l in seconds");
  m.g_seconds_per_byte =
      f.require_double("bsp.g_seconds_per_byte", "BSP g_inf in seconds per byte");
  m.n_half_bytes = f.get_double("bsp.n_half_bytes").value_or(0);
  m.word_bytes = f.has("bsp.word_bytes") ? whole_in_range(f, "bsp.word_bytes", kRangeWord) : 4;
  m.curves = read_curves(f);
  m.after_gap = read_after_gap(f);
  m.after_stream = read_after_stream(f);
  m.first_use = read_first_use(f);
  m.core_round_trip_seconds = f.get_double("bsp.core_round_trip_seconds").value_or(0);
  for (const std::string& k : f.keys())
    if (!is_known(k)) m.extra[k] = f.get_string(k).value_or("");
  validate_machine(m, path);
  return m;
}

BspMachine read_machine_file(const std::string& path) {
  try {
    return machine_from(instrument::MachineFile::read(path), path);
  } catch (const instrument::InputError& e) {
    throw std::runtime_error(e.what());
  }
}

void validate_machine(const BspMachine& m, const std::string& source) {
  auto check = [&](double v, const KeyRange& r) {
    require_in_range(v, r.lo, r.hi, {source, r.key, r.key, r.unit});
  };
  if (m.p != 0) check(m.p, kRangeP);
  check(m.s_flops, kRangeS);
  check(m.l_seconds, kRangeL);
  check(m.g_seconds_per_byte, kRangeG);
  check(m.n_half_bytes, kRangeNHalf);
  check(m.word_bytes, kRangeWord);
  check(m.core_round_trip_seconds, kRangeRoundTrip);
  validate_curves(m.curves, source);
  validate_after_gap(m.after_gap, source);
  validate_after_stream(m.after_stream, source);
  validate_first_use(m.first_use, source);
}

void write_machine_file(const std::string& path, const BspMachine& m,
                        const std::string& comment) {
  try {
    // Merge into a machine file that another probe (loggps-probe) wrote: replace only the
    // bsp.* keys, so one --machine file serves the LogGP models and the BSP predictor.
    validate_machine(m, path);
    // The target is checked before it is read to merge: a FIFO would block the read, and
    // a device or directory must not be replaced.
    { const instrument::OutputFile check(path, "BSP machine file"); }
    instrument::MachineFile f = instrument::MachineFile::read_to_merge(path);
    f.erase_prefix("bsp.");
    if (!comment.empty()) f.comment(comment);
    if (!f.has("name")) f.set("name", m.name);
    if (!m.source.empty()) {
      if (!f.has("source")) f.set("source", m.source);
      f.set("bsp.source", m.source);
    }
    f.set("bsp.p", static_cast<std::int64_t>(m.p));
    f.set("bsp.s_flops_per_second", m.s_flops);
    f.set("bsp.l_seconds", m.l_seconds);
    f.set("bsp.g_seconds_per_byte", m.g_seconds_per_byte);
    f.set("bsp.n_half_bytes", m.n_half_bytes);
    f.set("bsp.word_bytes", m.word_bytes);
    f.comment("derived, for reading only: l = " + instrument::format_number(m.l_flops()) +
              " flops, g = " + instrument::format_number(m.g_flops_per_word()) +
              " flops per 32-bit word");
    for (const auto& [k, v] : m.extra) f.set(k, v);
    if (m.core_round_trip_seconds > 0) {
      f.comment("the round trip of a cache line between the processes' CPUs while measured: the "
                "placement l and the curves are true of");
      f.set("bsp.core_round_trip_seconds", m.core_round_trip_seconds);
    }
    if (m.curves.empty_seconds > 0 || !m.curves.empty())
      f.set("bsp.empty_superstep_seconds", m.curves.empty_seconds);
    if (!m.curves.empty()) {
      f.comment("superstep curves (bspprobe): comm+sync at each h for one put of h bytes per "
                "pair, one way and both ways, and one get");
      f.set(kCurveKeys[0], list_text(m.curves.h_bytes));
      f.set(kCurveKeys[1], list_text(m.curves.one_way));
      f.set(kCurveKeys[2], list_text(m.curves.exchange));
      f.set(kCurveKeys[3], list_text(m.curves.gets));
    }
    if (!m.after_gap.none()) {
      f.comment("after-gap costs (bspprobe): comm+sync of an empty superstep and of one put of "
                "64 B and 2 KiB one way, after each gap of spinning on the clock between syncs");
      f.set(kAfterGapKeys[0], list_text(m.after_gap.gap_seconds));
      f.set(kAfterGapKeys[1], list_text(m.after_gap.empty));
      f.set(kAfterGapKeys[2], list_text(m.after_gap.one_way_64));
      f.set(kAfterGapKeys[3], list_text(m.after_gap.one_way_2048));
    }
    if (!m.after_stream.none()) {
      f.comment("after-stream costs (bspprobe): comm+sync of an empty superstep and of one put of "
                "64 B and 2 KiB one way, after each process went over each working set (bytes, read "
                "and written) since the previous sync");
      f.set(kAfterStreamKeys[0], list_text(m.after_stream.working_set_bytes));
      f.set(kAfterStreamKeys[1], list_text(m.after_stream.empty));
      f.set(kAfterStreamKeys[2], list_text(m.after_stream.one_way_64));
      f.set(kAfterStreamKeys[3], list_text(m.after_stream.one_way_2048));
    }
    if (!m.first_use.none()) {
      f.comment("a fresh process's first supersteps (bspprobe, right after bsp_begin, once each): "
                "its first superstep (one registration), then its first exchange, one-way put and get "
                "of h bytes a pair, then its first pop of a registration (an empty superstep)");
      f.set(kFirstUseKeys[0], static_cast<std::int64_t>(m.first_use.h_bytes));
      f.set(kFirstUseKeys[1], m.first_use.first_superstep);
      f.set(kFirstUseKeys[2], m.first_use.exchange);
      f.set(kFirstUseKeys[3], m.first_use.one_way);
      f.set(kFirstUseKeys[4], m.first_use.gets);
      if (m.first_use.pop > 0) f.set(kFirstUsePopKey, m.first_use.pop);
    }
    instrument::write_text_output(path, "BSP machine file", f.text());
  } catch (const instrument::InputError& e) {
    throw std::runtime_error(e.what());
  }
}

}  // namespace bspmodel
