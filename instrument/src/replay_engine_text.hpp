// How the replay engine names an operation in its errors: "recv from 2 tag 5, 64 B". Internal.
#pragma once
#include <string>

#include "instrument/replay.hpp"

namespace instrument::replay::detail {

std::string op_summary(const Op& op);
// "rank 3, op 17 (recv from 2 tag 5, 64 B)": the rank, Program::describe and the summary.
std::string op_place(const Program& program, int rank, std::int64_t index, const Op& op);
const char* collective_name(Collective c);
std::string seconds_text(double s);  // "1.5e-06 s", "inf s"

}  // namespace instrument::replay::detail
