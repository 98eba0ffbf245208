/*
 * A plugin that cannot work without ABI 1.1: its questions are body temperatures (39.1度), whose
 * answers are decimals, which only the extension biki.answers.1 of 1.1 lets an answer say. Its
 * descriptor says it needs 1.1 (`abi_minor`) for hosts that read it, and its init says so to a
 * 1.0 host, which does not. -DNEEDS_MINOR=N claims to need 1.N instead: a plugin built for a
 * Biki newer than the one it meets. Topic "fever.temperature".
 */
#include "biki_plugin.h"

#include <string.h>

#ifndef NEEDS_MINOR
#define NEEDS_MINOR 1
#endif

static int emit(const biki_writer_t *writer, const char *text) { return writer->write(writer, text, strlen(text)); }

static biki_status_t init(const biki_host_t *host, const biki_call_t *call) {
  if (!biki_host_speaks(host, NEEDS_MINOR, call)) return BIKI_STATUS_INTERNAL_ERROR;
  const biki_host_answers_t *answers = host->get_extension(host, BIKI_HOST_EXT_ANSWERS);
  if (!answers || !BIKI_HAS_FIELD(answers, biki_host_answers_t, shapes) || !(answers->shapes & BIKI_ANSWER_SHAPE_DECIMAL)) {
    emit(call->error, "this plugin needs decimal answers (" BIKI_HOST_EXT_ANSWERS ")");
    return BIKI_STATUS_INTERNAL_ERROR;
  }
  return BIKI_STATUS_OK;
}

static biki_status_t describe(const biki_call_t *call) {
  return emit(call->output,
              "{\"topics\": [{\"id\": \"temperature\", \"title\": \"Body temperature\", \"category\": \"number\", "
              "\"skills\": [\"kana\", \"reading\", \"listening\"], \"questionCount\": 2, \"parameters\": []}]}")
           ? BIKI_STATUS_OUTPUT_REFUSED
           : BIKI_STATUS_OK;
}

static const char *const questions[] = {
  "{\"display\": \"39.1度\", \"kanjiDisplay\": \"三十九・一度\", \"spoken\": \"さんじゅうきゅうてんいちど\", \"readings\": [\"さんじゅうきゅうてんいちど\"], "
  "\"answer\": {\"value\": 391, \"decimals\": 1, \"postfix\": \"度\"}}",
  "{\"display\": \"35.9度\", \"kanjiDisplay\": \"三十五・九度\", \"spoken\": \"さんじゅうごてんきゅうど\", \"readings\": [\"さんじゅうごてんきゅうど\"], "
  "\"answer\": {\"value\": 359, \"decimals\": 1, \"postfix\": \"度\"}}",
};

static biki_status_t generate(const char *topic, const biki_parameter_list_t *parameters, uint64_t seed, const biki_call_t *call) {
  if (strcmp(topic, "temperature") != 0) {
    emit(call->error, "no such topic");
    return BIKI_STATUS_UNKNOWN_TOPIC;
  }
  if (parameters->count != 0) return BIKI_STATUS_INVALID_PARAMETER;
  return emit(call->output, questions[seed % 2]) ? BIKI_STATUS_OUTPUT_REFUSED : BIKI_STATUS_OK;
}

static const biki_plugin_descriptor_t descriptor = {
  .size = sizeof(biki_plugin_descriptor_t),
  .abi_version = BIKI_PLUGIN_ABI_VERSION,
  .id = "fever",
  .name = "Fever",
  .version = "1.0",
  .flags = BIKI_PLUGIN_THREAD_SAFE,
  .init = init,
  .describe = describe,
  .generate = generate,
  .abi_minor = NEEDS_MINOR,
};

BIKI_PLUGIN_EXPORT const biki_plugin_descriptor_t *biki_plugin_entry(const biki_host_t *host) {
  return biki_plugin_abi_is_compatible(BIKI_PLUGIN_ABI_VERSION, host->abi_version) ? &descriptor : NULL;
}
