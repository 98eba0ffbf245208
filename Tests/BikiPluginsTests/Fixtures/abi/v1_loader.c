/*
 * A minimal host compiled against the frozen v1.0 header: it loads a plugin, checks its
 * descriptor as a v1.0 host would, calls init, describe, and generate for the first topic
 * with seed 0, and prints what the plugin wrote. A plugin built against any later header must
 * work in it.
 *
 *   cc -std=c99 -I .ci/abi/1.0 v1_loader.c -ldl -o v1-loader
 *   ./v1-loader libbiki-calendar.so
 */
#include "biki_plugin.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef struct buffer {
  char bytes[65536];
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

static const void *no_extension(const biki_host_t *host, const char *id) {
  (void)host;
  (void)id;
  return NULL;
}

static const biki_host_t host = {sizeof(biki_host_t), BIKI_PLUGIN_ABI_VERSION, "v1.0 loader", "1.0", NULL, no_extension};

static int fail(const char *what, const buffer_t *error) {
  fprintf(stderr, "v1-loader: %s%s%s\n", what, error && error->length ? ": " : "", error ? error->bytes : "");
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2) return fail("usage: v1-loader PLUGIN.so", NULL);
  void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!library) return fail(dlerror(), NULL);
  biki_plugin_entry_t entry = (biki_plugin_entry_t)dlsym(library, BIKI_PLUGIN_ENTRY_SYMBOL);
  if (!entry) return fail("no entry", NULL);
  const biki_plugin_descriptor_t *descriptor = entry(&host);
  if (!descriptor) return fail("the entry refused this host", NULL);
  if (!biki_plugin_abi_is_compatible(descriptor->abi_version, BIKI_PLUGIN_ABI_VERSION)) return fail("incompatible version", NULL);
  if (descriptor->size < BIKI_PLUGIN_DESCRIPTOR_V1_SIZE) return fail("descriptor smaller than v1.0's", NULL);

  static buffer_t output, error;
  biki_writer_t output_writer = {sizeof output_writer, &output, buffer_write};
  biki_writer_t error_writer = {sizeof error_writer, &error, buffer_write};
  biki_call_t call = {sizeof call, &output_writer, &error_writer};
  if (descriptor->init && descriptor->init(&host, &call) != BIKI_STATUS_OK) return fail("init failed", &error);
  output.length = 0;
  if (descriptor->describe(&call) != BIKI_STATUS_OK) return fail("describe failed", &error);
  printf("%s: %s\n", descriptor->id, output.bytes);

  /* The first topic's id, from {"topics": [{"id": "…" */
  char topic[128] = "";
  const char *id = strstr(output.bytes, "\"id\"");
  const char *start = id ? strchr(id + 4, '"') : NULL;
  const char *end = start ? strchr(start + 1, '"') : NULL;
  if (!end) return fail("no topic id in the description", NULL);
  snprintf(topic, sizeof topic, "%.*s", (int)(end - start - 1), start + 1);

  biki_parameter_list_t parameters = {sizeof parameters, sizeof(biki_parameter_t), 0, NULL};
  output.length = 0;
  if (descriptor->generate(topic, &parameters, 0, &call) != BIKI_STATUS_OK) return fail("generate failed", &error);
  printf("%s.%s 0: %s\n", descriptor->id, topic, output.bytes);
  if (descriptor->deinit) descriptor->deinit();
  return 0;
}
