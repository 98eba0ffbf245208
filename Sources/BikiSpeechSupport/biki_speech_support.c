// The process groups of running speech programs, in a table a signal handler may read: Swift's
// locks are not async-signal-safe, and a program left running after Biki is killed would go on
// making audio for no one.
#include "biki_speech_support.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>

enum { slots = 64 };
static _Atomic pid_t groups[slots];

int biki_speech_group_add(pid_t group) {
  for (int index = 0; index < slots; index++) {
    pid_t empty = 0;
    if (atomic_compare_exchange_strong(&groups[index], &empty, group)) return 1;
  }
  return 0;
}

void biki_speech_group_remove(pid_t group) {
  for (int index = 0; index < slots; index++) {
    pid_t expected = group;
    if (atomic_compare_exchange_strong(&groups[index], &expected, 0)) return;
  }
}

void biki_speech_groups_kill(void) {
  for (int index = 0; index < slots; index++) {
    pid_t group = atomic_load(&groups[index]);
    if (group > 0) kill(-group, SIGKILL);
  }
}

static void end(int number) {
  biki_speech_groups_kill();
  // SA_RESETHAND has put back the default action: the signal, raised again, ends the process
  // once this handler returns.
  raise(number);
}

void biki_speech_groups_end_with_process(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = end;
  action.sa_flags = SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  int numbers[] = {SIGTERM, SIGINT, SIGHUP};
  sigset_t ending;
  sigemptyset(&ending);
  for (int index = 0; index < 3; index++) {
    sigaction(numbers[index], &action, 0);
    sigaddset(&ending, numbers[index]);
  }
  // A parent may have left them blocked (the mask is inherited): they would then never arrive.
  pthread_sigmask(SIG_UNBLOCK, &ending, 0);
}
