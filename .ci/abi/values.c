/* The values of plugin ABI 1, frozen minor by minor: every constant, string, layout offset and
 * helper biki_plugin.h defines, checked against a header. Built and run by .ci/abi-check, against
 * the live header and each minor's committed copy in .ci/abi/<major.minor>/; abidiff checks the
 * types, this checks what abidiff cannot see.
 *
 * Each minor has a section of its own (values_1_0, values_1_1), checked in every header of
 * that minor or later. Every expected value is written out by hand: it is the contract, never
 * read from the header. A later minor may add status codes, flags, extensions and appended
 * fields, in a new section, and every earlier section must still pass. Nothing here changes
 * with `.ci/abi-check --update`: edit this file by hand, and only deliberately. Changing or
 * removing an expected value is a break of major 1 (a new BIKI_PLUGIN_ABI_VERSION).
 *
 *   values HEADER-NAME     prints one line per value that differs; exit 1 if any does
 *
 * Build: cc -std=c11 -fvisibility=hidden -rdynamic -I DIR values.c -ldl (the visibility check
 * needs the last three). Layout is checked for LP64 (Linux on x86-64 and AArch64). */
#define _GNU_SOURCE
#include "biki_plugin.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *header = "biki_plugin.h";
static int failures = 0;
/* The minor whose section is being checked, for messages. */
static const char *minor = "1.0";

static void changed(const char *what, const char *actual, const char *frozen) {
  printf("abi: %s is %s in %s; ABI %s froze it at %s\n", what, actual, header, minor, frozen);
  failures++;
}

static void integer(const char *what, long long actual, long long frozen) {
  if (actual == frozen) return;
  char a[32], f[32];
  snprintf(a, sizeof a, "%lld", actual);
  snprintf(f, sizeof f, "%lld", frozen);
  changed(what, a, f);
}

static void string(const char *what, const char *actual, size_t actual_size, const char *frozen) {
  /* actual_size is sizeof the literal, so an embedded NUL or a longer literal counts too. */
  if (actual_size == strlen(frozen) + 1 && memcmp(actual, frozen, actual_size) == 0) return;
  char a[256], f[256];
  snprintf(a, sizeof a, "\"%s\"", actual);
  snprintf(f, sizeof f, "\"%s\"", frozen);
  changed(what, a, f);
}

static void truth(const char *what, int actual, int frozen) {
  if ((actual != 0) == (frozen != 0)) return;
  printf("abi: %s: %s in %s; ABI %s froze it at %s\n", what, actual ? "true" : "false", header, minor, frozen ? "true" : "false");
  failures++;
}

/* Runs `check` in a child process, for a check that may crash when the header changed: a crash
 * is named as a failure of `what`, and the other checks still run. */
static int isolated(const char *what, int (*check)(void)) {
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) _exit(check() ? 1 : 0);
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child) {
    printf("abi: %s could not be checked in %s (fork failed)\n", what, header);
    failures++;
    return -1;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  printf("abi: %s crashes in %s (signal %d); ABI %s froze it not to\n", what, header, WIFSIGNALED(status) ? WTERMSIG(status) : 0, minor);
  failures++;
  return -1;
}

#define INTEGER(name, frozen) integer(#name, (long long)(name), frozen)
#define STRING(name, frozen) string(#name, name, sizeof(name), frozen)

static void missing(const char *what) {
  printf("abi: %s is not defined in %s; ABI %s defines it\n", what, header, minor);
  failures++;
}

#define MISSING(name) missing(#name)

/* Exported and hidden functions, for BIKI_PLUGIN_EXPORT (built with -fvisibility=hidden). */
BIKI_PLUGIN_EXPORT void biki_values_exported(void);
BIKI_PLUGIN_EXPORT void biki_values_exported(void) {}
void biki_values_hidden(void);
void biki_values_hidden(void) {}

