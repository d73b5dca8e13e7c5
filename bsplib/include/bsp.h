/* bsp.h - the BSPlib standard interface (Hill, McColl, Stefanescu, Goudreau, Lang, Rao,
 * Suel, Tsantilas, Bisseling: "BSPlib: The BSP programming library", Parallel Computing 24,
 * 1998), implemented on MPI, with a built-in superstep profiler.
 *
 * Usable from C and C++. Sizes, offsets and process ids are int, as in the definition; the
 * type names later libraries and the teaching codes use for them (bsp_pid_t, bsp_nprocs_t,
 * bsp_size_t) are defined as int, so programs written either way build unchanged.
 * Semantics (summary; the definition is normative):
 *  - bsp_push_reg / bsp_pop_reg take effect at the next bsp_sync; registrations are matched
 *    by the order in which the processes make them; a pushed address shadows older
 *    registrations of the same address until popped.
 *  - bsp_push_reg / bsp_pop_reg calls of one superstep take effect at its sync in call
 *    order, so popping a registration pushed earlier in the same superstep is legal.
 *  - bsp_put copies the source at the call; the data arrives at the end of the superstep.
 *    bsp_get reads the remote value at the end of the superstep, before any put of that
 *    superstep is applied, and lands before the puts do: where a get's destination and a
 *    put's overlap, the put's bytes are what the destination holds after the sync. bsp_hpput/bsp_hpget are unbuffered: the source (hpput) and the
 *    destination (hpget) must not be touched until the next bsp_sync.
 *  - BSMP: bsp_send delivers (tag, payload) into the destination's queue at the next sync;
 *    the tag size set by bsp_set_tagsize applies from the next superstep; every process
 *    calls bsp_set_tagsize in the same superstep with the same size.
 *  - bsp_nprocs() after bsp_end() returns the p of the section that ended.
 *  - Any misuse the library can detect ends every process with one message naming the call,
 *    the process and the superstep; a null pointer where a call reads or writes is one.
 * Extensions (prefix bsp_profile_): labels for the profiler, switched on by the environment
 * variable BSP_PROFILE=<file> (see bsplib/README.md).
 */
#ifndef BSPLIB_BSP_H
#define BSPLIB_BSP_H

#include <stdarg.h>

#define BSPLIB_ON_MPI 1

/* Process ids, process counts and byte counts. */
typedef int bsp_pid_t;
typedef int bsp_nprocs_t;
typedef int bsp_size_t;

#ifdef __cplusplus
extern "C" {
#endif

/* SPMD start-up and shut-down. */
void bsp_init(void (*spmd_part)(void), int argc, char *argv[]);
void bsp_begin(int maxprocs);
void bsp_end(void);

/* Enquiry. */
int bsp_pid(void);
int bsp_nprocs(void);
double bsp_time(void);

/* Superstep synchronisation. */
void bsp_sync(void);

/* Registration for DRMA. */
void bsp_push_reg(const void *ident, int size);
void bsp_pop_reg(const void *ident);

/* Direct remote memory access. */
void bsp_put(int pid, const void *src, void *dst, int offset, int nbytes);
void bsp_get(int pid, const void *src, int offset, void *dst, int nbytes);
void bsp_hpput(int pid, const void *src, void *dst, int offset, int nbytes);
void bsp_hpget(int pid, const void *src, int offset, void *dst, int nbytes);

/* Bulk synchronous message passing. */
void bsp_set_tagsize(int *tag_nbytes);
void bsp_send(int pid, const void *tag, const void *payload, int payload_nbytes);
void bsp_qsize(int *nmessages, int *accum_nbytes);
void bsp_get_tag(int *status, void *tag);
void bsp_move(void *payload, int reception_nbytes);
int bsp_hpmove(void **tag_ptr_buf, void **payload_ptr_buf);

/* Halting. */
void bsp_abort(const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;
void bsp_vabort(const char *format, va_list args)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

/* Profiler extensions (cheap when the profiler is off). */
/* bsp_sync with its call site as the superstep label; bsp_sync() expands to this. */
void bsp_sync_at(const char *file, int line);
/* Labels the current superstep (overrides the call site); the string is copied. */
void bsp_profile_label(const char *label);
/* 1 if the profiler records this run (BSP_PROFILE set), else 0. */
int bsp_profile_enabled(void);

#ifndef BSP_NO_SYNC_SITES
/* A function-like macro: `bsp_sync()` records its call site, `&bsp_sync` still works. */
#define bsp_sync() bsp_sync_at(__FILE__, __LINE__)
#endif

#ifdef __cplusplus
}
#endif

#endif /* BSPLIB_BSP_H */
