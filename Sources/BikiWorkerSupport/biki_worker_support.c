// See include/biki_worker_support.h.
#define _GNU_SOURCE
#include "biki_worker_support.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int biki_pipe_cloexec(int descriptors[2]) { return pipe2(descriptors, O_CLOEXEC); }

static void *watch_host(void *unused) {
  (void)unused;
  // Events 0: a pipe with data waiting does not wake this thread; only a hang-up does.
  struct pollfd input = {.fd = 0, .events = 0, .revents = 0};
  for (;;) {
    int ready = poll(&input, 1, -1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0 || (input.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0) break;
  }
  kill(0, SIGKILL);
  return NULL;
}

int biki_worker_watch_host(void) {
  if (getpgrp() != getpid()) return 0;
  pthread_attr_t attributes;
  int failed = pthread_attr_init(&attributes);
  if (failed != 0) return failed;
  // A small stack: the thread only waits, and a worker's address space is capped.
  pthread_attr_setstacksize(&attributes, 64 * 1024);
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  pthread_t thread;
  failed = pthread_create(&thread, &attributes, watch_host, NULL);
  pthread_attr_destroy(&attributes);
  return failed;
}

void biki_worker_limit_arenas(int arenas) { mallopt(M_ARENA_MAX, arenas); }

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT};
enum { crash_signal_count = sizeof crash_signals / sizeof crash_signals[0] };
static struct sigaction previous[crash_signal_count];
static int note_descriptor = -1;
static uint8_t note[64];
static size_t note_length;
static volatile sig_atomic_t in_call;

static void on_crash(int signal, siginfo_t *info, void *context) {
  int cause = errno;
  if (in_call && note_descriptor >= 0 && note_length >= 2) {
    in_call = 0;
    uint8_t told[sizeof note];
    memcpy(told, note, note_length);
    told[note_length - 2] = (uint8_t)signal;
    told[note_length - 1] = cause == ENOMEM ? 1 : 0;
    ssize_t written = write(note_descriptor, told, note_length);
    (void)written;
  }
  // The handler there before (the Swift runtime's backtrace) writes its report; it may return,
  // and for a signal sent by raise() or kill() nothing would then end the worker.
  for (int index = 0; index < crash_signal_count; index++) {
    if (crash_signals[index] != signal) continue;
    const struct sigaction *before = &previous[index];
    if ((before->sa_flags & SA_SIGINFO) != 0 && before->sa_sigaction != NULL) {
      before->sa_sigaction(signal, info, context);
    } else if ((before->sa_flags & SA_SIGINFO) == 0 && before->sa_handler != SIG_DFL &&
               before->sa_handler != SIG_IGN) {
      before->sa_handler(signal);
    }
  }
  // Whatever it did, the default action once this handler returns: a fault happens again, a
  // raised signal is delivered (it is blocked while its handler runs). A crash always ends the
  // worker, as the host was told it would.
  struct sigaction fallback;
  memset(&fallback, 0, sizeof fallback);
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  sigaction(signal, &fallback, NULL);
  raise(signal);
}

int biki_worker_watch_crashes(int descriptor, const uint8_t *bytes, size_t length) {
  if (length > sizeof note) return -1;
  memcpy(note, bytes, length);
  note_length = length;
  note_descriptor = descriptor;
  // A stack overflow leaves no stack to handle it on: give the handler its own.
  stack_t current;
  if (sigaltstack(NULL, &current) == 0 && (current.ss_flags & SS_DISABLE) != 0) {
    stack_t own = {.ss_sp = malloc(64 * 1024), .ss_flags = 0, .ss_size = 64 * 1024};
    if (own.ss_sp != NULL) sigaltstack(&own, NULL);
  }
  struct sigaction handler;
  memset(&handler, 0, sizeof handler);
  handler.sa_sigaction = on_crash;
  handler.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&handler.sa_mask);
  for (int index = 0; index < crash_signal_count; index++) {
    if (sigaction(crash_signals[index], &handler, &previous[index]) != 0) return -1;
  }
  return 0;
}

void biki_worker_call_begins(void) {
  errno = 0;
  in_call = 1;
}

void biki_worker_call_ends(void) { in_call = 0; }

/* LeakSanitizer's own call, present only when it is linked in (a weak reference is null
 * otherwise). */
extern void __lsan_ignore_object(const void *memory) __attribute__((weak));

void biki_keep_for_process_life(const void *memory) {
  if (__lsan_ignore_object && memory) __lsan_ignore_object(memory);
}
