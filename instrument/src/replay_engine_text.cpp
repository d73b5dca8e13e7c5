// Names of operations and places for the replay engine's errors.
#include "replay_engine_text.hpp"

#include <cstdio>
#include <string>

namespace instrument::replay {

std::string Program::describe(int /*rank*/, std::int64_t index) const {
  return "op " + std::to_string(index);
}

std::string StoredProgram::describe(int rank, std::int64_t index) const {
  const auto r = static_cast<std::size_t>(rank);
  const auto i = static_cast<std::size_t>(index);
  if (r < source_index.size() && i < source_index[r].size() && source_index[r][i] >= 0) {
    return "op " + std::to_string(index) + " = trace event " + std::to_string(source_index[r][i]);
  }
  return Program::describe(rank, index);
}

ReplayError::ReplayError(int rank, std::int64_t index, const std::string& what)
    : std::runtime_error(what), rank_(rank), index_(index) {}

namespace detail {

const char* collective_name(Collective c) {
  switch (c) {
    case Collective::barrier: return "barrier";
    case Collective::allreduce: return "allreduce";
    case Collective::bcast: return "bcast";
  }
  return "collective of unknown kind";
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g s", s);
  return buf;
}

namespace {
std::string message_text(const char* verb, const char* dir, const Op& op) {
  std::string t = verb;
  t.append(" ").append(dir).append(" ").append(std::to_string(op.peer));
  t.append(" tag ").append(std::to_string(op.tag)).append(", ");
  t.append(std::to_string(op.bytes)).append(" B");
  if (op.kind == OpKind::isend || op.kind == OpKind::irecv) {
    t.append(", request ").append(std::to_string(op.request));
  }
  return t;
}
}  // namespace

std::string op_summary(const Op& op) {
  switch (op.kind) {
    case OpKind::compute: return "compute " + seconds_text(op.seconds);
    case OpKind::send: return message_text("send", "to", op);
    case OpKind::isend: return message_text("isend", "to", op);
    case OpKind::recv: return message_text("recv", "from", op);
    case OpKind::irecv: return message_text("irecv", "from", op);
    case OpKind::wait: return "wait request " + std::to_string(op.request);
    case OpKind::collective: {
      std::string t = collective_name(op.collective);
      if (op.collective == Collective::bcast) t += " from " + std::to_string(op.peer);
      if (op.collective != Collective::barrier) t += ", " + std::to_string(op.bytes) + " B";
      return t;
    }
  }
  return "operation of unknown kind " + std::to_string(static_cast<int>(op.kind));
}

std::string op_place(const Program& program, int rank, std::int64_t index, const Op& op) {
  return "rank " + std::to_string(rank) + ", " + program.describe(rank, index) + " (" +
         op_summary(op) + ")";
}

}  // namespace detail
}  // namespace instrument::replay
