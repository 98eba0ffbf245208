/*
 * biki_plugin.h — the C ABI between Biki and native topic plugins, version 1.1.
 *
 * FROZEN COPY of version 1.1, as released: plugins built against it must keep loading, and
 * the samples must load in a host built against it. .ci/abi-check fails when it changes.
 *
 * A plugin is a shared library that exports one symbol, `biki_plugin_entry`. Biki calls it with
 * a `biki_host_t` describing itself; the plugin answers with a pointer to a constant
 * `biki_plugin_descriptor_t`, or NULL to refuse. Everything else goes through the descriptor.
 *
 * Stability
 *  - Every struct that crosses the boundary begins with `uint32_t size`: its size as the side
 *    that filled it was compiled. Later versions only append fields. A reader uses a field only
 *    if `size` covers it (BIKI_HAS_FIELD), so a plugin built against v1.0 loads in every later
 *    host, and a plugin built against a later header loads in a v1.0 host as long as it checks
 *    `size` before using what v1.0 does not have.
 *  - The version is major.minor. A minor version only adds (appended fields, extensions,
 *    status codes, flags); a host loads every plugin of its major whose minor it reaches. A
 *    plugin that cannot work without a later minor's additions says so in its descriptor's
 *    `abi_minor`, and in `init` with biki_host_speaks for hosts too old to read that field.
 *    docs/plugin-abi.md has the policy, and what each minor added; a committed copy of each
 *    minor's header is in .ci/abi.
 *  - Arrays of structs carry their element size (`biki_parameter_list_t.element_size`): index
 *    them with `biki_parameter_at`, never with `[]`, so an element can grow too.
 *  - New capabilities arrive as extensions (`get_extension` on both sides), looked up by id
 *    string; an id names one frozen struct forever ("biki.readings.1"), and a changed struct
 *    gets a new id. BIKI_PLUGIN_ABI_VERSION, the major, changes only for a break, and Biki then
 *    refuses plugins of other majors with a message that says so.
 *
 * Rules (and why)
 *  - Only C types cross: integers, NUL-terminated UTF-8 `const char *`, structs of data and
 *    function pointers. No C++ exceptions and no longjmp across a call; no language runtime
 *    objects.
 *  - Ownership is one-sided: each side frees only what it allocated. Plugins write output
 *    through writers Biki provides, and never return memory for Biki to free.
 *  - Output is a pure function of (topic id, parameters, seed): no clocks, no global random
 *    state, no files. `biki-pack lint` replays seeds, in the same and a fresh process.
 *  - A call that fails returns a status other than BIKI_STATUS_OK and may explain itself in
 *    `call->error`; whatever it wrote to `call->output` is then discarded. A writer that refuses
 *    bytes (the output limit) is answered with BIKI_STATUS_OUTPUT_REFUSED.
 *
 * What Biki verifies (each a `biki-pack lint` rule, and at run time a refused question): the
 * output is UTF-8 JSON of the documented shape; readings are hiragana (ー allowed), as in JSON
 * packs; the answer is the one number the display shows, whole unless the extension
 * "biki.answers.1" gives its shape; readings agree with Biki's own wherever
 * Biki can read the display or the question declares its number and counter; the same seed
 * gives the same question; `questionCount` distinct questions exist for the parameters given.
 * docs/plugin-abi.md lists the rules with an example each.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI's major version. It changes only for an incompatible break. */
#define BIKI_PLUGIN_ABI_VERSION 1u

/* The ABI's minor version, which this header describes. 1.0 had none of what is marked
 * "Since 1.1"; 1.1 added the extension biki.answers.1 and the `abi_minor` fields. */
#define BIKI_PLUGIN_ABI_MINOR 1u

/* The one symbol a plugin exports. */
#define BIKI_PLUGIN_ENTRY_SYMBOL "biki_plugin_entry"

/* Marks the entry function as exported even when the library hides everything else. */
#if defined(__GNUC__) || defined(__clang__)
#define BIKI_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define BIKI_PLUGIN_EXPORT
#endif

