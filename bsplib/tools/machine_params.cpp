// Reads and writes BSP machine files through the suite's generic reader/writer
// (instrument::MachineFile), so LogGP and BSP keys can share one file.
#include "machine_params.hpp"

#include <stdexcept>

#include "instrument/error.hpp"
#include "instrument/machine_file.hpp"

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
}  // namespace

BspMachine read_machine_file(const std::string& path) {
  try {
    const instrument::MachineFile f = instrument::MachineFile::read(path);
    BspMachine m;
    m.file = path;
    m.name = f.get_string("name").value_or(path);
    // A file that loggps-probe also wrote keeps its "source"; bspprobe's is "bsp.source".
    m.source = f.get_string("bsp.source").value_or(f.get_string("source").value_or(""));
    m.p = static_cast<int>(f.get_double("bsp.p").value_or(0));
    m.s_flops = f.get_double("bsp.s_flops_per_second").value_or(0);
    m.l_seconds = f.require_double("bsp.l_seconds", "BSP synchronisation cost l in seconds");
    m.g_seconds_per_byte =
        f.require_double("bsp.g_seconds_per_byte", "BSP g_inf in seconds per byte");
    m.n_half_bytes = f.get_double("bsp.n_half_bytes").value_or(0);
    m.word_bytes = f.get_double("bsp.word_bytes").value_or(4);
    for (const std::string& k : f.keys())
      if (!is_known(k)) m.extra[k] = f.get_string(k).value_or("");
    return m;
  } catch (const instrument::InputError& e) {
    throw std::runtime_error(e.what());
  }
}

void write_machine_file(const std::string& path, const BspMachine& m,
                        const std::string& comment) {
  try {
    // Merge into a machine file that another probe (loggps-probe) wrote: replace only the
    // bsp.* keys, so one --machine file serves the LogGP models and the BSP predictor.
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
    f.write(path);
  } catch (const instrument::InputError& e) {
    throw std::runtime_error(e.what());
  }
}

}  // namespace bspmodel
