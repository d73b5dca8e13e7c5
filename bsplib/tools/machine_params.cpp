// Reads and writes BSP machine files through the suite's generic reader/writer
// (instrument::MachineFile), so LogGP and BSP keys can share one file.
#include "machine_params.hpp"

#include <cmath>
#include <stdexcept>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/output_file.hpp"
#include "strict_number.hpp"

namespace bspmodel {

namespace {
const char* const known[] = {"format", "name", "source", "bsp.source", "bsp.p", "bsp.s_flops_per_second",
                             "bsp.l_seconds", "bsp.g_seconds_per_byte", "bsp.n_half_bytes",
                             "bsp.word_bytes"};
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
// the paper's word is 4 bytes; words beyond 64 bytes are not words.
constexpr KeyRange kRangeWord{"bsp.word_bytes", 1, 64, "bytes"};

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

BspMachine read_machine_file(const std::string& path) {
  try {
    const instrument::MachineFile f = instrument::MachineFile::read(path);
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
    for (const std::string& k : f.keys())
      if (!is_known(k)) m.extra[k] = f.get_string(k).value_or("");
    validate_machine(m, path);
    return m;
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
    instrument::write_text_output(path, "BSP machine file", f.text());
  } catch (const instrument::InputError& e) {
    throw std::runtime_error(e.what());
  }
}

}  // namespace bspmodel
