#include "instrument/trace_export.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <ostream>

#include "instrument/error.hpp"

namespace instrument {

std::string json_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out.push_back(static_cast<char>(c));  // UTF-8 passes through unchanged
        }
    }
  }
  return out;
}

void write_chrome_trace(std::ostream& out, const GatheredTrace& trace) {
  out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[";
  bool first = true;
  auto sep = [&] {
    out << (first ? "\n" : ",\n");
    first = false;
  };
  for (std::size_t r = 0; r < trace.per_rank.size(); ++r) {
    sep();
    out << "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":" << r
        << ",\"args\":{\"name\":\"rank " << r << "\"}}";
  }
  char num[64];
  for (std::size_t r = 0; r < trace.per_rank.size(); ++r) {
    for (const auto& e : trace.per_rank[r]) {
      const bool known = e.kind >= 0 && static_cast<std::size_t>(e.kind) < trace.kinds.size();
      const std::string name =
          known ? trace.kinds[static_cast<std::size_t>(e.kind)] : "kind " + std::to_string(e.kind);
      sep();
      // Microseconds with nanosecond digits: the recorder's resolution.
      std::snprintf(num, sizeof num, "\"ts\":%.3f,\"dur\":%.3f", e.t_begin * 1e6,
                    (e.t_end - e.t_begin) * 1e6);
      out << "{\"name\":\"" << json_escape(name)
          << "\",\"cat\":\"phase\",\"ph\":\"X\",\"pid\":0,\"tid\":" << r << ',' << num
          << ",\"args\":{\"peer\":" << e.peer << ",\"bytes\":" << e.bytes << ",\"work\":" << e.work
          << ",\"tag\":" << e.tag << ",\"request\":" << e.request << "}}";
    }
  }
  out << "\n]}\n";
}

void write_chrome_trace_file(const std::string& path, const GatheredTrace& trace) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp);
    if (!out)
      throw InputError(
          path, "",
          std::string("cannot write trace: cannot create ") + tmp + ": " + std::strerror(errno));
    write_chrome_trace(out, trace);
    out.close();
    if (!out) {
      std::remove(tmp.c_str());
      throw InputError(path, "", "cannot write trace: write to " + tmp + " failed");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw InputError(path, "",
                     std::string("cannot write trace: rename failed: ") + std::strerror(err));
  }
}

}  // namespace instrument
