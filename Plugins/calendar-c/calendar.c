/*
 * The calendar plugin: weekdays (月曜日 … 日曜日) and era years from 明治 to 令和 answered as
 * Gregorian years. A sample of the Biki plugin ABI in plain C99, with no runtime beyond libc:
 *
 *   cc -std=c99 -shared -fPIC -I Sources/BikiPluginABI/include Plugins/calendar-c/calendar.c \
 *      -o libbiki-calendar.so
 */
#include "biki_plugin.h"

#include <stdio.h>
#include <string.h>

static int emit(const biki_writer_t *out, const char *text) {
  return out->write(out->context, text, strlen(text));
}

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

/* Kana for 1–99 before 年: 4 is よ, 7 is しち or なな, 9 is きゅう (NHK). Writes up to two
 * readings; returns how many. */
static int year_readings(int year, char readings[2][64]) {
  static const char *const ones[10] = {"", "いち", "に", "さん", "よ", "ご", "ろく", "しち", "はち", "きゅう"};
  static const char *const tens[10] = {"", "じゅう", "にじゅう", "さんじゅう", "よんじゅう", "ごじゅう", "ろくじゅう", "ななじゅう", "はちじゅう", "きゅうじゅう"};
  if (year == 1) {
    snprintf(readings[0], 64, "がんねん");
    return 1;
  }
  int t = year / 10, o = year % 10;
  snprintf(readings[0], 64, "%s%sねん", tens[t], ones[o]);
  if (o == 7) {
    snprintf(readings[1], 64, "%sななねん", tens[t]);
    return 2;
  }
  return 1;
}

static const char *kanji_digits[10] = {"", "一", "二", "三", "四", "五", "六", "七", "八", "九"};

static void kanji_year(int year, char *buffer, size_t size) {
  if (year == 1) {
    snprintf(buffer, size, "元");
    return;
  }
  int t = year / 10, o = year % 10;
  snprintf(buffer, size, "%s%s%s", t > 1 ? kanji_digits[t] : "", t > 0 ? "十" : "", kanji_digits[o]);
}

/* ---- The ABI ----------------------------------------------------------------------------- */

static biki_status_t describe(const biki_writer_t *out) {
  char count[32];
  snprintf(count, sizeof count, "%d", era_question_count());
  if (emit(out, "{\"topics\": [") ||
      emit(out, "{\"id\": \"weekdays\", \"title\": \"Days of the week\", \"description\": \"げつようび, かようび … にちようび.\", "
                "\"category\": \"dateTime\", \"skills\": [\"kana\"], \"questionCount\": 7, \"parameters\": []},") ||
      emit(out, "{\"id\": \"eras\", \"title\": \"明治 to 令和\", \"description\": \"Any year of 明治, 大正, 昭和, 平成 or 令和 as a Gregorian year.\", "
                "\"category\": \"dateTime\", \"skills\": [\"listening\", \"reading\"], \"questionCount\": ") ||
      emit(out, count) || emit(out, ", \"parameters\": []}]}"))
    return BIKI_STATUS_INTERNAL_ERROR;
  return BIKI_STATUS_OK;
}

static biki_status_t generate(
  const char *topic_id, const biki_parameter_t *parameters, size_t parameter_count, uint64_t seed,
  const biki_writer_t *out) {
  (void)parameters;
  char json[1024];
  if (parameter_count > 0) {
    emit(out, "this plugin's topics take no parameters");
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
    char readings[2][64], kanji[32];
    int reading_count = year_readings(year, readings);
    kanji_year(year, kanji, sizeof kanji);
    char display[32];
    if (year == 1) snprintf(display, sizeof display, "元"); else snprintf(display, sizeof display, "%d", year);
    int written = snprintf(json, sizeof json,
             "{\"display\": \"%s%s年\", \"kanjiDisplay\": \"%s%s年\", \"spoken\": \"%s%s\", \"readings\": [\"%s%s\"",
             eras[e].name, display, eras[e].name, kanji, eras[e].reading, readings[0], eras[e].reading, readings[0]);
    if (reading_count == 2) written += snprintf(json + written, sizeof json - (size_t)written, ", \"%s%s\"", eras[e].reading, readings[1]);
    snprintf(json + written, sizeof json - (size_t)written, "], \"answer\": {\"value\": %d, \"prefix\": \"\", \"postfix\": \"年\"}}",
             eras[e].first_gregorian_year + year - 1);
  } else {
    emit(out, "no such topic");
    return BIKI_STATUS_UNKNOWN_TOPIC;
  }
  return emit(out, json) ? BIKI_STATUS_INTERNAL_ERROR : BIKI_STATUS_OK;
}

static const biki_plugin_descriptor_t descriptor = {
  .size = sizeof(biki_plugin_descriptor_t),
  .abi_version = BIKI_PLUGIN_ABI_VERSION,
  .id = "calendar",
  .name = "Calendar",
  .version = "1.0.0",
  .flags = BIKI_PLUGIN_THREAD_SAFE,
  .describe = describe,
  .generate = generate,
};

BIKI_PLUGIN_EXPORT const biki_plugin_descriptor_t *biki_plugin_entry(uint32_t host_abi_version) {
  return biki_plugin_abi_is_compatible(BIKI_PLUGIN_ABI_VERSION, host_abi_version) ? &descriptor : NULL;
}
