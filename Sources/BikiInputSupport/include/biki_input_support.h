/*
 * biki_input_support.h — reading a descriptor only if something is already waiting there, for
 * the message loop, which skips its `poll` when the client has sent its next message already.
 * Swift's Glibc module leaves out `preadv2` (a GNU extension). Internal to Biki.
 */
#pragma once

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Reads at most `size` bytes from `descriptor` at its current position without ever waiting:
 * the count read (0 at the end of the input), or -1 with errno. EAGAIN: nothing is waiting.
 * EOPNOTSUPP, EINVAL or ENOSYS: this kernel or this kind of descriptor cannot read without
 * waiting, so the caller waits with `poll` instead, as it would without this call.
 */
ssize_t biki_read_if_waiting(int descriptor, void *buffer, size_t size);

#ifdef __cplusplus
}
#endif
