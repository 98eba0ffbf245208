/*
 * A plugin that misbehaves on purpose, one way per build:
 *   Loading:   -DREFUSE_VERSION -DWRONG_VERSION -DNO_ENTRY -DNULL_GENERATE -DSMALL_DESCRIPTOR -DINIT_FAILS
 *   Output:    -DBAD_UTF8 -DMALFORMED -DENORMOUS -DNOT_KANA -DKATAKANA -DCOMBINING -DWRONG_ANSWER
 *              -DWRONG_READING -DWRONG_DECLARED_READING -DBAD_COUNT -DPARTIAL_OUTPUT -DLATE_WRITE
 *              -DLATE_THREAD_WRITE (the first question of topic "ok" starts a thread that writes through
 *              that call's output writer 20 ms after it returned) -DLATE_READINGS_WRITE (the same, with
 *              Biki's readings extension writing into the kept call) -DFALSE_REFUSAL (writes 150 bytes,
 *              then returns BIKI_STATUS_OUTPUT_REFUSED though nothing was refused)
 *   Behaviour: -DUNSTABLE -DSEGFAULT -DABORT -DHANG -DHOG (allocates 4 GiB) -DCRASH_EVERY_TENTH
 *              -DSHARED_HOG (maps 1.5 GiB MAP_SHARED|MAP_ANONYMOUS and touches every page)
 *              -DALLOCATE_MB=N (each question allocates N MiB, fails without it, and frees it)
 *              -DNOISY (prints to standard output, which a worker speaking a protocol there must survive)
 *              -DFORKS (the first question forks a process that sleeps a minute holding the worker's
 *              descriptors, stdout among them; the child's pid and process group go to $BIKI_TEST_FORK_FILE)
 *   Timing:    -DSLOW_MS=N (each question takes N ms) -DSLOW_LOAD_MS=N (the entry and describe each take N ms)
 *              -DCRASH_ON_SEED=N (segfaults on that seed only) -DHANG_ON_SEED=N (never returns on that seed only)
 *              -DCRASH_WHEN_FILE (segfaults on every question once the file $BIKI_TEST_CRASH_FILE exists)
 *              -DHANG_IN_COUNT (question_count never returns; otherwise as COUNTED);
 *              SLOW_MS, CRASH_ON_SEED, HANG_ON_SEED, CRASH_EVERY_TENTH and CRASH_WHEN_FILE have
 *              30 questions
 *   Counting:  -DCOUNTED (a parameter "max" 1–9, counted by question_count) -DCOUNT_LIES (counts double)
 *              -DCOUNT_VARIES (question_count answers one more every other call)
 *   Seeds and ids: -DSEED_NOT_MODULO (seeds past the count give other questions) -DORDER_DEPENDENT
 *              (a question leans on the seed asked before) -DDEFAULT_DIFFERS (as COUNTED, and "max"
 *              given at its default changes the question) -DLARGE_SEED_CRASH (segfaults past 2^62)
 *              -DPREFIX_TOPIC (topic ids compared as a prefix) -DWRONG_UNKNOWN_STATUS (an unknown
 *              topic refused with BIKI_STATUS_INVALID_PARAMETER)
 *   Host:      -DECHO_HOST (the topic's title is the host's name and version, as its entry saw them)
 *              -DPLUGIN_ID='"name"' (the plugin's id, so two builds can be loaded side by side)
 *              -DTITLE='"Title"' (the topic's title, "OK" by default, so two builds can differ in a few bytes)
 *              -DDESCRIPTION_VARIES (the title holds the process id: each load describes it differently)
 *              -DDEINIT_MARKS (deinit appends a line to the file $BIKI_TEST_DEINIT_FILE)
 * Without any, it is a well-behaved one-topic plugin ("misbehaving.ok": 1, 2, 3 read いち, に, さん).
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep, under -std=c99 */
#define _DEFAULT_SOURCE          /* MAP_ANONYMOUS */
#include "biki_plugin.h"

#ifndef PLUGIN_ID
#define PLUGIN_ID "misbehaving"
#endif
#ifndef TITLE
#define TITLE "OK"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static int emit(const biki_writer_t *writer, const char *text) { return writer->write(writer, text, strlen(text)); }

