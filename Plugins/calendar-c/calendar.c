/*
 * The calendar plugin: weekdays (月曜日 … 日曜日) and era years from 明治 to 令和 answered as
 * Gregorian years. A sample of the Biki plugin ABI v1 in plain C99, with no runtime beyond libc:
 *
 *   cc -std=c99 -shared -fPIC -I Sources/BikiPluginABI/include Plugins/calendar-c/calendar.c \
 *      -o libbiki-calendar.so
 *
 * It shows the host struct and its extensions: `init` asks Biki for its reading engine
 * ("biki.readings.1") and reads every era year with it once, at the first era question, so its
 * readings are Biki's by construction; with a host that lacks the extension it spells them itself.
 */
#include "biki_plugin.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static int emit(const biki_writer_t *writer, const char *text) { return writer->write(writer, text, strlen(text)); }

/* Each era year's readings before 年 ("しちねん", "ななねん"), asked of Biki's reading engine once,
 * on the first era question (they depend on the year alone; asking at `init` would cost every
 * start the engine's own set-up), and read-only after; spelled here when the host lacks the
 * engine. `init` keeps the host. */
#define BIKI_CALENDAR_LONGEST_ERA 64
typedef struct year_readings {
  int count;
  char text[2][64];
} year_readings_t;
static year_readings_t year_cache[BIKI_CALENDAR_LONGEST_ERA + 1];
static const biki_host_t *saved_host;
static const biki_host_readings_t *saved_readings;
static pthread_once_t year_cache_filled = PTHREAD_ONCE_INIT;

/* ---- Weekdays ---------------------------------------------------------------------------- */

static const char *const weekday_kanji[7] = {"月曜日", "火曜日", "水曜日", "木曜日", "金曜日", "土曜日", "日曜日"};
static const char *const weekday_kana[7] = {"げつようび", "かようび", "すいようび", "もくようび", "きんようび", "どようび", "にちようび"};

/* ---- Era years --------------------------------------------------------------------------- */

typedef struct era {
  const char *name;
  const char *reading;
  int first_gregorian_year;
  int last_year; /* the last era year written; 令和 is open, so up to BIKI_CALENDAR_THROUGH */
} era_t;

#define BIKI_CALENDAR_THROUGH 2030
static const era_t eras[5] = {
  {"明治", "めいじ", 1868, 45}, {"大正", "たいしょう", 1912, 15}, {"昭和", "しょうわ", 1926, 64},
  {"平成", "へいせい", 1989, 31}, {"令和", "れいわ", 2019, BIKI_CALENDAR_THROUGH - 2019 + 1},
};

static int era_question_count(void) {
  int count = 0;
  for (int i = 0; i < 5; i++) count += eras[i].last_year;
  return count;
}

