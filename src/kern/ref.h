/*
 * The plain reference for the generated lane kernels (kern/lanes.gen.c):
 * the same walk written the slow, obvious way, one lane and one hop at a
 * time. Never timed; tests hold every generated kernel to it.
 */
#ifndef MLPSCOPE_KERN_REF_H
#define MLPSCOPE_KERN_REF_H

#include <stddef.h>
#include <stdint.h>

/* What lanes_kernel(lanes) must return: the XOR of every lane's pointer
 * after steps hops from starts[0..lanes). */
uintptr_t ref_lanes(const uintptr_t *starts, unsigned lanes, size_t steps);

/* What unrolled_kernel(unroll) must return: starts[0] after unroll * steps
 * hops. */
uintptr_t ref_unrolled(const uintptr_t *starts, unsigned unroll, size_t steps);

/* The nodes one chain visits: visited[0] = start, visited[i] = the node
 * after i hops, for i in 0..hops. */
void ref_walk(uintptr_t start, size_t hops, uintptr_t *visited);

#endif