static void constants(void) {
#ifdef BIKI_PLUGIN_ABI_VERSION
  INTEGER(BIKI_PLUGIN_ABI_VERSION, 1);
  truth("the type of BIKI_PLUGIN_ABI_VERSION is unsigned int", _Generic(BIKI_PLUGIN_ABI_VERSION, unsigned int: 1, default: 0), 1);
#else
  MISSING(BIKI_PLUGIN_ABI_VERSION);
#endif

#ifdef BIKI_PLUGIN_ENTRY_SYMBOL
  STRING(BIKI_PLUGIN_ENTRY_SYMBOL, "biki_plugin_entry");
#else
  MISSING(BIKI_PLUGIN_ENTRY_SYMBOL);
#endif

#ifdef BIKI_HOST_EXT_READINGS
  STRING(BIKI_HOST_EXT_READINGS, "biki.readings.1");
#else
  MISSING(BIKI_HOST_EXT_READINGS);
#endif

  INTEGER(BIKI_STATUS_OK, 0);
  INTEGER(BIKI_STATUS_UNKNOWN_TOPIC, 1);
  INTEGER(BIKI_STATUS_INVALID_PARAMETER, 2);
  INTEGER(BIKI_STATUS_GENERATION_FAILED, 3);
  INTEGER(BIKI_STATUS_INTERNAL_ERROR, 4);
  INTEGER(BIKI_STATUS_OUTPUT_REFUSED, 5);
  INTEGER(sizeof(biki_status_t), 4);
  truth("biki_status_t is signed", (biki_status_t)-1 < 0, 1);

  INTEGER(BIKI_PLUGIN_THREAD_SAFE, 1);

#ifdef BIKI_PLUGIN_DESCRIPTOR_V1_SIZE
  if (sizeof(void *) == 8) INTEGER(BIKI_PLUGIN_DESCRIPTOR_V1_SIZE, 88);
#else
  MISSING(BIKI_PLUGIN_DESCRIPTOR_V1_SIZE);
#endif

#ifdef BIKI_PLUGIN_EXPORT
  /* The control first: if the hidden function is found, the build did not hide anything and
   * the check proves nothing. */
  if (dlsym(RTLD_DEFAULT, "biki_values_hidden") != NULL) {
    printf("abi: BIKI_PLUGIN_EXPORT could not be checked: build values.c with -fvisibility=hidden -rdynamic\n");
    failures++;
  } else {
    truth("BIKI_PLUGIN_EXPORT exports a function under -fvisibility=hidden", dlsym(RTLD_DEFAULT, "biki_values_exported") != NULL, 1);
  }
#else
  MISSING(BIKI_PLUGIN_EXPORT);
#endif
}

