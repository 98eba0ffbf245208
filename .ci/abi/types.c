/* Every type of the plugin ABI as a parameter of one exported function, so the debug
 * information libabigail reads (abidw) describes each of them. Built only by .ci/abi-check. */
#include "biki_plugin.h"

void biki_abi_types(
  biki_host_t *host, biki_host_readings_t *readings, biki_writer_t *writer, biki_call_t *call, biki_parameter_t *parameter,
  biki_parameter_list_t *parameters, biki_plugin_descriptor_t *descriptor, biki_plugin_entry_t entry, biki_status_t status);

void biki_abi_types(
  biki_host_t *host, biki_host_readings_t *readings, biki_writer_t *writer, biki_call_t *call, biki_parameter_t *parameter,
  biki_parameter_list_t *parameters, biki_plugin_descriptor_t *descriptor, biki_plugin_entry_t entry, biki_status_t status) {
  (void)host, (void)readings, (void)writer, (void)call, (void)parameter, (void)parameters, (void)descriptor, (void)entry, (void)status;
}
