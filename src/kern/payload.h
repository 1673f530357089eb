/*
 * The read-size kernel: K lanes of dependent loads whose every hop also
 * reads the node's payload (words 1..words-1 after the next pointer), so
 * the bytes used per access vary while the chase itself does not. The lanes
 * live in an array (one kernel for every K and payload): compare payloads
 * with each other, not with the generated lanes kernels.
 */
#ifndef MLPSCOPE_KERN_PAYLOAD_H
#define MLPSCOPE_KERN_PAYLOAD_H

#include <stddef.h>
#include <stdint.h>

/* lanes[0..k) are node addresses, advanced in place; each lane hops steps
 * times, reading words 8-byte words per node. Returns a value derived from
 * every word read, so none is dead. */
uintptr_t payload_walk(uintptr_t *lanes, unsigned k, size_t steps, unsigned words);

#endif