/* A writer of the plugin's own, into a fixed buffer, for calls into the host. */
typedef struct buffer {
  char bytes[512];
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

/* Every reading of `year` before 年 from Biki's engine, which writes a JSON array of strings
 * (["しちねん","ななねん"]); 0 when it cannot say. */
static int ask_biki(int year, year_readings_t *out) {
  buffer_t result = {.length = 0}, error = {.length = 0};
  biki_writer_t result_writer = {sizeof result_writer, &result, buffer_write};
  biki_writer_t error_writer = {sizeof error_writer, &error, buffer_write};
  biki_call_t call = {sizeof call, &result_writer, &error_writer};
  if (saved_readings->read_number(saved_host, (uint64_t)year, "年", NULL, &call) != BIKI_STATUS_OK) return 0;
  out->count = 0;
  for (const char *cursor = strchr(result.bytes, '"'); cursor && out->count < 2; cursor = strchr(cursor, '"')) {
    const char *end = strchr(cursor + 1, '"');
    if (!end || (size_t)(end - cursor - 1) >= sizeof out->text[0]) break;
    memcpy(out->text[out->count], cursor + 1, (size_t)(end - cursor - 1));
    out->text[out->count++][end - cursor - 1] = 0;
    cursor = end + 1;
  }
  return out->count > 0;
}

/* The same, spelled here (NHK: 4 is よ, 7 しち or なな, 9 きゅう). */
static void spell_year(int year, year_readings_t *out) {
  static const char *const ones[10] = {"", "いち", "に", "さん", "よ", "ご", "ろく", "しち", "はち", "きゅう"};
  static const char *const tens[10] = {"", "じゅう", "にじゅう", "さんじゅう", "よんじゅう", "ごじゅう", "ろくじゅう", "ななじゅう", "はちじゅう", "きゅうじゅう"};
  int t = year / 10, o = year % 10;
  out->count = 1;
  snprintf(out->text[0], sizeof out->text[0], "%s%sねん", tens[t], ones[o]);
  if (o == 7) {
    out->count = 2;
    snprintf(out->text[1], sizeof out->text[1], "%sななねん", tens[t]);
  }
}

static void fill_year_cache(void) {
  year_cache[1].count = 1;
  snprintf(year_cache[1].text[0], sizeof year_cache[1].text[0], "がんねん");
  for (int year = 2; year <= BIKI_CALENDAR_LONGEST_ERA; year++) {
    if (!saved_readings || !ask_biki(year, &year_cache[year])) spell_year(year, &year_cache[year]);
  }
}

/* Text built by appending: bounded, and cheaper than formatting the whole question. */
typedef struct text {
  char bytes[1024];
  size_t length;
  int overflowed;
} text_t;

static void append(text_t *text, const char *piece) {
  size_t length = strlen(piece);
  if (text->length + length >= sizeof text->bytes) {
    text->overflowed = 1;
    return;
  }
  memcpy(text->bytes + text->length, piece, length);
  text->length += length;
}

static void append_number(text_t *text, int number) {
  char digits[16];
  snprintf(digits, sizeof digits, "%d", number);
  append(text, digits);
}

static const char *kanji_digits[10] = {"", "一", "二", "三", "四", "五", "六", "七", "八", "九"};

static void append_kanji_year(text_t *text, int year) {
  int t = year / 10, o = year % 10;
  if (t > 1) append(text, kanji_digits[t]);
  if (t > 0) append(text, "十");
  append(text, kanji_digits[o]);
}

/* ---- The ABI ----------------------------------------------------------------------------- */

static biki_status_t init(const biki_host_t *host, const biki_call_t *call) {
  (void)call;
  const biki_host_readings_t *readings = host->get_extension(host, BIKI_HOST_EXT_READINGS);
  /* A later Biki's struct may be larger, never smaller than what this plugin reads. */
  if (!readings || !BIKI_HAS_FIELD(readings, biki_host_readings_t, read_number)) return BIKI_STATUS_OK;
  saved_host = host;
  saved_readings = readings;
  return BIKI_STATUS_OK;
}

static biki_status_t describe(const biki_call_t *call) {
  char count[32];
  snprintf(count, sizeof count, "%d", era_question_count());
  if (emit(call->output, "{\"topics\": [") ||
      emit(call->output, "{\"id\": \"weekdays\", \"title\": \"Days of the week\", \"description\": \"げつようび, かようび … にちようび.\", "
                         "\"category\": \"dateTime\", \"skills\": [\"kana\"], \"questionCount\": 7, \"parameters\": []},") ||
      emit(call->output, "{\"id\": \"eras\", \"title\": \"明治 to 令和\", \"description\": \"Any year of 明治, 大正, 昭和, 平成 or 令和 as a Gregorian year.\", "
                         "\"category\": \"dateTime\", \"skills\": [\"listening\", \"reading\"], \"questionCount\": ") ||
      emit(call->output, count) || emit(call->output, ", \"parameters\": []}]}"))
    return BIKI_STATUS_OUTPUT_REFUSED;
  return BIKI_STATUS_OK;
}

static biki_status_t generate(const char *topic_id, const biki_parameter_list_t *parameters, uint64_t seed, const biki_call_t *call) {
  text_t json;
  json.length = 0;
  json.overflowed = 0;
  if (parameters->count > 0) {
    emit(call->error, "this plugin's topics take no parameters");
    return BIKI_STATUS_INVALID_PARAMETER;
  }
  if (strcmp(topic_id, "weekdays") == 0) {
    int day = (int)(seed % 7);
    append(&json, "{\"display\": \"");
    append(&json, weekday_kanji[day]);
    append(&json, "\", \"kanjiDisplay\": \"");
    append(&json, weekday_kanji[day]);
    append(&json, "\", \"spoken\": \"");
    append(&json, weekday_kana[day]);
    append(&json, "\", \"readings\": [\"");
    append(&json, weekday_kana[day]);
    append(&json, "\"], \"answer\": {\"value\": ");
    append_number(&json, day + 1);
    /* The day's name is a word Biki does not read itself: declared with its reading. */
    append(&json, ", \"prefix\": \"\", \"postfix\": \"\"}, \"words\": [{\"text\": \"");
    append(&json, weekday_kanji[day]);
    append(&json, "\", \"reading\": \"");
    append(&json, weekday_kana[day]);
    append(&json, "\"}]}");
  } else if (strcmp(topic_id, "eras") == 0) {
    int index = (int)(seed % (uint64_t)era_question_count());
    int e = 0;
    while (index >= eras[e].last_year) index -= eras[e++].last_year;
    int year = index + 1;
    pthread_once(&year_cache_filled, fill_year_cache);
    const year_readings_t *readings = &year_cache[year];
    append(&json, "{\"display\": \"");
    append(&json, eras[e].name);
    if (year == 1) append(&json, "元"); else append_number(&json, year);
    append(&json, "年\", \"kanjiDisplay\": \"");
    append(&json, eras[e].name);
    if (year == 1) append(&json, "元"); else append_kanji_year(&json, year);
    /* Each reading is the era's and then the year's: "れいわ" + "ごねん". */
    append(&json, "年\", \"spoken\": \"");
    append(&json, eras[e].reading);
    append(&json, readings->text[0]);
    append(&json, "\", \"readings\": [");
    for (int i = 0; i < readings->count; i++) {
      append(&json, i ? ", \"" : "\"");
      append(&json, eras[e].reading);
      append(&json, readings->text[i]);
      append(&json, "\"");
    }
    append(&json, "], \"answer\": {\"value\": ");
    append_number(&json, eras[e].first_gregorian_year + year - 1);
    append(&json, ", \"prefix\": \"\", \"postfix\": \"年\"}}");
  } else {
    emit(call->error, "no such topic");
    return BIKI_STATUS_UNKNOWN_TOPIC;
  }
  if (json.overflowed) {
    emit(call->error, "the question did not fit the plugin's buffer");
    return BIKI_STATUS_GENERATION_FAILED;
  }
  return call->output->write(call->output, json.bytes, json.length) ? BIKI_STATUS_OUTPUT_REFUSED : BIKI_STATUS_OK;
}

static const biki_plugin_descriptor_t descriptor = {
  .size = sizeof(biki_plugin_descriptor_t),
  .abi_version = BIKI_PLUGIN_ABI_VERSION,
  .id = "calendar",
  .name = "Calendar",
  .version = "1.0.0",
  .flags = BIKI_PLUGIN_THREAD_SAFE,
  .init = init,
  .deinit = NULL,
  .get_extension = NULL,
  .describe = describe,
  .generate = generate,
  .question_count = NULL,
};

BIKI_PLUGIN_EXPORT const biki_plugin_descriptor_t *biki_plugin_entry(const biki_host_t *the_host) {
  return biki_plugin_abi_is_compatible(BIKI_PLUGIN_ABI_VERSION, the_host->abi_version) ? &descriptor : NULL;
}
