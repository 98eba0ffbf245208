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

/* Era years' readings, asked of Biki's reading engine once, on the first era question (they
 * depend on the year alone; asking at `init` would cost every start the engine's own set-up),
 * and read-only after; empty when the host lacks the engine. `init` keeps the host. */
#define BIKI_CALENDAR_LONGEST_ERA 64
static char year_cache[BIKI_CALENDAR_LONGEST_ERA + 1][256];
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

/* Every reading of `year` before 年 from Biki's engine, as the JSON strings of an array without
 * its brackets ("しちねん","ななねん"); 0 when it cannot say. */
static int ask_biki(const biki_host_t *host, const biki_host_readings_t *readings, int year, char *out, size_t size) {
  buffer_t result = {.length = 0}, error = {.length = 0};
  biki_writer_t result_writer = {sizeof result_writer, &result, buffer_write};
  biki_writer_t error_writer = {sizeof error_writer, &error, buffer_write};
  biki_call_t call = {sizeof call, &result_writer, &error_writer};
  if (readings->read_number(host, (uint64_t)year, "年", NULL, &call) != BIKI_STATUS_OK || result.length < 2) return 0;
  /* Strip the brackets: [ … ] */
  snprintf(out, size, "%.*s", (int)result.length - 2, result.bytes + 1);
  return 1;
}

static void fill_year_cache(void) {
  if (!saved_readings) return;
  for (int year = 2; year <= BIKI_CALENDAR_LONGEST_ERA; year++) {
    if (!ask_biki(saved_host, saved_readings, year, year_cache[year], sizeof year_cache[year])) year_cache[year][0] = 0;
  }
}

/* The same, from the cache, else spelled here (NHK: 4 is よ, 7 しち or なな, 9 きゅう). */
static int year_readings(int year, char *out, size_t size) {
  pthread_once(&year_cache_filled, fill_year_cache);
  if (year_cache[year][0]) return snprintf(out, size, "%s", year_cache[year]) > 0;
  static const char *const ones[10] = {"", "いち", "に", "さん", "よ", "ご", "ろく", "しち", "はち", "きゅう"};
  static const char *const tens[10] = {"", "じゅう", "にじゅう", "さんじゅう", "よんじゅう", "ごじゅう", "ろくじゅう", "ななじゅう", "はちじゅう", "きゅうじゅう"};
  int t = year / 10, o = year % 10;
  if (o == 7) return snprintf(out, size, "\"%sしちねん\",\"%sななねん\"", tens[t], tens[t]) > 0;
  return snprintf(out, size, "\"%s%sねん\"", tens[t], ones[o]) > 0;
}

static const char *kanji_digits[10] = {"", "一", "二", "三", "四", "五", "六", "七", "八", "九"};

static void kanji_year(int year, char *buffer, size_t size) {
  int t = year / 10, o = year % 10;
  snprintf(buffer, size, "%s%s%s", t > 1 ? kanji_digits[t] : "", t > 0 ? "十" : "", kanji_digits[o]);
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
  char json[1024];
  if (parameters->count > 0) {
    emit(call->error, "this plugin's topics take no parameters");
    return BIKI_STATUS_INVALID_PARAMETER;
  }
  if (strcmp(topic_id, "weekdays") == 0) {
    int day = (int)(seed % 7);
    snprintf(json, sizeof json,
             "{\"display\": \"%s\", \"kanjiDisplay\": \"%s\", \"spoken\": \"%s\", \"readings\": [\"%s\"], "
             "\"answer\": {\"value\": %d, \"prefix\": \"\", \"postfix\": \"\"}}",
             weekday_kanji[day], weekday_kanji[day], weekday_kana[day], weekday_kana[day], day + 1);
  } else if (strcmp(topic_id, "eras") == 0) {
    int index = (int)(seed % (uint64_t)era_question_count());
    int e = 0;
    while (index >= eras[e].last_year) index -= eras[e++].last_year;
    int year = index + 1;
    char display[32], kanji[32], years[256];
    if (year == 1) {
      snprintf(display, sizeof display, "元");
      snprintf(kanji, sizeof kanji, "元");
      snprintf(years, sizeof years, "\"がんねん\"");
    } else {
      snprintf(display, sizeof display, "%d", year);
      kanji_year(year, kanji, sizeof kanji);
      if (!year_readings(year, years, sizeof years)) {
        emit(call->error, "the year could not be read");
        return BIKI_STATUS_GENERATION_FAILED;
      }
    }
    /* Each reading of the year, after the era's: "れいわ" + "ごねん". */
    char all[512] = "", first[128] = "";
    const char *cursor = years;
    while (*cursor == '"') {
      const char *end = strchr(cursor + 1, '"');
      if (!end) break;
      char one[160];
      snprintf(one, sizeof one, "%s\"%s%.*s\"", all[0] ? "," : "", eras[e].reading, (int)(end - cursor - 1), cursor + 1);
      strncat(all, one, sizeof all - strlen(all) - 1);
      if (!first[0]) snprintf(first, sizeof first, "%s%.*s", eras[e].reading, (int)(end - cursor - 1), cursor + 1);
      cursor = end + 1;
      if (*cursor == ',') cursor++;
    }
    snprintf(json, sizeof json,
             "{\"display\": \"%s%s年\", \"kanjiDisplay\": \"%s%s年\", \"spoken\": \"%s\", \"readings\": [%s], "
             "\"answer\": {\"value\": %d, \"prefix\": \"\", \"postfix\": \"年\"}}",
             eras[e].name, display, eras[e].name, kanji, first, all, eras[e].first_gregorian_year + year - 1);
  } else {
    emit(call->error, "no such topic");
    return BIKI_STATUS_UNKNOWN_TOPIC;
  }
  return emit(call->output, json) ? BIKI_STATUS_OUTPUT_REFUSED : BIKI_STATUS_OK;
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