#define QUOTED_(x) #x
#define QUOTED(x) QUOTED_(x)

#if defined(SLOW_MS) || defined(SLOW_LOAD_MS) || defined(LATE_THREAD_WRITE) || defined(LATE_READINGS_WRITE)
static void pause_ms(long ms) {
  struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&pause, &pause) != 0) {}
}
#endif

#if defined(BAD_COUNT)
#define QUESTION_COUNT "10"
#elif defined(CRASH_EVERY_TENTH) || defined(SLOW_MS) || defined(CRASH_ON_SEED) || defined(HANG_ON_SEED) || \
    defined(RAISE_ON_SEED) || defined(CRASH_WHEN_FILE)
#define THIRTY_QUESTIONS
#define QUESTION_COUNT "30"
#else
#define QUESTION_COUNT "3"
#endif

#if defined(ECHO_HOST)
static char host_title[128];
#endif

static biki_status_t describe(const biki_call_t *call) {
#if defined(SLOW_LOAD_MS)
  pause_ms(SLOW_LOAD_MS);
#endif
#if defined(ECHO_HOST)
  char json[256];
  snprintf(json, sizeof json, "{\"topics\": [{\"id\": \"ok\", \"title\": \"%s\", \"category\": \"number\", \"skills\": [\"kana\"], \"questionCount\": 3, \"parameters\": []}]}", host_title);
  emit(call->output, json);
  return BIKI_STATUS_OK;
#endif
#if defined(COUNTED) || defined(COUNT_LIES) || defined(HANG_IN_COUNT) || defined(COUNT_VARIES) || defined(DEFAULT_DIFFERS)
  emit(call->output, "{\"topics\": [{\"id\": \"ok\", \"title\": \"OK\", \"category\": \"number\", \"skills\": [\"kana\"], \"questionCount\": 3, "
                     "\"parameters\": [{\"name\": \"max\", \"description\": \"Largest\", \"default\": 3, \"min\": 1, \"max\": 9}]}]}");
#elif defined(DESCRIPTION_VARIES)
  char json[256];
  snprintf(json, sizeof json, "{\"topics\": [{\"id\": \"ok\", \"title\": \"OK %ld\", \"category\": \"number\", \"skills\": [\"kana\"], \"questionCount\": 3, \"parameters\": []}]}", (long)getpid());
  emit(call->output, json);
#else
  emit(call->output, "{\"topics\": [{\"id\": \"ok\", \"title\": \"" TITLE "\", \"category\": \"number\", \"skills\": [\"kana\"], \"questionCount\": " QUESTION_COUNT ", \"parameters\": []}]}");
#endif
  return BIKI_STATUS_OK;
}

/* The topic's size for these parameters: "max", or 3 by default. */
static uint64_t largest(const biki_parameter_list_t *parameters) {
  for (size_t i = 0; i < parameters->count; i++) {
    const biki_parameter_t *parameter = biki_parameter_at(parameters, i);
    if (strcmp(parameter->name, "max") == 0) return (uint64_t)parameter->value;
  }
  return 3;
}

#if defined(COUNTED) || defined(COUNT_LIES) || defined(HANG_IN_COUNT) || defined(COUNT_VARIES) || defined(DEFAULT_DIFFERS)
static biki_status_t question_count(const char *topic, const biki_parameter_list_t *parameters, uint64_t *count, const biki_call_t *call) {
  if (strcmp(topic, "ok") != 0) {
    emit(call->error, "no such topic");
    return BIKI_STATUS_UNKNOWN_TOPIC;
  }
#if defined(HANG_IN_COUNT)
  for (;;) {}
#endif
#if defined(COUNT_LIES)
  *count = largest(parameters) * 2;
#elif defined(COUNT_VARIES)
  static int calls = 0;
  *count = largest(parameters) + (uint64_t)(calls++ % 2);
#else
  *count = largest(parameters);
#endif
  return BIKI_STATUS_OK;
}
#endif