/* Whether a sized struct at `pointer` (whose first field is `uint32_t size`) has `field` of
 * `type`: use before reading any field a later version appended. */
#define BIKI_HAS_FIELD(pointer, type, field) \
  ((pointer) != NULL && (pointer)->size >= offsetof(type, field) + sizeof(((type *)0)->field))

/* Status codes. Biki treats any value not listed as BIKI_STATUS_INTERNAL_ERROR. */
typedef int32_t biki_status_t;
enum {
  /* The call succeeded; its output is complete. */
  BIKI_STATUS_OK = 0,
  /* The topic id names no topic of this plugin (ids are compared byte for byte). */
  BIKI_STATUS_UNKNOWN_TOPIC = 1,
  /* A parameter is unknown to the topic, or its value is outside the declared bounds. */
  BIKI_STATUS_INVALID_PARAMETER = 2,
  /* The question for this seed could not be made. Biki moves on to another question. */
  BIKI_STATUS_GENERATION_FAILED = 3,
  /* Anything else; `call->error` says what. */
  BIKI_STATUS_INTERNAL_ERROR = 4,
  /* A writer refused bytes: the output would exceed Biki's limit (1 MiB). */
  BIKI_STATUS_OUTPUT_REFUSED = 5,
};

/* Descriptor flags. */
enum {
  /* `describe`, `generate` and `question_count` may run on several threads at once. Without
   * this flag Biki never makes two calls into the plugin at the same time. */
  BIKI_PLUGIN_THREAD_SAFE = 1u << 0,
};

/*
 * Where a call writes: UTF-8 bytes, appended in order, not NUL-terminated.
 * Provided and owned by Biki; valid only during the call that received it.
 */
typedef struct biki_writer {
  /* sizeof(biki_writer_t) as Biki was built. */
  uint32_t size;
  /* Biki's; the plugin leaves it alone. */
  void *context;
  /*
   * Appends `length` bytes from `bytes` (which may be NULL when `length` is 0).
   * Thread: the thread of the call that received the writer, during that call only. A write
   * after the call returned, from any thread and however late, is refused (non-zero) and
   * reported by lint against that call (`plugin-writer-after-return`); it never reaches another
   * call's output.
   * Ownership: `bytes` is only read during this call; the plugin keeps it.
   * Returns 0 when the bytes were taken; non-zero when Biki refuses them (the output limit),
   * after which the plugin should stop and return BIKI_STATUS_OUTPUT_REFUSED.
   */
  int32_t (*write)(const struct biki_writer *writer, const char *bytes, size_t length);
} biki_writer_t;

/* The writers of one call. Provided and owned by Biki; valid only during the call. */
typedef struct biki_call {
  /* sizeof(biki_call_t) as Biki was built. */
  uint32_t size;
  /* The result (JSON). Kept only if the call returns BIKI_STATUS_OK; discarded otherwise. */
  const biki_writer_t *output;
  /* A message for people (UTF-8) when the call fails; ignored when it succeeds. */
  const biki_writer_t *error;
} biki_call_t;

/* One parameter a session sets: a name the topic declared, and a value within its bounds. */
typedef struct biki_parameter {
  /* sizeof(biki_parameter_t) as Biki was built. */
  uint32_t size;
  /* NUL-terminated UTF-8; owned by Biki, valid during the call. */
  const char *name;
  int64_t value;
} biki_parameter_t;

/* The parameters of a call. Parameters not listed take their defaults. */
typedef struct biki_parameter_list {
  /* sizeof(biki_parameter_list_t) as Biki was built. */
  uint32_t size;
  /* The distance in bytes from one entry to the next: index with biki_parameter_at. */
  uint32_t element_size;
  /* How many entries; `entries` may be NULL when it is 0. */
  size_t count;
  /* Owned by Biki, valid during the call. */
  const void *entries;
} biki_parameter_list_t;

