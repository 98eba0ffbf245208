/*
 * A plugin that misbehaves on purpose, one way per build:
 *   -DREFUSE_VERSION  -DWRONG_VERSION  -DNO_ENTRY  -DNULL_GENERATE  -DBAD_UTF8  -DMALFORMED
 *   -DENORMOUS  -DNOT_KANA  -DUNSTABLE  -DSEGFAULT  -DABORT  -DHANG
 *   -DNOISY (prints to standard output, which a host speaking a protocol there must survive)
 * Without any, it is a well-behaved one-topic plugin ("misbehaving.ok").
 */
#include "biki_plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int emit(const biki_writer_t *out, const char *text) { return out->write(out->context, text, strlen(text)); }

static biki_status_t describe(const biki_writer_t *out) {
  emit(out, "{\"topics\": [{\"id\": \"ok\", \"title\": \"OK\", \"category\": \"number\", \"skills\": [\"kana\"], \"questionCount\": 3, \"parameters\": []}]}");
  return BIKI_STATUS_OK;
}

static biki_status_t generate(const char *topic, const biki_parameter_t *parameters, size_t count, uint64_t seed, const biki_writer_t *out) {
  (void)parameters;
  (void)count;
  if (strcmp(topic, "ok") != 0) {
    emit(out, "no such topic");
    return BIKI_STATUS_UNKNOWN_TOPIC;
  }
#if defined(NOISY)
  printf("Content-Length: 5\r\n\r\nnoise from a plugin\n");
  fflush(stdout);
#endif
#if defined(SEGFAULT)
  volatile int *nowhere = NULL;
  *nowhere = 1;
#elif defined(ABORT)
  abort();
#elif defined(HANG)
  for (;;) {}
#elif defined(BAD_UTF8)
  emit(out, "{\"display\": \"\xff\", \"kanjiDisplay\": \"x\", \"spoken\": \"いち\", \"readings\": [\"いち\"], \"answer\": {\"value\": 1}}");
  return BIKI_STATUS_OK;
#elif defined(MALFORMED)
  emit(out, "{\"display\": \"1\", ");
  return BIKI_STATUS_OK;
#elif defined(NOT_KANA)
  emit(out, "{\"display\": \"1\", \"kanjiDisplay\": \"一\", \"spoken\": \"ichi\", \"readings\": [\"ichi\"], \"answer\": {\"value\": 1}}");
  return BIKI_STATUS_OK;
#elif defined(ENORMOUS)
  static char block[65536];
  memset(block, ' ', sizeof block);
  for (int i = 0; i < 1000; i++) {
    if (out->write(out->context, block, sizeof block) != 0) break;
  }
  return BIKI_STATUS_OK;
#endif
  static const char *const kana[3] = {"いち", "に", "さん"};
  static const char *const kanji[3] = {"一", "二", "三"};
  char json[256];
  int n = (int)(seed % 3);
#if defined(UNSTABLE)
  static int calls = 0;
  n = (n + calls++ % 2) % 3; /* alternates, so no batch size can hide it */
#endif
  strcpy(json, "{\"display\": \"");
  json[strlen(json) + 1] = 0;
  json[strlen(json)] = (char)('1' + n);
  strcat(json, "\", \"kanjiDisplay\": \"");
  strcat(json, kanji[n]);
  strcat(json, "\", \"spoken\": \"");
  strcat(json, kana[n]);
  strcat(json, "\", \"readings\": [\"");
  strcat(json, kana[n]);
  strcat(json, "\"], \"answer\": {\"value\": ");
  size_t length = strlen(json);
  json[length] = (char)('1' + n);
  json[length + 1] = 0;
  strcat(json, "}}");
  emit(out, json);
  return BIKI_STATUS_OK;
}

static const biki_plugin_descriptor_t descriptor = {
  .size = sizeof(biki_plugin_descriptor_t),
#if defined(WRONG_VERSION)
  .abi_version = 99,
#else
  .abi_version = BIKI_PLUGIN_ABI_VERSION,
#endif
  .id = "misbehaving",
  .name = "Misbehaving",
  .version = "0",
  .flags = 0,
  .describe = describe,
#if defined(NULL_GENERATE)
  .generate = NULL,
#else
  .generate = generate,
#endif
};

#if !defined(NO_ENTRY)
BIKI_PLUGIN_EXPORT const biki_plugin_descriptor_t *biki_plugin_entry(uint32_t host_abi_version) {
#if defined(REFUSE_VERSION)
  (void)host_abi_version;
  return NULL;
#else
  (void)host_abi_version;
  return &descriptor;
#endif
}
#else
BIKI_PLUGIN_EXPORT int not_the_entry(void) { return 0; }
#endif
