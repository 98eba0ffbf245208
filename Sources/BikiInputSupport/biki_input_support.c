#define _GNU_SOURCE
#include "biki_input_support.h"

#include <sys/uio.h>

ssize_t biki_read_if_waiting(int descriptor, void *buffer, size_t size) {
  struct iovec vector = {.iov_base = buffer, .iov_len = size};
  /* Offset -1: the descriptor's own position, as read(2) uses, so a regular file read through
   * this and through read(2) is read once, in order. */
  return preadv2(descriptor, &vector, 1, -1, RWF_NOWAIT);
}
