/* Every type of the plugin ABI as a parameter of one exported function, so the debug
 * information libabigail reads (abidw) describes each of them. Built only by .ci/abi-check.
 * Types added after v1.0 are parameters only where the header checked has them (the tests
 * check synthetic headers too). */
#include "biki_plugin.h"

#ifdef BIKI_HOST_EXT_ANSWERS
#define BIKI_ABI_ADDED_TYPES , biki_host_answers_t *answers
#define BIKI_ABI_USE_ADDED (void)answers
#else
#define BIKI_ABI_ADDED_TYPES
#define BIKI_ABI_USE_ADDED (void)0
#endif

void biki_abi_types(
  biki_host_t *host, biki_host_readings_t *readings, biki_writer_t *writer, biki_call_t *call, biki_parameter_t *parameter,
  biki_parameter_list_t *parameters, biki_plugin_descriptor_t *descriptor, biki_plugin_entry_t entry, biki_status_t status
  BIKI_ABI_ADDED_TYPES);

void biki_abi_types(
  biki_host_t *host, biki_host_readings_t *readings, biki_writer_t *writer, biki_call_t *call, biki_parameter_t *parameter,
  biki_parameter_list_t *parameters, biki_plugin_descriptor_t *descriptor, biki_plugin_entry_t entry, biki_status_t status
  BIKI_ABI_ADDED_TYPES) {
  (void)host, (void)readings, (void)writer, (void)call, (void)parameter, (void)parameters, (void)descriptor, (void)entry, (void)status;
  BIKI_ABI_USE_ADDED;
}