/* The parameter at `index` (< list->count), whatever size Biki's entries have. */
static inline const biki_parameter_t *biki_parameter_at(const biki_parameter_list_t *list, size_t index) {
  return (const biki_parameter_t *)((const char *)list->entries + index * list->element_size);
}

/*
 * Biki, as a plugin sees it. Provided and owned by Biki; valid until the process exits.
 */
typedef struct biki_host {
  /* sizeof(biki_host_t) as Biki was built. */
  uint32_t size;
  /* The BIKI_PLUGIN_ABI_VERSION Biki speaks. */
  uint32_t abi_version;
  /* "Biki" and its version, NUL-terminated UTF-8, for messages. */
  const char *name;
  const char *version;
  /* Biki's; the plugin leaves it alone. */
  void *host_data;
  /*
   * A service Biki offers, by id (BIKI_HOST_EXT_*): a pointer to its struct, or NULL when this
   * Biki does not offer it. Thread: any. Ownership: Biki's, valid until the process exits.
   * May be called from `init` on; not from `biki_plugin_entry`.
   */
  const void *(*get_extension)(const struct biki_host *host, const char *extension_id);
  /* Since 1.1. The BIKI_PLUGIN_ABI_MINOR Biki speaks; read it with biki_host_abi_minor, which
   * gives 0 for a 1.0 host (whose struct ends before it). */
  uint32_t abi_minor;
} biki_host_t;

/* The minor version `host` speaks: 0 for a 1.0 host. */
static inline uint32_t biki_host_abi_minor(const biki_host_t *host) {
  return BIKI_HAS_FIELD(host, biki_host_t, abi_minor) ? host->abi_minor : 0u;
}

/*
 * Host extension "biki.readings.1": Biki's reading engine, so a plugin need not spell every
 * sound change itself. A plugin that uses it gets readings Biki agrees with by construction.
 */
#define BIKI_HOST_EXT_READINGS "biki.readings.1"

typedef struct biki_host_readings {
  /* sizeof(biki_host_readings_t) as Biki was built. */
  uint32_t size;
  /*
   * Writes to `call->output` a JSON array of every accepted reading of `value` followed by
   * `counter`, standard first, in hiragana: (612, "号室") → ["ろっぴゃくじゅうにごうしつ"].
   * `counter` is a counter or unit Biki knows, by id or symbol ("hon", "本", "円"), or NULL or
   * "" for the bare number. A counter Biki does not know is read as `counter_reading` joined
   * plainly to the number (`counter_reading` may be NULL when the counter is known).
   * Returns BIKI_STATUS_OK, or BIKI_STATUS_INVALID_PARAMETER with a message in `call->error`
   * (a value Biki cannot read, an unknown counter without a reading).
   * Thread: any; calls may overlap. Ownership: the strings, `call` and its writers are the
   * plugin's (as a plugin fills one, see biki_call_t); Biki reads and writes through them during
   * this call only.
   */
  biki_status_t (*read_number)(
    const biki_host_t *host, uint64_t value, const char *counter, const char *counter_reading, const biki_call_t *call);
} biki_host_readings_t;

/*
 * Since 1.1. Host extension "biki.answers.1": answers in a shape other than a whole number. A question
 * whose display shows a decimal (39.1度), a fraction (3分の1), a time of day (16:05) or a code read
 * digit by digit (0857) is answered in that shape, which a plain "value" cannot say: the answer
 * object then carries the shape beside its value, as a JSON pack's answer does:
 *   {"value": 391, "decimals": 1}            39.1 (the value ÷ 10^decimals; 1–10 places)
 *   {"value": 1, "denominator": 3}           3分の1 (and "style": "slash" for 1/3)
 *   {"value": 965, "style": "clock"}         16:05 (minutes after midnight, 0–1439)
 *   {"value": 857, "style": "digits", "width": 4}   0857
 * Biki checks the answer against the number it reads in each display, by value and shape.
 * A host without this extension (every Biki before it) refuses any display that shows such a
 * number, whatever the answer says, so a plugin that asks these questions looks the extension
 * up in `init`, checks the shape's bit in `shapes`, and fails `init` with a message naming the
 * extension when it is missing. The struct is Biki's, valid until the process exits.
 */
