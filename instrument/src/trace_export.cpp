#include "instrument/trace_export.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <streambuf>
#include <ostream>

#include "instrument/error.hpp"
#include "instrument/output_file.hpp"

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

namespace {

// An ostream's buffer over a file descriptor we opened ourselves (O_EXCL|O_NOFOLLOW, which
// std::ofstream cannot ask for); remembers the first write error.
class FdBuffer : public std::streambuf {
 public:
  explicit FdBuffer(int fd) : fd_(fd) { setp(buf_, buf_ + sizeof buf_); }
  int error() const { return error_; }
  int sync() override { return flush_buffer() ? 0 : -1; }

 protected:
  int_type overflow(int_type c) override {
    if (!flush_buffer()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }

 private:
  bool flush_buffer() {
    const char* p = pbase();
    while (p < pptr() && error_ == 0) {
      const ssize_t n = ::write(fd_, p, static_cast<std::size_t>(pptr() - p));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) error_ = n < 0 ? errno : EIO;
      else p += n;
    }
    setp(buf_, buf_ + sizeof buf_);
    return error_ == 0;
  }
  int fd_;
  int error_ = 0;
  char buf_[1 << 16];
};

}  // namespace

void write_chrome_trace_file(const std::string& path, const GatheredTrace& trace) {
  OutputFile out(path, "trace");  // symlinks and devices refused, stale temps removed
  const std::string& tmp = out.temp_path();
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) {
    const int err = errno;
    throw InputError(path, "", "cannot write trace: cannot create " + tmp + ": " + std::strerror(err));
  }
  FdBuffer buf(fd);
  {
    std::ostream os(&buf);
    write_chrome_trace(os, trace);
    os.flush();
  }
  const int write_error = buf.error();
  const int close_error = ::close(fd) != 0 ? errno : 0;
  if (write_error != 0 || close_error != 0)
    throw InputError(path, "", "cannot write trace: writing " + tmp + ": " +
                                   std::strerror(write_error != 0 ? write_error : close_error));
  out.commit();  // the destructor removes the temporary if anything above threw
}

}  // namespace instrument
