/* The calendar plugin exports only biki_plugin_entry (see biki_plugin.h). */
#pragma once
