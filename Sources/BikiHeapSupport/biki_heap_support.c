// glibc's malloc tuning, which Swift's Glibc module does not bring in (malloc.h).
#include "biki_heap_support.h"

#include <malloc.h>

int biki_heap_limit_arenas(int count) { return mallopt(M_ARENA_MAX, count); }

void biki_heap_trim(void) { malloc_trim(0); }
