/*
 * The hot loops of the lanes experiment (generated, see tools/gen_lanes.c).
 * A kernel walks pointer chains whose nodes hold the next node's address and
 * returns a value derived from every final pointer, so no load is dead.
 */
#ifndef MLPSCOPE_KERN_LANES_H
#define MLPSCOPE_KERN_LANES_H

#include <stddef.h>
#include <stdint.h>

#define LANES_MAX 128

/* starts[0..K) are node addresses; each lane hops `steps` times. For the
 * unrolled control, only starts[0] is used and it hops K * steps times. */
typedef uintptr_t (*lanes_kernel_fn)(const uintptr_t *starts, size_t steps);

/* lanes in 1..LANES_MAX, else NULL. */
lanes_kernel_fn lanes_kernel(unsigned lanes);
lanes_kernel_fn unrolled_kernel(unsigned unroll);

#endif