#define BIKI_HOST_EXT_ANSWERS "biki.answers.1"

/* The bits of `biki_host_answers_t.shapes`. */
#define BIKI_ANSWER_SHAPE_DECIMAL 1u
#define BIKI_ANSWER_SHAPE_FRACTION 2u
#define BIKI_ANSWER_SHAPE_CLOCK 4u
#define BIKI_ANSWER_SHAPE_CODE 8u

typedef struct biki_host_answers {
  /* sizeof(biki_host_answers_t) as Biki was built. */
  uint32_t size;
  /* The shapes this Biki reads in an answer: BIKI_ANSWER_SHAPE_* or-ed together. */
  uint32_t shapes;
} biki_host_answers_t;

typedef struct biki_plugin_descriptor {
  /* sizeof(biki_plugin_descriptor_t) as the plugin was built: fields beyond it are absent. */
  uint32_t size;
  /* The BIKI_PLUGIN_ABI_VERSION the plugin was built against. */
  uint32_t abi_version;
  /* The plugin's id: lowercase letters, digits and '-'. Topic ids are "<id>.<topic>". */
  const char *id;
  /* Human-readable name and version, NUL-terminated UTF-8. */
  const char *name;
  const char *version;
  /* BIKI_PLUGIN_* flags. */
  uint32_t flags;

  /*
   * Optional (may be NULL). Called once, before any other call, on one thread, with the host
   * (which stays valid until the process exits). Set up anything the plugin needs; a failure
   * status (with a message in `call->error`) means the plugin is not used.
   */
  biki_status_t (*init)(const biki_host_t *host, const biki_call_t *call);

  /*
   * Optional (may be NULL). Called at most once, after every other call has returned, on one
   * thread, when Biki is done with the plugin. A plugin must not
   * rely on it: a worker that is stopped, or a process that exits, does not call it.
   */
  void (*deinit)(void);

  /*
   * Optional (may be NULL). A capability the plugin offers beyond v1, by id; NULL when it has
   * none by that id. Thread: any. The struct returned is the plugin's and stays valid until
   * `deinit`. No plugin extension is defined in v1.0.
   */
  const void *(*get_extension)(const char *extension_id);

  /*
   * Writes the plugin's topics as one JSON object to `call->output`, with the fields a JSON
   * pack's topic has: {"topics": [{"id", "title", "description", "category", "skills",
   * "questionCount", "parameters": [{"name", "description", "default", "min", "max"}]}]}.
   * "id" is the part after the plugin id; "questionCount" is how many distinct questions the
   * topic has with its default parameters.
   * Thread: any, serialised unless BIKI_PLUGIN_THREAD_SAFE. May be called more than once and
   * must write the same description each time. The description may depend on the library alone
   * (not on data files `init` reads): Biki keeps it between runs, keyed by the library's bytes.
   * Must not be NULL.
   */
  biki_status_t (*describe)(const biki_call_t *call);

  /*
   * Writes the question (topic_id, parameters, seed) selects, as one JSON object:
   *   {"display": "¥1,500", "kanjiDisplay": "千五百円", "spoken": "せんごひゃくえん",
   *    "readings": ["せんごひゃくえん"], "answer": {"value": 1500, "prefix": "¥", "postfix": ""}}
   * "readings" lists every accepted reading in hiragana, standard first; "spoken" is one of
   * them. The answer may add "style": "grouped" (1,500) or "plain" (2024). The question may
   * add "number": {"value": 612, "counter": "号室", "counterReading": "ごうしつ"} to declare
   * what it reads, so Biki can check the readings against its own.
   * `topic_id` is NUL-terminated UTF-8 (the part after the plugin id); `parameters` is never
   * NULL. Both are Biki's and valid only during the call. Seeds select questions modulo the
   * topic's question count.
   * Thread: as `describe`. Must not be NULL.
   */
  biki_status_t (*generate)(
    const char *topic_id, const biki_parameter_list_t *parameters, uint64_t seed, const biki_call_t *call);

  /*
   * Optional (may be NULL). How many distinct questions the topic has with these parameters,
   * written to `*count`. When NULL, every parameter setting has the "questionCount" of the
   * description. Thread: as `describe`. `count` is Biki's, written during the call only.
   */
  biki_status_t (*question_count)(
    const char *topic_id, const biki_parameter_list_t *parameters, uint64_t *count, const biki_call_t *call);

  /*
   * Since 1.1. The minor version the plugin cannot work without: Biki refuses the plugin, with
   * a message naming both versions, when it speaks an older minor. 0 (as in every descriptor
   * built against 1.0, which ends before this field) loads in every host of major 1. Give the
   * minor whose additions the plugin needs, not BIKI_PLUGIN_ABI_MINOR: a plugin that uses an
   * addition only where the host has it keeps 0. A 1.0 host never reads this field, so a
   * plugin that sets it also checks biki_host_speaks in `init`.
   */
  uint32_t abi_minor;
} biki_plugin_descriptor_t;

