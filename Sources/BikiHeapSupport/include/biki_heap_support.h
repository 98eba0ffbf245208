#ifndef BIKI_HEAP_SUPPORT_H
#define BIKI_HEAP_SUPPORT_H

/// Limits glibc's malloc to `count` heaps (arenas) for the whole process; 0 when it refused.
int biki_heap_limit_arenas(int count);
/// Gives memory freed at the top of each heap back to the system.
void biki_heap_trim(void);

#endif
