#ifndef BIKI_SPEECH_SUPPORT_H
#define BIKI_SPEECH_SUPPORT_H

#include <sys/types.h>

/// Notes a running speech program's process group; 0 when every slot is taken.
int biki_speech_group_add(pid_t group);
/// Forgets a process group noted by biki_speech_group_add.
void biki_speech_group_remove(pid_t group);
/// Kills every process group noted.
void biki_speech_groups_kill(void);
/// From now on SIGTERM, SIGINT and SIGHUP kill every process group noted, then end this
/// process as they would have.
void biki_speech_groups_end_with_process(void);

#endif
