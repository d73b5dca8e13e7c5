// The buffered send's cost beyond an MPI_Isend, at one rank (bsend_probe.hpp).
#include "tycho/bsend_probe.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "instrument/clock.hpp"

namespace tycho {

namespace {

constexpr int kTag = 77;

void check(int rc, const char* call) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("tycho bsend probe: ") + call + " failed");
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The extra of one size: median Bsend call less median Isend call, alternated.
double extra_at(int bytes, std::vector<char>& data, std::vector<char>& into, const std::vector<std::uint64_t>& stream,
                volatile std::uint64_t& sink) {
  std::vector<double> bsend, isend;
  for (int call = 0; call < 2 * kBsendProbeCalls; ++call) {
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < stream.size(); i += 8) sum += stream[i];  // the step between two sends
    sink = sink + sum;
    data[static_cast<std::size_t>(call) % data.size()] = static_cast<char>(call);  // the records just packed
    if (call % 2 == 0) {
      const double start = instrument::now_seconds();
      check(MPI_Bsend(data.data(), bytes, MPI_BYTE, 0, kTag, MPI_COMM_SELF), "MPI_Bsend");
      bsend.push_back(instrument::now_seconds() - start);
      check(MPI_Recv(into.data(), bytes, MPI_BYTE, 0, kTag, MPI_COMM_SELF, MPI_STATUS_IGNORE), "MPI_Recv");
    } else {
      MPI_Request r;
      const double start = instrument::now_seconds();
      check(MPI_Isend(data.data(), bytes, MPI_BYTE, 0, kTag, MPI_COMM_SELF, &r), "MPI_Isend");
      isend.push_back(instrument::now_seconds() - start);
      check(MPI_Recv(into.data(), bytes, MPI_BYTE, 0, kTag, MPI_COMM_SELF, MPI_STATUS_IGNORE), "MPI_Recv");
      check(MPI_Wait(&r, MPI_STATUS_IGNORE), "MPI_Wait");
    }
  }
  return median_of(bsend) - median_of(isend);
}

}  // namespace

BsendExtra measure_bsend_extra(std::size_t step_bytes) {
  // Errors come back as codes, not aborts: the calls' on MPI_COMM_SELF, and the buffer's
  // attach and detach (which belong to no communicator: MPI_COMM_WORLD's handler, MPI 3.1 8.3).
  MPI_Errhandler before, world_before;
  MPI_Comm_get_errhandler(MPI_COMM_SELF, &before);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &world_before);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  // Room for a few messages, as the sweep's buffer has room for a sweep's.
  std::vector<char> attached(8 * (static_cast<std::size_t>(kBsendProbeLargeBytes) + MPI_BSEND_OVERHEAD) + 4096);
  std::vector<char> data(kBsendProbeLargeBytes, 1), into(kBsendProbeLargeBytes);
  std::vector<std::uint64_t> stream(step_bytes / sizeof(std::uint64_t) + 1, 1);
  volatile std::uint64_t sink = 0;
  BsendExtra e;
  std::string error;
  bool attached_ok = false;
  try {
    check(MPI_Buffer_attach(attached.data(), static_cast<int>(attached.size())), "MPI_Buffer_attach");
    attached_ok = true;
    const double s = std::max(0.0, extra_at(kBsendProbeSmallBytes, data, into, stream, sink));
    const double l = std::max(0.0, extra_at(kBsendProbeLargeBytes, data, into, stream, sink));
    e.s_per_byte = std::max(0.0, (l - s) / (kBsendProbeLargeBytes - kBsendProbeSmallBytes));
    e.s_per_call = std::max(0.0, s - kBsendProbeSmallBytes * e.s_per_byte);
  } catch (const std::runtime_error& x) {
    error = x.what();
  }
  if (attached_ok) {
    void* buffer = nullptr;
    int size = 0;
    if (MPI_Buffer_detach(&buffer, &size) != MPI_SUCCESS && error.empty())
      error = "tycho bsend probe: MPI_Buffer_detach failed";
  }
  MPI_Comm_set_errhandler(MPI_COMM_SELF, before);
  MPI_Errhandler_free(&before);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, world_before);
  MPI_Errhandler_free(&world_before);
  if (!error.empty()) throw std::runtime_error(error);
  return e;
}

}  // namespace tycho
