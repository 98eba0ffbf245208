/*
 * biki_input_support.h — how the message loop reads its client's input. It skips its `poll`
 * when the client has sent its next message already (`biki_read_if_waiting`), and where it can
 * it sleeps in read(2) itself, as a C server does, while other threads and a timer can still
 * wake it (`biki_sleeper`). Swift's Glibc module leaves out `preadv2` (a GNU extension), thread
 * ids, thread-directed timers and thread-local storage a signal handler can read.
 * Internal to Biki.
 */
#pragma once

#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Reads at most `size` bytes from `descriptor` at its current position without ever waiting:
 * the count read (0 at the end of the input), or -1 with errno. EAGAIN: nothing is waiting.
 * EOPNOTSUPP, EINVAL or ENOSYS: this kernel or this kind of descriptor cannot read without
 * waiting, so the caller waits with `poll` instead, as it would without this call.
 */
ssize_t biki_read_if_waiting(int descriptor, void *buffer, size_t size);

/*
 * A thread that sleeps in a blocking read(2) of a pipe or socket and can still be woken: a
 * signal sent to that thread (by `biki_sleeper_interrupt`, or by its timer) makes the
 * descriptor non-blocking, so the read sleeping there, restarted after the signal, or about to
 * start, returns at once with EAGAIN instead. No window is left between deciding to sleep and
 * sleeping in which a wake-up is lost, and the read costs what a plain read costs. After such
 * a read the thread calls `biki_sleeper_settle`, which makes the descriptor blocking again.
 */
typedef struct {
  int descriptor;
  /* Its file status flags as they were found (blocking). */
  int flags;
  /* The sleeping thread, as the kernel knows it. */
  pid_t thread;
  timer_t timer;
} biki_sleeper;

/*
 * Makes the calling thread one that sleeps in reads of `descriptor`: 0, or -1 when it cannot
 * (the descriptor is not a pipe or socket, is non-blocking already, or no timer can be made),
 * and then the caller waits with `poll`. A terminal is left alone: its flags are shared with
 * the shell it belongs to.
 */
int biki_sleeper_begin(biki_sleeper *sleeper, int descriptor);

/* Wakes the sleeper after `seconds` (at least a nanosecond); a negative count disarms it. */
int biki_sleeper_arm(const biki_sleeper *sleeper, double seconds);

/* After a read that returned EAGAIN: the descriptor blocks again. */
void biki_sleeper_settle(const biki_sleeper *sleeper);

/* Ends it on the thread that began it: the timer goes and the descriptor's flags are restored. */
void biki_sleeper_end(biki_sleeper *sleeper);

/* Wakes the sleeping thread `thread` of this process; callable from any thread. */
void biki_sleeper_interrupt(pid_t thread);

#ifdef __cplusplus
}
#endif
