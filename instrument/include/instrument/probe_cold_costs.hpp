// From the cold-message and after-stream measurements (probe_cold.hpp) to the machine file's
// loggp.cold.* and loggp.after_stream.* keys (loggp_cold.hpp): which points count as
// measured, why none or some were left out (a loaded host), and the keys with those notes.
// loggps-probe and the apps' short probe (loggps_short_probe.hpp) write them alike.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "instrument/loggp_cold.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/probe_cold.hpp"

namespace instrument::probe {

// Why no loggp.cold.* keys can be written ("" when they can): the warm reference, or every
// working set beyond it, not measured (too few allreduces with the ranks arriving as
// intended: kMinAsIntended).
std::string cold_problem(const ColdMessages& c);
// The working sets left out (not measured), for the file and the report; "" when none.
std::string cold_dropped(const ColdMessages& c);
// The measured points (the models interpolate between them and hold the end values).
loggp::ColdCosts cold_costs(const ColdMessages& c);

// Why no loggp.after_stream.* keys can be written ("" when they can): a count with too few
// repetitions as intended (a loaded host), or intervals not increasing.
std::string after_stream_problem(const AfterStreamMeasurement& a);
// The spinning series (streams[0]) with the streaming ones measured as intended (the others
// are left out and named in `dropped`). `streams` is not empty.
loggp::AfterStream after_stream_costs(const std::vector<AfterStreamMeasurement>& streams, std::string& dropped);

// The keys: the costs where there are any, and the note beside them: probe.cold_omitted (no
// costs: why) or probe.cold_dropped (the points left out), likewise probe.after_stream_*.
void write_cold_keys(const std::optional<loggp::ColdCosts>& cold, const std::string& cold_note,
                     const std::optional<loggp::AfterStream>& after_stream, const std::string& after_stream_note,
                     MachineFile& mf);

// Both measurements' keys in one step: cold_costs and after_stream_costs where their problems
// allow, with the notes. `streams` as after_stream_costs takes them (the spinning one first).
void write_cold_keys(const ColdMessages& c, const std::vector<AfterStreamMeasurement>& streams, MachineFile& mf);

}  // namespace instrument::probe