/* The smallest descriptor v1 accepts: everything up to and including `question_count`. */
#define BIKI_PLUGIN_DESCRIPTOR_V1_SIZE \
  (offsetof(biki_plugin_descriptor_t, question_count) + sizeof(((biki_plugin_descriptor_t *)0)->question_count))

/*
 * The entry function, exported as `biki_plugin_entry`. Biki calls it once after loading the
 * library, on one thread, with itself. Return a pointer to a descriptor that stays valid and
 * unchanged until the process exits (a `static const`), or NULL when the plugin cannot work
 * with this host (check `host->abi_version` with biki_plugin_abi_is_compatible). Must answer
 * quickly (lint allows 100 ms), must not call back into Biki (use `init` for that), and
 * `host` stays valid until the process exits.
 */
typedef const biki_plugin_descriptor_t *(*biki_plugin_entry_t)(const biki_host_t *host);

/* Whether a plugin built against `plugin_version` works in a host speaking `host_version`:
 * the majors, which must be the same. */
static inline int biki_plugin_abi_is_compatible(uint32_t plugin_version, uint32_t host_version) {
  return plugin_version == host_version;
}

/* Writes `value` in decimal through `writer`; for biki_host_speaks. */
static inline void biki_write_decimal(const biki_writer_t *writer, uint32_t value) {
  char digits[10];
  size_t count = 0;
  do {
    digits[sizeof digits - 1 - count++] = (char)('0' + value % 10u);
    value /= 10u;
  } while (value != 0u && count < sizeof digits);
  writer->write(writer, digits + sizeof digits - count, count);
}

/*
 * Since 1.1. For a plugin's `init`: whether `host` speaks at least minor version `minor` of
 * major 1. When it does not, writes to `call->error` a message naming both versions ("this
 * plugin needs Biki's plugin ABI 1.1; this Biki speaks 1.0") and gives 0; `init` then returns
 * BIKI_STATUS_INTERNAL_ERROR. Hosts of 1.1 on refuse such a plugin themselves, from its
 * descriptor's `abi_minor`, before `init`; this is how it says so to a 1.0 host.
 */
static inline int biki_host_speaks(const biki_host_t *host, uint32_t minor, const biki_call_t *call) {
  uint32_t spoken = biki_host_abi_minor(host);
  if (spoken >= minor) return 1;
  static const char needs[] = "this plugin needs Biki's plugin ABI 1.";
  static const char speaks[] = "; this Biki speaks 1.";
  call->error->write(call->error, needs, sizeof needs - 1);
  biki_write_decimal(call->error, minor);
  call->error->write(call->error, speaks, sizeof speaks - 1);
  biki_write_decimal(call->error, spoken);
  return 0;
}

#ifdef __cplusplus
}
#endif
