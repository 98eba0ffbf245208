/*
 * biki_plugin.h — the stable C ABI between Biki and native topic plugins.
 *
 * A plugin is a shared library that exports exactly one symbol, `biki_plugin_entry`. Biki calls
 * it with the ABI version it speaks; the plugin answers with a pointer to a constant descriptor,
 * or NULL to refuse. Everything else goes through the descriptor's function pointers.
 *
 * Rules (and why):
 *  - Only C types cross the boundary: integers, UTF-8 `const char *`, structs of function
 *    pointers. No C++ exceptions, no longjmp across a call, no language runtime objects.
 *  - Ownership is one-sided: the plugin never returns memory for Biki to free. It writes its
 *    output through a `biki_writer_t` that Biki provides, so each side frees only what it
 *    allocated.
 *  - Output is a pure function of (topic id, parameters, seed): no clocks, no global random
 *    state, no files. `biki-pack lint` replays seeds, in the same and a fresh process, to check.
 *  - Every call returns a `biki_status_t`; on failure the plugin writes a human-readable
 *    message (UTF-8) through the writer instead of the output.
 *  - Structs begin with their size and ABI version, and later versions only append fields, so
 *    a plugin built against version N keeps loading in hosts that speak N or later.
 *
 * Biki validates everything a plugin writes exactly as strictly as a JSON pack: malformed JSON,
 * invalid UTF-8, missing fields, readings that are not kana, or answers that disagree with the
 * display are errors reported against the plugin, and the rest of Biki keeps serving.
 *
 * See docs/plugin-abi.md for how to write, build, install and lint a plugin.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI version this header describes. Hosts pass their version to the entry function. */
#define BIKI_PLUGIN_ABI_VERSION 1u

/* The one symbol a plugin exports. */
#define BIKI_PLUGIN_ENTRY_SYMBOL "biki_plugin_entry"

/* Marks the entry function as exported even when the library hides everything else. */
#if defined(__GNUC__) || defined(__clang__)
#define BIKI_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define BIKI_PLUGIN_EXPORT
#endif

/* Status codes. Any value not listed is treated as BIKI_STATUS_INTERNAL_ERROR. */
typedef int32_t biki_status_t;
enum {
  /* The call succeeded and its output was written. */
  BIKI_STATUS_OK = 0,
  /* The topic id names no topic of this plugin (ids are compared byte for byte). */
  BIKI_STATUS_UNKNOWN_TOPIC = 1,
  /* A parameter is unknown to the topic, or its value is outside the declared bounds. */
  BIKI_STATUS_INVALID_PARAMETER = 2,
  /* The question could not be generated for this seed. */
  BIKI_STATUS_GENERATION_FAILED = 3,
  /* Anything else; the message says what. */
  BIKI_STATUS_INTERNAL_ERROR = 4,
};

/* Descriptor flags. */
enum {
  /* `generate` and `describe` may be called from several threads at once. Without this flag
   * Biki never makes two calls into the plugin at the same time. */
  BIKI_PLUGIN_THREAD_SAFE = 1u << 0,
};

/*
 * Where a call writes its output (or, on failure, its error message): UTF-8 bytes, appended
 * in order, not NUL-terminated. Provided by Biki, owned by Biki.
 */
typedef struct biki_writer {
  /* Opaque to the plugin; pass it back to `write`. */
  void *context;
  /*
   * Appends `length` bytes. May be called any number of times during the call that received
   * this writer, and never after that call returns. `bytes` is only read during the call;
   * the plugin keeps ownership of it. Returns 0 when the bytes were taken, non-zero when Biki
   * refuses more (the output exceeded Biki's limit); the plugin should then stop and return.
   */
  int32_t (*write)(void *context, const char *bytes, size_t length);
} biki_writer_t;

/* One topic parameter set by a session: a name declared by the topic and an integer value. */
typedef struct biki_parameter {
  /* NUL-terminated UTF-8, owned by Biki, valid for the duration of the call. */
  const char *name;
  int64_t value;
} biki_parameter_t;

typedef struct biki_plugin_descriptor {
  /* sizeof(biki_plugin_descriptor_t) as compiled into the plugin; fields beyond it are absent. */
  uint32_t size;
  /* The BIKI_PLUGIN_ABI_VERSION the plugin was built against. */
  uint32_t abi_version;
  /* The plugin's id: lowercase letters, digits and '-'. Topic ids are "<id>.<topic>". */
  const char *id;
  /* Human-readable name and version, UTF-8. */
  const char *name;
  const char *version;
  /* BIKI_PLUGIN_* flags. */
  uint32_t flags;

  /*
   * Writes the plugin's topics as one JSON object, with the same fields a JSON pack's topic
   * has: {"topics": [{"id", "title", "description", "category", "skills", "questionCount",
   * "parameters": [{"name", "description", "default", "min", "max"}]}]}. "id" is the part
   * after the plugin id. "questionCount" is the size of the topic's question space.
   *
   * Thread: any (serialised unless BIKI_PLUGIN_THREAD_SAFE). May be called more than once and
   * must write the same description each time. Must not be NULL.
   */
  biki_status_t (*describe)(const biki_writer_t *out);

  /*
   * Writes the question that (topic_id, parameters, seed) selects, as one JSON object:
   * {"display": "¥1,500", "kanjiDisplay": "千五百円", "spoken": "せんごひゃくえん",
   *  "readings": ["せんごひゃくえん"], "answer": {"value": 1500, "prefix": "¥", "postfix": ""}}.
   * "readings" lists every accepted kana reading, standard first; "spoken" is the standard one.
   * The answer may add "style": "grouped" (1,500) or "plain" (2024); years (postfix 年)
   * default to plain, everything else to grouped.
   *
   * `topic_id` is NUL-terminated UTF-8 (the part after the plugin id). `parameters` holds
   * `parameter_count` entries (it may be NULL when the count is 0); parameters not given take
   * their defaults. All of it is owned by Biki and valid only during the call.
   *
   * The output must depend on nothing but the arguments. Thread: as `describe`. Must not be NULL.
   */
  biki_status_t (*generate)(
    const char *topic_id, const biki_parameter_t *parameters, size_t parameter_count, uint64_t seed,
    const biki_writer_t *out);
} biki_plugin_descriptor_t;

/*
 * The entry function, exported as `biki_plugin_entry`. Biki calls it once after loading the
 * library, on one thread, with the ABI version it speaks. Return a pointer to a descriptor
 * that stays valid and unchanged until the process exits (a `static const`), or NULL when the
 * plugin cannot work with that version. Must answer quickly (lint allows 100 ms) and must not
 * call back into Biki.
 */
typedef const biki_plugin_descriptor_t *(*biki_plugin_entry_t)(uint32_t host_abi_version);

/* Whether a descriptor built against `plugin_version` can be used by a host speaking `host_version`. */
static inline int biki_plugin_abi_is_compatible(uint32_t plugin_version, uint32_t host_version) {
  return plugin_version >= 1u && plugin_version <= host_version;
}

#ifdef __cplusplus
}
#endif