#if defined(LATE_THREAD_WRITE) || defined(LATE_READINGS_WRITE)
#include <pthread.h>
static const biki_call_t *kept_call;
#if defined(LATE_READINGS_WRITE)
static const biki_host_t *kept_host;
static const biki_host_readings_t *readings;
static biki_status_t init(const biki_host_t *host, const biki_call_t *call) {
  (void)call;
  kept_host = host;
  readings = host->get_extension(host, BIKI_HOST_EXT_READINGS);
  return readings ? BIKI_STATUS_OK : BIKI_STATUS_INTERNAL_ERROR;
}
#endif
static void *write_late(void *unused) {
  (void)unused;
  pause_ms(20);
#if defined(LATE_READINGS_WRITE)
  readings->read_number(kept_host, 8, "本", NULL, kept_call);
#else
  emit(kept_call->output, "八本（injected late）");
#endif
  return NULL;
}
#endif

#if defined(INIT_FAILS)
static biki_status_t init(const biki_host_t *host, const biki_call_t *call) {
  (void)host;
  emit(call->error, "the plugin's data file is missing");
  return BIKI_STATUS_INTERNAL_ERROR;
}
#endif

static biki_status_t generate(const char *topic, const biki_parameter_list_t *parameters, uint64_t seed, const biki_call_t *call) {
#if defined(PREFIX_TOPIC) /* compares ids as a prefix: "okx" and "ok " pass */
  if (strncmp(topic, "ok", 2) != 0) {
#else
  if (strcmp(topic, "ok") != 0) {
#endif
    emit(call->error, "no such topic");
#if defined(WRONG_UNKNOWN_STATUS)
    return BIKI_STATUS_INVALID_PARAMETER;
#else
    return BIKI_STATUS_UNKNOWN_TOPIC;
#endif
  }
#if defined(LARGE_SEED_CRASH) /* an overflow waiting for seeds past 2^62 */
  if (seed > (1ull << 62)) {
    volatile int *nowhere = NULL;
    *nowhere = 1;
  }
#endif
#if defined(NOISY)
  printf("Content-Length: 5\r\n\r\nnoise from a plugin\n");
  fflush(stdout);
#endif
#if defined(FORKS)
  static int forked = 0;
  if (!forked) {
    forked = 1;
    pid_t child = fork();
    if (child == 0) {
      sleep(60);
      _exit(0);
    }
    const char *path = getenv("BIKI_TEST_FORK_FILE");
    FILE *file = path && child > 0 ? fopen(path, "w") : NULL;
    if (file) {
      fprintf(file, "%ld %ld\n", (long)child, (long)getpgrp());
      fclose(file);
    }
  }
#endif
#if defined(LATE_THREAD_WRITE) || defined(LATE_READINGS_WRITE)
  static int started = 0;
  if (!started) {
    started = 1;
    kept_call = call;
    pthread_t thread;
    if (pthread_create(&thread, NULL, write_late, NULL) == 0) pthread_detach(thread);
  }
#endif
#if defined(FALSE_REFUSAL)
  emit(call->output, "{\"display\": \"1\", \"kanjiDisplay\": \"一\", \"spoken\": \"いち\", \"readings\": [\"いち\"], \"answer\": {\"value\": 1}}");
  emit(call->output, "                                           "); /* 150 bytes in all */
  return BIKI_STATUS_OUTPUT_REFUSED;
#endif
#if defined(LATE_WRITE)
  /* Keeps the writer, and writes through the one it kept last time. */
  static const biki_writer_t *kept = NULL;
  if (kept) emit(kept, "late");
  kept = call->output;
#endif
#if defined(SLOW_MS)
  pause_ms(SLOW_MS);
#endif
#if defined(CRASH_ON_SEED)
  if (seed == CRASH_ON_SEED) {
    volatile int *nowhere = NULL;
    *nowhere = 1;
  }
#endif
#if defined(RAISE_ON_SEED)
  /* A crash by raise(): the handler Biki's worker has for its crash report returns, and
   * raise() then returns into the plugin unless the signal is raised again at its default. */
  if (seed == RAISE_ON_SEED) raise(SIGSEGV);
#endif
#if defined(CRASH_WHEN_FILE)
  const char *crash_file = getenv("BIKI_TEST_CRASH_FILE");
  if (crash_file && access(crash_file, F_OK) == 0) {
    volatile int *nowhere = NULL;
    *nowhere = 1;
  }
#endif
#if defined(HANG_ON_SEED)
  if (seed == HANG_ON_SEED) {
    for (;;) {}
  }
#endif
#if defined(SEGFAULT)
  volatile int *nowhere = NULL;
  *nowhere = 1;
#elif defined(CRASH_EVERY_TENTH)
  if (seed % 10 == 9) {
    volatile int *nowhere = NULL;
    *nowhere = 1;
  }
#elif defined(ABORT)
  abort();
#elif defined(HANG)
  for (;;) {}
#elif defined(HOG)
  size_t size = (size_t)4 << 30;
  /* Every page touched through a volatile pointer, so no optimizer drops the stores to memory
     nothing reads. NULL when the worker's limit refused it: a crash, named as such. */
  volatile char *memory = malloc(size);
  for (size_t offset = 0; offset < size; offset += 4096) memory[offset] = 1;
  free((void *)memory);
#elif defined(SHARED_HOG)
  size_t size = (size_t)3 << 29;
  volatile char *memory = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  /* MAP_FAILED when the worker's cap refused it: touched anyway (through a volatile pointer, so
     no optimizer drops the stores), a crash, named as such */
  for (size_t offset = 0; offset < size; offset += 4096) memory[offset] = 1;
  munmap((void *)memory, size);
#elif defined(ALLOCATE_MB)
  /* Volatile, so no optimizer drops the allocation as unused. */
  char *volatile memory = malloc((size_t)ALLOCATE_MB << 20);
  if (memory == NULL) {
    emit(call->error, "could not allocate " QUOTED(ALLOCATE_MB) " MiB");
    return BIKI_STATUS_GENERATION_FAILED;
  }
  ((volatile char *)memory)[0] = 1;
  free(memory);
#elif defined(BAD_UTF8)
  emit(call->output, "{\"display\": \"\xff\", \"kanjiDisplay\": \"x\", \"spoken\": \"いち\", \"readings\": [\"いち\"], \"answer\": {\"value\": 1}}");
  return BIKI_STATUS_OK;
#elif defined(MALFORMED)
  emit(call->output, "{\"display\": \"1\", ");
  return BIKI_STATUS_OK;
#elif defined(PARTIAL_OUTPUT)
  emit(call->output, "{\"display\": \"1\", ");
  emit(call->error, "ran out of questions halfway");
  return BIKI_STATUS_GENERATION_FAILED;
#elif defined(NOT_KANA)
  emit(call->output, "{\"display\": \"1\", \"kanjiDisplay\": \"一\", \"spoken\": \"ichi\", \"readings\": [\"ichi\"], \"answer\": {\"value\": 1}}");
  return BIKI_STATUS_OK;
#elif defined(KATAKANA)
  emit(call->output, "{\"display\": \"1\", \"kanjiDisplay\": \"一\", \"spoken\": \"イチ\", \"readings\": [\"イチ\"], \"answer\": {\"value\": 1}}");
  return BIKI_STATUS_OK;
#elif defined(COMBINING)
  emit(call->output, "{\"display\": \"1\", \"kanjiDisplay\": \"一\", \"spoken\": \"\xe3\x82\x99\xe3\x82\x9a\", \"readings\": [\"\xe3\x82\x99\xe3\x82\x9a\"], \"answer\": {\"value\": 1}}");
  return BIKI_STATUS_OK;
#elif defined(WRONG_ANSWER)
  emit(call->output, "{\"display\": \"505号室\", \"kanjiDisplay\": \"五百五号室\", \"spoken\": \"ごひゃくごごうしつ\", \"readings\": [\"ごひゃくごごうしつ\"], \"answer\": {\"value\": 506}, \"number\": {\"value\": 505, \"counter\": \"号室\", \"counterReading\": \"ごうしつ\"}}");
  return BIKI_STATUS_OK;
#elif defined(WRONG_DECLARED_READING)
  emit(call->output, "{\"display\": \"612号室\", \"kanjiDisplay\": \"六百十二号室\", \"spoken\": \"ろくひゃくじゅうにごうしつ\", \"readings\": [\"ろくひゃくじゅうにごうしつ\"], "
                     "\"answer\": {\"value\": 612}, \"number\": {\"value\": 612, \"counter\": \"号室\", \"counterReading\": \"ごうしつ\"}}");
  return BIKI_STATUS_OK;
#elif defined(WRONG_READING)
  emit(call->output, "{\"display\": \"8本\", \"kanjiDisplay\": \"八本\", \"spoken\": \"いっぽん\", \"readings\": [\"いっぽん\"], \"answer\": {\"value\": 8}}");
  return BIKI_STATUS_OK;
#elif defined(ENORMOUS)
  static char block[65536];
  memset(block, ' ', sizeof block);
  for (int i = 0; i < 1000; i++) {
    if (call->output->write(call->output, block, sizeof block) != 0) return BIKI_STATUS_OUTPUT_REFUSED;
  }
  return BIKI_STATUS_OK;
#endif
  static const char *const kana[9] = {"いち", "に", "さん", "よん", "ご", "ろく", "なな", "はち", "きゅう"};
  static const char *const kanji[9] = {"一", "二", "三", "四", "五", "六", "七", "八", "九"};
#if defined(THIRTY_QUESTIONS)
  int n = (int)(seed % 30 % 9); /* seeds select modulo the count, 30 */
#else
  int n = (int)(seed % largest(parameters));
#endif
#if defined(SEED_NOT_MODULO) /* seeds past the count shifted by one */
  if (seed >= largest(parameters)) n = (n + 1) % (int)largest(parameters);
#endif
#if defined(ORDER_DEPENDENT) /* each question leans on the seed asked before it */
  static uint64_t previous = 0;
  n = (int)((seed + previous) % largest(parameters));
  previous = seed;
#endif
#if defined(DEFAULT_DIFFERS) /* a parameter given, even at its default, changes the question */
  if (parameters->count > 0) n = (n + 1) % (int)largest(parameters);
#endif
#if defined(UNSTABLE)
  static int calls = 0;
  n = (n + calls++ % 2) % 3; /* alternates, so no batch size can hide it */
#endif
#if defined(BAD_COUNT)
  n %= 3; /* declares 10 questions, has 3 */
#endif
  char json[256];
  snprintf(json, sizeof json,
           "{\"display\": \"%d\", \"kanjiDisplay\": \"%s\", \"spoken\": \"%s\", \"readings\": [\"%s\"], \"answer\": {\"value\": %d}}", n + 1,
           kanji[n], kana[n], kana[n], n + 1);
  emit(call->output, json);
  return BIKI_STATUS_OK;
}

#if defined(DEINIT_MARKS)
static void deinit(void) {
  const char *path = getenv("BIKI_TEST_DEINIT_FILE");
  FILE *file = path ? fopen(path, "a") : NULL;
  if (file) {
    fputs("deinit\n", file);
    fclose(file);
  }
}
#endif

static const biki_plugin_descriptor_t descriptor = {
#if defined(SMALL_DESCRIPTOR)
  .size = 24,
#else
  .size = sizeof(biki_plugin_descriptor_t),
#endif
#if defined(WRONG_VERSION)
  .abi_version = 99,
#else
  .abi_version = BIKI_PLUGIN_ABI_VERSION,
#endif
  .id = PLUGIN_ID,
  .name = "Misbehaving",
  .version = "0",
  .flags = 0,
#if defined(INIT_FAILS) || defined(LATE_READINGS_WRITE)
  .init = init,
#endif
#if defined(DEINIT_MARKS)
  .deinit = deinit,
#endif
  .describe = describe,
#if defined(NULL_GENERATE)
  .generate = NULL,
#else
  .generate = generate,
#endif
#if defined(COUNTED) || defined(COUNT_LIES) || defined(HANG_IN_COUNT) || defined(COUNT_VARIES) || defined(DEFAULT_DIFFERS)
  .question_count = question_count,
#endif
};

#if !defined(NO_ENTRY)
BIKI_PLUGIN_EXPORT const biki_plugin_descriptor_t *biki_plugin_entry(const biki_host_t *host) {
#if defined(REFUSE_VERSION)
  (void)host;
  return NULL;
#else
#if defined(SLOW_LOAD_MS)
  pause_ms(SLOW_LOAD_MS);
#endif
#if defined(ECHO_HOST)
  snprintf(host_title, sizeof host_title, "%s %s (ABI %u)", host->name, host->version, (unsigned)host->abi_version);
#endif
  (void)host;
  return &descriptor;
#endif
}
#else
BIKI_PLUGIN_EXPORT int not_the_entry(void) { return 0; }
#endif
