/*
 * A plugin built against the synthetic "later" header, as a careful author writes one: every
 * field the later header appended is used only where BIKI_HAS_FIELD says the host's struct has
 * it. In today's host none of them is there, and the plugin works without them.
 * Topic "later.hon": 1–9本, read with the host's reading engine.
 */
#include "biki_plugin.h"

#include <stdio.h>
#include <string.h>

static const biki_host_t *host;
static const biki_host_readings_t *readings;

static int emit(const biki_writer_t *writer, const char *text) { return writer->write(writer, text, strlen(text)); }

typedef struct buffer {
  char bytes[256];
  size_t length;
} buffer_t;

static int32_t buffer_write(const biki_writer_t *writer, const char *bytes, size_t length) {
  buffer_t *buffer = writer->context;
  if (buffer->length + length >= sizeof buffer->bytes) return 1;
  memcpy(buffer->bytes + buffer->length, bytes, length);
  buffer->length += length;
  buffer->bytes[buffer->length] = 0;
  return 0;
}

static biki_status_t init(const biki_host_t *the_host, const biki_call_t *call) {
  host = the_host;
  if (BIKI_HAS_FIELD(host, biki_host_t, log)) host->log(host, "later plugin starting");
  readings = host->get_extension(host, BIKI_HOST_EXT_READINGS);
  if (!readings || !BIKI_HAS_FIELD(readings, biki_host_readings_t, read_number)) {
    emit(call->error, "this plugin needs Biki's reading engine");
    return BIKI_STATUS_INTERNAL_ERROR;
  }
  return BIKI_STATUS_OK;
}

static biki_status_t describe(const biki_call_t *call) {
  emit(call->output, "{\"topics\": [{\"id\": \"hon\", \"title\": \"本\", \"category\": \"counter\", \"skills\": [\"kana\", \"reading\"], \"questionCount\": 9, \"parameters\": []}]}");
  if (BIKI_HAS_FIELD(call->output, biki_writer_t, flush)) call->output->flush(call->output);
  return BIKI_STATUS_OK;
}

static biki_status_t generate(const char *topic, const biki_parameter_list_t *parameters, uint64_t seed, const biki_call_t *call) {
  if (BIKI_HAS_FIELD(call, biki_call_t, cancelled) && call->cancelled && *call->cancelled) return BIKI_STATUS_GENERATION_FAILED;
  for (size_t i = 0; i < parameters->count; i++) {
    const biki_parameter_t *parameter = biki_parameter_at(parameters, i);
    if (BIKI_HAS_FIELD(parameter, biki_parameter_t, flags) && parameter->flags) return BIKI_STATUS_INVALID_PARAMETER;
  }
  if (strcmp(topic, "hon") != 0) {
    emit(call->error, "no such topic");
    return BIKI_STATUS_UNKNOWN_TOPIC;
  }
  int n = (int)(seed % 9) + 1;
  buffer_t read = {.length = 0}, error = {.length = 0};
  /* A call of the plugin's own, as this (later) header lays it out: larger than the host's. */
  biki_writer_t read_writer = {sizeof read_writer, &read, buffer_write, NULL};
  biki_writer_t error_writer = {sizeof error_writer, &error, buffer_write, NULL};
  biki_call_t own = {sizeof own, &read_writer, &error_writer, NULL};
  if (readings->read_number(host, (uint64_t)n, "本", NULL, &own) != BIKI_STATUS_OK) {
    emit(call->error, error.bytes);
    return BIKI_STATUS_GENERATION_FAILED;
  }
  /* ["はっぽん","はちほん"]: the first is the standard reading. */
  char spoken[64] = "";
  const char *start = strchr(read.bytes, '"'), *end = start ? strchr(start + 1, '"') : NULL;
  if (start && end) snprintf(spoken, sizeof spoken, "%.*s", (int)(end - start - 1), start + 1);
  static const char *const kanji[10] = {"", "一", "二", "三", "四", "五", "六", "七", "八", "九"};
  char json[512];
  snprintf(json, sizeof json,
           "{\"display\": \"%d本\", \"kanjiDisplay\": \"%s本\", \"spoken\": \"%s\", \"readings\": %s, \"answer\": {\"value\": %d, \"postfix\": \"本\"}, "
           "\"number\": {\"value\": %d, \"counter\": \"本\"}}",
           n, kanji[n], spoken, read.bytes, n, n);
  return emit(call->output, json) ? BIKI_STATUS_OUTPUT_REFUSED : BIKI_STATUS_OK;
}

static const biki_plugin_descriptor_t descriptor = {
  .size = sizeof(biki_plugin_descriptor_t),
  .abi_version = BIKI_PLUGIN_ABI_VERSION,
  .id = "later",
  .name = "Later",
  .version = "2.0.0",
  .flags = 0,
  .init = init,
  .describe = describe,
  .generate = generate,
  .requirements = 0,
};

BIKI_PLUGIN_EXPORT const biki_plugin_descriptor_t *biki_plugin_entry(const biki_host_t *the_host) {
  return biki_plugin_abi_is_compatible(BIKI_PLUGIN_ABI_VERSION, the_host->abi_version) ? &descriptor : NULL;
}
