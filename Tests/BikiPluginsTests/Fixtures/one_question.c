/*
 * A plugin whose one topic ("written.q", kana, reading and listening; -DPLUGIN_ID='"…"' and
 * -DTOPIC_ID='"…"' name it otherwise) always writes the
 * question given at build time: -DQUESTION='"{\"display\": …}"'. The tests build one per
 * hostile question, as a plugin author would ship it, and check what Biki makes of it.
 * -DQUESTION_COUNT=N describes N questions, all that one; with -DLIE_AT=K and -DLIE='"…"' the
 * question at K (and only there) is LIE instead: a plugin whose bad question hides where a
 * check that tries a few seeds does not look.
 */
#include "biki_plugin.h"

#include <string.h>

#ifndef QUESTION
#error "build with -DQUESTION=\"the question's JSON\""
#endif
#ifndef QUESTION_COUNT
#define QUESTION_COUNT 1
#endif
#define TEXT(x) #x
#define NUMBER_TEXT(x) TEXT(x)

/* The plugin and topic ids, so a build can stand in for another topic (counters.hon). */
#ifndef PLUGIN_ID
#define PLUGIN_ID "written"
#endif
#ifndef TOPIC_ID
#define TOPIC_ID "q"
#endif

static int emit(const biki_writer_t *writer, const char *text) { return writer->write(writer, text, strlen(text)); }

static biki_status_t describe(const biki_call_t *call) {
  return emit(call->output,
              "{\"topics\": [{\"id\": \"" TOPIC_ID "\", \"title\": \"Q\", \"category\": \"counter\", \"skills\": [\"kana\", \"reading\", \"listening\"], "
              "\"questionCount\": " NUMBER_TEXT(QUESTION_COUNT) ", \"parameters\": []}]}")
             ? BIKI_STATUS_OUTPUT_REFUSED
             : BIKI_STATUS_OK;
}

static biki_status_t generate(const char *topic, const biki_parameter_list_t *parameters, uint64_t seed, const biki_call_t *call) {
  (void)parameters;
  (void)seed;
#ifdef LIE_AT
  if (seed % QUESTION_COUNT == LIE_AT) return emit(call->output, LIE) ? BIKI_STATUS_OUTPUT_REFUSED : BIKI_STATUS_OK;
#endif
#ifndef ACCEPT_ANY_TOPIC /* -DACCEPT_ANY_TOPIC: answers for topic ids it does not describe too */
  if (strcmp(topic, TOPIC_ID) != 0) {
    emit(call->error, "no such topic");
    return BIKI_STATUS_UNKNOWN_TOPIC;
  }
#endif
  return emit(call->output, QUESTION) ? BIKI_STATUS_OUTPUT_REFUSED : BIKI_STATUS_OK;
}

#ifdef NEEDS_SHAPES /* -DNEEDS_SHAPES=BIKI_ANSWER_SHAPE_…: writes typed answers, so init asks for them */
static biki_status_t init(const biki_host_t *host, const biki_call_t *call) {
  const biki_host_answers_t *answers = host->get_extension(host, BIKI_HOST_EXT_ANSWERS);
  if (answers == NULL || !BIKI_HAS_FIELD(answers, biki_host_answers_t, shapes) || (answers->shapes & (NEEDS_SHAPES)) != (NEEDS_SHAPES)) {
    emit(call->error, "this plugin answers in shapes other than whole numbers, which need the host extension " BIKI_HOST_EXT_ANSWERS);
    return BIKI_STATUS_INTERNAL_ERROR;
  }
  return BIKI_STATUS_OK;
}
#endif

static const biki_plugin_descriptor_t descriptor = {
  .size = sizeof(biki_plugin_descriptor_t),
  .abi_version = BIKI_PLUGIN_ABI_VERSION,
  .id = PLUGIN_ID,
  .name = "Written",
  .version = "1.0.0",
  .flags = BIKI_PLUGIN_THREAD_SAFE,
#ifdef NEEDS_SHAPES
  .init = init,
#endif
  .describe = describe,
  .generate = generate,
};

BIKI_PLUGIN_EXPORT const biki_plugin_descriptor_t *biki_plugin_entry(const biki_host_t *host) {
  (void)host;
  return &descriptor;
}
