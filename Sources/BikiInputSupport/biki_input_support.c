#define _GNU_SOURCE
#include "biki_input_support.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

ssize_t biki_read_if_waiting(int descriptor, void *buffer, size_t size) {
  struct iovec vector = {.iov_base = buffer, .iov_len = size};
  /* Offset -1: the descriptor's own position, as read(2) uses, so a regular file read through
   * this and through read(2) is read once, in order. */
  return preadv2(descriptor, &vector, 1, -1, RWF_NOWAIT);
}

/* What the handler makes non-blocking, per thread: each loop thread (tests run several at once)
 * has its own descriptor, and a signal meant for one never touches another's. Initial-exec, so
 * a handler reads it without calling into the dynamic loader. */
static __thread __attribute__((tls_model("initial-exec"))) int sleeping_descriptor = -1;
static __thread __attribute__((tls_model("initial-exec"))) int sleeping_flags = 0;

static int wake_signal(void) { return SIGRTMIN + 3; }

static void on_wake_signal(int signal) {
  (void)signal;
  int saved = errno;
  if (sleeping_descriptor >= 0) fcntl(sleeping_descriptor, F_SETFL, sleeping_flags | O_NONBLOCK);
  errno = saved;
}

static pthread_once_t handler_once = PTHREAD_ONCE_INIT;
static int handler_installed = 0;

static void install_handler(void) {
  struct sigaction action = {0};
  action.sa_handler = on_wake_signal;
  /* Restarted: every other call the loop thread makes goes on as if no signal came, and a read
   * restarted finds the descriptor non-blocking. */
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  handler_installed = sigaction(wake_signal(), &action, NULL) == 0;
}

int biki_sleeper_begin(biki_sleeper *sleeper, int descriptor) {
  struct stat status;
  if (fstat(descriptor, &status) != 0 || !(S_ISFIFO(status.st_mode) || S_ISSOCK(status.st_mode))) return -1;
  int flags = fcntl(descriptor, F_GETFL);
  if (flags < 0 || (flags & O_NONBLOCK)) return -1;
  pthread_once(&handler_once, install_handler);
  if (!handler_installed) return -1;
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, wake_signal());
  if (pthread_sigmask(SIG_UNBLOCK, &set, NULL) != 0) return -1;
  pid_t thread = (pid_t)syscall(SYS_gettid);
  struct sigevent event = {0};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = wake_signal();
  event._sigev_un._tid = thread;
  timer_t timer;
  /* The clock the loop's deadlines are on, which goes on while the machine sleeps. */
  if (timer_create(CLOCK_BOOTTIME, &event, &timer) != 0) return -1;
  sleeper->descriptor = descriptor;
  sleeper->flags = flags;
  sleeper->thread = thread;
  sleeper->timer = timer;
  sleeping_flags = flags;
  sleeping_descriptor = descriptor;
  return 0;
}

int biki_sleeper_arm(const biki_sleeper *sleeper, double seconds) {
  struct itimerspec when = {0};
  if (seconds >= 0) {
    if (seconds > 86400.0) seconds = 86400.0;
    time_t whole = (time_t)seconds;
    long nanoseconds = (long)((seconds - (double)whole) * 1e9);
    if (nanoseconds > 999999999L) nanoseconds = 999999999L;
    /* All zero would disarm it. */
    if (whole == 0 && nanoseconds <= 0) nanoseconds = 1;
    when.it_value.tv_sec = whole;
    when.it_value.tv_nsec = nanoseconds;
  }
  return timer_settime(sleeper->timer, 0, &when, NULL);
}

void biki_sleeper_settle(const biki_sleeper *sleeper) { fcntl(sleeper->descriptor, F_SETFL, sleeper->flags); }

void biki_sleeper_end(biki_sleeper *sleeper) {
  timer_delete(sleeper->timer);
  /* First, so a signal still on its way finds nothing to change. */
  sleeping_descriptor = -1;
  fcntl(sleeper->descriptor, F_SETFL, sleeper->flags);
}

void biki_sleeper_interrupt(pid_t thread) { syscall(SYS_tgkill, getpid(), thread, wake_signal()); }
