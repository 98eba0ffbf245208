/*
 * biki_worker_support.h — the few calls a plugin worker and its host need that Swift cannot
 * make itself (variadic or GNU-only C functions) or must not make in Swift (signal handlers).
 * Internal to Biki: not part of the plugin ABI, and no plugin sees it.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A pipe whose two ends are close-on-exec from the moment they exist (pipe2 with O_CLOEXEC), so
 * a worker started on another thread at that moment cannot inherit them. 0, or -1 with errno. */
int biki_pipe_cloexec(int descriptors[2]);

/*
 * Worker: starts a thread that waits until the worker's standard input hangs up — the host
 * closed it to stop the worker, or the host ended, however it ended (SIGKILL included) — and
 * then kills the worker's process group with SIGKILL, so processes a plugin started end with
 * it. Does nothing unless this process leads its own process group (as the host starts
 * workers), so a worker started by hand never kills its shell's group. 0, or an error number.
 *
 * Not PR_SET_PDEATHSIG: that fires when the *thread* that started the worker ends, and
 * `biki serve` starts workers from short-lived threads, which would kill healthy workers; nor
 * would it reach the processes a plugin forked.
 */
int biki_worker_watch_host(void);

/* Worker: limits malloc to `arenas` arenas, so a plugin's threads do not each reserve 64 MiB
 * of address space under the worker's cap. Call before any other thread starts. */
void biki_worker_limit_arenas(int arenas);

/*
 * Worker: installs handlers for the signals a crash raises (SIGSEGV, SIGBUS, SIGILL, SIGTRAP,
 * SIGFPE, SIGABRT). When one arrives during a plugin call (between biki_worker_call_begins and
 * biki_worker_call_ends), `note` (at most 64 bytes, copied; its last two bytes set to the signal's
 * number and to 1 when the crashing thread's errno is ENOMEM — an allocation was refused just
 * before, as happens past the worker's memory cap — else 0) is written to `descriptor` first: the
 * host learns at once that the worker is crashing, and why, however long the crash report that
 * follows takes. The signal then goes on to the handler installed before (the Swift runtime's
 * backtracer), or to its default action: the worker still dies by it. 0, or -1.
 */
int biki_worker_watch_crashes(int descriptor, const uint8_t *note, size_t length);

/* Marks memory Biki keeps for the life of the process on purpose (a plugin may hold a pointer
 * into it until the process ends: call records, see CallLedger.swift) as not a leak, for
 * LeakSanitizer in the sanitized and fuzzing builds; does nothing in a plain build. */
void biki_keep_for_process_life(const void *memory);

/* Worker: a plugin call begins on this thread (errno is cleared, so a stale ENOMEM is never
 * taken for a fresh one), or has ended. */
void biki_worker_call_begins(void);
void biki_worker_call_ends(void);

#ifdef __cplusplus
}
#endif