/* Every v1 field keeps its offset and size: later versions only append. LP64 only. */
#define FIELD(type, field, offset, size)                                              \
  do {                                                                                \
    integer("offsetof(" #type ", " #field ")", (long long)offsetof(type, field), offset); \
    integer("sizeof(" #type "." #field ")", (long long)sizeof(((type *)0)->field), size);  \
  } while (0)

static void layout(void) {
  if (sizeof(void *) != 8 || sizeof(size_t) != 8) {
    printf("abi: layout not checked in %s: values.c has it for LP64 only\n", header);
    return;
  }
  FIELD(biki_writer_t, size, 0, 4);
  FIELD(biki_writer_t, context, 8, 8);
  FIELD(biki_writer_t, write, 16, 8);

  FIELD(biki_call_t, size, 0, 4);
  FIELD(biki_call_t, output, 8, 8);
  FIELD(biki_call_t, error, 16, 8);

  FIELD(biki_parameter_t, size, 0, 4);
  FIELD(biki_parameter_t, name, 8, 8);
  FIELD(biki_parameter_t, value, 16, 8);

  FIELD(biki_parameter_list_t, size, 0, 4);
  FIELD(biki_parameter_list_t, element_size, 4, 4);
  FIELD(biki_parameter_list_t, count, 8, 8);
  FIELD(biki_parameter_list_t, entries, 16, 8);

  FIELD(biki_host_t, size, 0, 4);
  FIELD(biki_host_t, abi_version, 4, 4);
  FIELD(biki_host_t, name, 8, 8);
  FIELD(biki_host_t, version, 16, 8);
  FIELD(biki_host_t, host_data, 24, 8);
  FIELD(biki_host_t, get_extension, 32, 8);

  FIELD(biki_host_readings_t, size, 0, 4);
  FIELD(biki_host_readings_t, read_number, 8, 8);

  FIELD(biki_plugin_descriptor_t, size, 0, 4);
  FIELD(biki_plugin_descriptor_t, abi_version, 4, 4);
  FIELD(biki_plugin_descriptor_t, id, 8, 8);
  FIELD(biki_plugin_descriptor_t, name, 16, 8);
  FIELD(biki_plugin_descriptor_t, version, 24, 8);
  FIELD(biki_plugin_descriptor_t, flags, 32, 4);
  FIELD(biki_plugin_descriptor_t, init, 40, 8);
  FIELD(biki_plugin_descriptor_t, deinit, 48, 8);
  FIELD(biki_plugin_descriptor_t, get_extension, 56, 8);
  FIELD(biki_plugin_descriptor_t, describe, 64, 8);
  FIELD(biki_plugin_descriptor_t, generate, 72, 8);
  FIELD(biki_plugin_descriptor_t, question_count, 80, 8);
}

/* biki_parameter_at steps by the list's element_size, whatever sizeof(biki_parameter_t) is. */
static void parameter_at(uint32_t element_size, size_t index, long long frozen_offset) {
  static _Alignas(8) char entries[512];
  memset(entries, 0, sizeof entries);
  biki_parameter_list_t list;
  memset(&list, 0, sizeof list);
  list.size = sizeof list;
  list.element_size = element_size;
  list.count = index + 1;
  list.entries = entries;
  const biki_parameter_t *at = biki_parameter_at(&list, index);
  char what[96];
  snprintf(what, sizeof what, "biki_parameter_at(list of element_size %" PRIu32 ", %zu) - entries", element_size, index);
  integer(what, (long long)((const char *)at - entries), frozen_offset);
}

#ifdef BIKI_HAS_FIELD
static int has_field_through_null(void) {
  const biki_parameter_t *volatile none = NULL;
  return BIKI_HAS_FIELD(none, biki_parameter_t, size);
}
#endif

static void helpers(void) {
  truth(
    "biki_parameter_at returns const biki_parameter_t *",
    _Generic(biki_parameter_at((const biki_parameter_list_t *)0, 0), const biki_parameter_t *: 1, default: 0), 1);
  parameter_at(24, 0, 0);
  parameter_at(24, 3, 72);
  parameter_at(40, 1, 40);
  parameter_at(40, 2, 80);
  parameter_at(56, 5, 280);

  /* And reads what sits there: a later host's larger entries, written at element_size steps. */
  {
    static _Alignas(8) char entries[3 * 40];
    memset(entries, 0, sizeof entries);
    for (int i = 0; i < 3; i++) {
      biki_parameter_t p;
      memset(&p, 0, sizeof p);
      p.size = 40;
      p.name = i == 2 ? "third" : "other";
      p.value = 100 + i;
      memcpy(entries + i * 40, &p, sizeof p);
    }
    biki_parameter_list_t list;
    memset(&list, 0, sizeof list);
    list.size = sizeof list;
    list.element_size = 40;
    list.count = 3;
    list.entries = entries;
    const biki_parameter_t *third = biki_parameter_at(&list, 2);
    /* Read through it only where the offset checks above let it point: nowhere else is safe. */
    if ((const char *)third == entries + 80) {
      integer("biki_parameter_at(list of element_size 40, 2)->value", (long long)third->value, 102);
      truth("biki_parameter_at(list of element_size 40, 2)->name is \"third\"", strcmp(third->name, "third") == 0, 1);
    }
  }

#ifdef BIKI_HAS_FIELD
  {
    /* A field is there when size reaches its end, and never through NULL. */
    biki_parameter_t p;
    memset(&p, 0, sizeof p);
    p.size = 24;
    truth("BIKI_HAS_FIELD(parameter of size 24, biki_parameter_t, value)", BIKI_HAS_FIELD(&p, biki_parameter_t, value), 1);
    p.size = 23;
    truth("BIKI_HAS_FIELD(parameter of size 23, biki_parameter_t, value)", BIKI_HAS_FIELD(&p, biki_parameter_t, value), 0);
    p.size = 16;
    truth("BIKI_HAS_FIELD(parameter of size 16, biki_parameter_t, name)", BIKI_HAS_FIELD(&p, biki_parameter_t, name), 1);
    truth("BIKI_HAS_FIELD(parameter of size 16, biki_parameter_t, value)", BIKI_HAS_FIELD(&p, biki_parameter_t, value), 0);
    p.size = 4;
    truth("BIKI_HAS_FIELD(parameter of size 4, biki_parameter_t, size)", BIKI_HAS_FIELD(&p, biki_parameter_t, size), 1);
    p.size = 0;
    truth("BIKI_HAS_FIELD(parameter of size 0, biki_parameter_t, size)", BIKI_HAS_FIELD(&p, biki_parameter_t, size), 0);
    p.size = 4096;
    truth("BIKI_HAS_FIELD(parameter of size 4096, biki_parameter_t, value)", BIKI_HAS_FIELD(&p, biki_parameter_t, value), 1);
    int null = isolated("BIKI_HAS_FIELD(NULL, biki_parameter_t, size)", has_field_through_null);
    if (null >= 0) truth("BIKI_HAS_FIELD(NULL, biki_parameter_t, size)", null, 0);

    biki_plugin_descriptor_t d;
    memset(&d, 0, sizeof d);
    d.size = 88;
    truth("BIKI_HAS_FIELD(descriptor of size 88, biki_plugin_descriptor_t, question_count)",
      BIKI_HAS_FIELD(&d, biki_plugin_descriptor_t, question_count), 1);
    d.size = 87;
    truth("BIKI_HAS_FIELD(descriptor of size 87, biki_plugin_descriptor_t, question_count)",
      BIKI_HAS_FIELD(&d, biki_plugin_descriptor_t, question_count), 0);
  }
#else
  MISSING(BIKI_HAS_FIELD);
#endif

  truth("biki_plugin_abi_is_compatible(1, 1)", biki_plugin_abi_is_compatible(1, 1), 1);
  truth("biki_plugin_abi_is_compatible(2, 2)", biki_plugin_abi_is_compatible(2, 2), 1);
  truth("biki_plugin_abi_is_compatible(1, 2)", biki_plugin_abi_is_compatible(1, 2), 0);
  truth("biki_plugin_abi_is_compatible(2, 1)", biki_plugin_abi_is_compatible(2, 1), 0);
  truth("biki_plugin_abi_is_compatible(0, 1)", biki_plugin_abi_is_compatible(0, 1), 0);
  truth("biki_plugin_abi_is_compatible(1, 0)", biki_plugin_abi_is_compatible(1, 0), 0);
}

/* 1.1: the extension biki.answers.1, and the minor version on both sides. Checked in headers
 * that say they are 1.1 or later; the 1.0 header has none of it. */
#if defined(BIKI_PLUGIN_ABI_MINOR) && BIKI_PLUGIN_ABI_MINOR >= 1
#define BIKI_VALUES_1_1 1

typedef struct text {
  char bytes[256];
  size_t length;
} text_t;

static int32_t text_write(const biki_writer_t *writer, const char *bytes, size_t length) {
  text_t *text = writer->context;
  if (text->length + length >= sizeof text->bytes) return 1;
  memcpy(text->bytes + text->length, bytes, length);
  text->length += length;
  text->bytes[text->length] = 0;
  return 0;
}

/* What biki_host_speaks gives and writes for a host of `size` bytes speaking `spoken`. */
static void host_speaks(uint32_t size, uint32_t spoken, uint32_t needed, int frozen, const char *frozen_message) {
  biki_host_t host;
  memset(&host, 0, sizeof host);
  host.size = size;
  host.abi_version = 1;
  host.abi_minor = spoken;
  text_t error = {{0}, 0};
  biki_writer_t writer = {sizeof writer, &error, text_write};
  biki_writer_t none = {sizeof none, NULL, NULL};
  biki_call_t call = {sizeof call, &none, &writer};
  char what[128];
  snprintf(what, sizeof what, "biki_host_speaks(host of size %" PRIu32 " speaking 1.%" PRIu32 ", %" PRIu32 ")", size, spoken, needed);
  truth(what, biki_host_speaks(&host, needed, &call), frozen);
  snprintf(what, sizeof what, "what biki_host_speaks(host of size %" PRIu32 " speaking 1.%" PRIu32 ", %" PRIu32 ") writes", size, spoken, needed);
  string(what, error.bytes, error.length + 1, frozen_message);
}

static void values_1_1(void) {
  minor = "1.1";
  truth("BIKI_PLUGIN_ABI_MINOR >= 1", BIKI_PLUGIN_ABI_MINOR >= 1, 1);
  truth("the type of BIKI_PLUGIN_ABI_MINOR is unsigned int", _Generic(BIKI_PLUGIN_ABI_MINOR, unsigned int: 1, default: 0), 1);
  STRING(BIKI_HOST_EXT_ANSWERS, "biki.answers.1");
  INTEGER(BIKI_ANSWER_SHAPE_DECIMAL, 1);
  INTEGER(BIKI_ANSWER_SHAPE_FRACTION, 2);
  INTEGER(BIKI_ANSWER_SHAPE_CLOCK, 4);
  INTEGER(BIKI_ANSWER_SHAPE_CODE, 8);
  if (sizeof(void *) == 8) {
    FIELD(biki_host_answers_t, size, 0, 4);
    FIELD(biki_host_answers_t, shapes, 4, 4);
    FIELD(biki_host_t, abi_minor, 40, 4);
    FIELD(biki_plugin_descriptor_t, abi_minor, 88, 4);
  }
  /* A 1.0 host's struct ends at 40 bytes, before abi_minor. */
  biki_host_t host;
  memset(&host, 0, sizeof host);
  host.size = 40;
  host.abi_minor = 7;
  integer("biki_host_abi_minor(host of size 40)", biki_host_abi_minor(&host), 0);
  host.size = 44;
  integer("biki_host_abi_minor(host of size 44 speaking 1.7)", biki_host_abi_minor(&host), 7);
  host_speaks(40, 9, 1, 0, "this plugin needs Biki's plugin ABI 1.1; this Biki speaks 1.0");
  host_speaks(44, 1, 1, 1, "");
  host_speaks(44, 3, 12, 0, "this plugin needs Biki's plugin ABI 1.12; this Biki speaks 1.3");
  host_speaks(44, 4294967295u, 4294967295u, 1, "");
}
#endif

int main(int argc, char **argv) {
  if (argc > 1) header = argv[1];
  /* Each line out before anything that may crash. */
  setvbuf(stdout, NULL, _IOLBF, 0);
  constants();
  layout();
  helpers();
  const char *minors = "1.0";
#ifdef BIKI_VALUES_1_1
  values_1_1();
  minors = "1.0 and 1.1";
#endif
  if (failures) return 1;
  printf("abi: the values of ABI %s hold in %s\n", minors, header);
  return 0;
}
