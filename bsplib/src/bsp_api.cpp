// The C interface of bsp.h: each call checks it is inside bsp_begin/bsp_end and forwards
// to the Context. Nothing here holds state.
#define BSP_NO_SYNC_SITES 1
#include "bsp.h"

#include <cstdio>
#include <cstring>

#include "spmd.hpp"

using bsplib::Spmd;

extern "C" {

void bsp_init(void (*spmd_part)(void), int argc, char* argv[]) {
  Spmd::init(spmd_part, argc, argv);
}
void bsp_begin(int maxprocs) { Spmd::begin(maxprocs); }
void bsp_end(void) { Spmd::end(); }

int bsp_pid(void) { return Spmd::context("bsp_pid").pid(); }
int bsp_nprocs(void) { return Spmd::available(); }
double bsp_time(void) { return Spmd::context("bsp_time").time(); }

void bsp_sync(void) { Spmd::context("bsp_sync").sync(false); }
void bsp_sync_at(const char* file, int line) {
  bsplib::Context& c = Spmd::context("bsp_sync");
  c.profiler().set_site(file, line);
  c.sync(false);
}
void bsp_profile_label(const char* label) {
  Spmd::context("bsp_profile_label").profiler().set_label(label);
}
int bsp_profile_enabled(void) {
  return Spmd::active() && Spmd::context("bsp_profile_enabled").profiler().enabled();
}

void bsp_push_reg(const void* ident, int size) {
  Spmd::context("bsp_push_reg").push_reg(ident, size);
}
void bsp_pop_reg(const void* ident) { Spmd::context("bsp_pop_reg").pop_reg(ident); }

void bsp_put(int pid, const void* src, void* dst, int offset, int nbytes) {
  Spmd::context("bsp_put").put(pid, src, dst, offset, nbytes);
}
void bsp_get(int pid, const void* src, int offset, void* dst, int nbytes) {
  Spmd::context("bsp_get").get("bsp_get", pid, src, offset, dst, nbytes);
}
void bsp_hpput(int pid, const void* src, void* dst, int offset, int nbytes) {
  Spmd::context("bsp_hpput").hpput(pid, src, dst, offset, nbytes);
}
void bsp_hpget(int pid, const void* src, int offset, void* dst, int nbytes) {
  // Served at the sync like bsp_get: the definition allows any moment up to its end.
  Spmd::context("bsp_hpget").get("bsp_hpget", pid, src, offset, dst, nbytes);
}

void bsp_set_tagsize(int* tag_nbytes) { Spmd::context("bsp_set_tagsize").set_tagsize(tag_nbytes); }
void bsp_send(int pid, const void* tag, const void* payload, int payload_nbytes) {
  Spmd::context("bsp_send").send(pid, tag, payload, payload_nbytes);
}
void bsp_qsize(int* nmessages, int* accum_nbytes) {
  bsplib::Context& c = Spmd::context("bsp_qsize");
  c.need("bsp_qsize", nmessages, "the message count (first argument)");
  c.need("bsp_qsize", accum_nbytes, "the byte count (second argument)");
  bsplib::BsmpQueue& q = c.queue();
  *nmessages = q.count();
  *accum_nbytes = static_cast<int>(q.remaining_payload());
}
void bsp_get_tag(int* status, void* tag) {
  bsplib::Context& c = Spmd::context("bsp_get_tag");
  c.need("bsp_get_tag", status, "the status (first argument)");
  bsplib::BsmpQueue& q = c.queue();
  if (q.empty()) {
    *status = -1;
    return;
  }
  *status = static_cast<int>(q.front_payload_size());
  if (q.front_tag_size()) {
    c.need("bsp_get_tag", tag, "the tag buffer (the tag size is not 0)");
    std::memcpy(tag, q.front_tag(), q.front_tag_size());
  }
}
void bsp_move(void* payload, int reception_nbytes) {
  bsplib::Context& c = Spmd::context("bsp_move");
  bsplib::BsmpQueue& q = c.queue();
  if (q.empty()) c.fail("bsp_move", "the message queue is empty");
  if (reception_nbytes < 0) c.fail("bsp_move", "negative reception size");
  const std::uint32_t n = q.front_payload_size();
  const std::uint32_t copy = n < static_cast<std::uint32_t>(reception_nbytes)
                                 ? n
                                 : static_cast<std::uint32_t>(reception_nbytes);
  if (copy) {
    c.need("bsp_move", payload, "the payload buffer");
    std::memcpy(payload, q.front_payload(), copy);
  }
  q.pop_front();
}
int bsp_hpmove(void** tag_ptr_buf, void** payload_ptr_buf) {
  bsplib::Context& c = Spmd::context("bsp_hpmove");
  c.need("bsp_hpmove", tag_ptr_buf, "the tag pointer's address (first argument)");
  c.need("bsp_hpmove", payload_ptr_buf, "the payload pointer's address (second argument)");
  bsplib::BsmpQueue& q = c.queue();
  if (q.empty()) return -1;
  const int n = static_cast<int>(q.front_payload_size());
  *tag_ptr_buf = q.front_tag();
  *payload_ptr_buf = q.front_payload();
  q.pop_front();
  return n;
}

void bsp_abort(const char* format, ...) {
  va_list args;
  va_start(args, format);
  bsp_vabort(format, args);
}
void bsp_vabort(const char* format, va_list args) {
  char text[1024];
  std::vsnprintf(text, sizeof text, format, args);
  if (Spmd::active()) {
    bsplib::Context& c = Spmd::context("bsp_abort");
    bsplib::fatal("bsp_abort", c.pid(), c.superstep(), "%s", text);
  }
  Spmd::prepare_to_fail("bsp_abort");
  // Before bsp_begin the message is the program's own line (no process or superstep to name).
  if (text[0] == '\0' || text[0] == '\n') bsplib::fatal("bsp_abort", -1, -1, "(no message)");
  bsplib::fatal_line(text);
}

}  // extern "C"
