// The ABI is the header; this file exists because a C target needs a source.
#include "biki_plugin.h"
