/*
 * The generated lane kernels (kern/lanes.gen.c, 27k lines) against the plain
 * reference (kern/ref.c) on a small random cycle: every lanes_K and
 * unrolled_K visits the same nodes in the same order. A kernel returns only
 * the XOR of its final pointers, so each lane is checked alone (the others
 * parked on a node that points to itself) after every step count, and the
 * unrolled control from every node of the cycle.
 */
#include "../harness.h"

#include "core/chain.h"
#include "kern/lanes.h"
#include "kern/ref.h"
#include "util/rng.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define NODES 61          /* a prime: no unroll divides the cycle */
#define MAX_STEPS 6

struct small_chain {
	uintptr_t node[NODES];
	uintptr_t park;       /* points to itself */
};

static void build(struct small_chain *c, uint64_t seed)
{
	uint32_t succ[NODES];
	struct rng r;

	rng_seed(&r, seed);
	perm_sattolo(succ, NODES, &r);
	for (size_t i = 0; i < NODES; i++)
		c->node[i] = (uintptr_t)&c->node[succ[i]];
	c->park = (uintptr_t)&c->park;
}

/* NULL, or why fn (a K-lane kernel) disagrees with the reference. */
static const char *lanes_disagree(lanes_kernel_fn fn, unsigned k, struct small_chain *c)
{
	static char why[160];
	uintptr_t starts[LANES_MAX], visited[MAX_STEPS + 1];

	/* All lanes at once, spread over the cycle: the value measured runs return. */
	for (unsigned l = 0; l < k; l++)
		starts[l] = c->node[(l * 7) % NODES];
	for (size_t s = 0; s <= MAX_STEPS; s++)
		if (fn(starts, s) != ref_lanes(starts, k, s)) {
			snprintf(why, sizeof(why), "all lanes, %zu steps: the XOR differs", s);
			return why;
		}
	/* Lane by lane: lane l walks, the rest sit on the parking node, so
	 * the result is lane l's node XOR parking nodes. */
	for (unsigned l = 0; l < k; l++) {
		uintptr_t parked = (k - 1) % 2 ? c->park : 0;

		for (unsigned m = 0; m < k; m++)
			starts[m] = m == l ? c->node[(l * 13) % NODES] : c->park;
		ref_walk(starts[l], MAX_STEPS, visited);
		for (size_t s = 0; s <= MAX_STEPS; s++)
			if ((fn(starts, s) ^ parked) != visited[s]) {
				snprintf(why, sizeof(why), "lane %u after %zu steps is not the reference's node", l, s);
				return why;
			}
	}
	return NULL;
}

/* NULL, or why fn (the control unrolled u times) disagrees. */
static const char *unrolled_disagree(lanes_kernel_fn fn, unsigned u, struct small_chain *c)
{
	static char why[160];
	static uintptr_t visited[LANES_MAX * MAX_STEPS + 1];

	for (size_t i = 0; i < NODES; i++) {
		uintptr_t start = c->node[i];

		ref_walk(start, (size_t)u * MAX_STEPS, visited);
		for (size_t s = 0; s <= MAX_STEPS; s++)
			if (fn(&start, s) != visited[(size_t)u * s] || fn(&start, s) != ref_unrolled(&start, u, s)) {
				snprintf(why, sizeof(why), "from node %zu, %zu steps: not the reference's node", i, s);
				return why;
			}
	}
	return NULL;
}

TEST(kernels_visit_the_reference_nodes_in_order)
{
	static struct small_chain c;

	build(&c, 5);
	for (unsigned k = 1; k <= LANES_MAX; k++) {
		const char *why;

		CHECK(lanes_kernel(k) && unrolled_kernel(k), "no kernel for %u", k);
		if (!lanes_kernel(k) || !unrolled_kernel(k))
			continue;
		why = lanes_disagree(lanes_kernel(k), k, &c);
		CHECK(!why, "lanes_%u: %s", k, why);
		why = unrolled_disagree(unrolled_kernel(k), k, &c);
		CHECK(!why, "unrolled_%u: %s", k, why);
	}
	CHECK(!lanes_kernel(0) && !lanes_kernel(LANES_MAX + 1), "kernels outside 1..LANES_MAX");
}

/* Kernels broken the ways a generator can break them. */
static uintptr_t lanes_2_second_lane_from_first(const uintptr_t *starts, size_t steps)
{
	uintptr_t p0 = starts[0], p1 = starts[0];

	for (; steps; steps--) {
		p0 = *(const uintptr_t *)p0;
		p1 = *(const uintptr_t *)p1;
	}
	return p0 ^ p1;
}

static uintptr_t lanes_3_one_lane_hops_twice(const uintptr_t *starts, size_t steps)
{
	uintptr_t p0 = starts[0], p1 = starts[1], p2 = starts[2];

	for (; steps; steps--) {
		p0 = *(const uintptr_t *)p0;
		p1 = *(const uintptr_t *)p1;
		p2 = *(const uintptr_t *)p2;
		p2 = *(const uintptr_t *)p2;
	}
	return p0 ^ p1 ^ p2;
}

static uintptr_t unrolled_4_one_hop_short(const uintptr_t *starts, size_t steps)
{
	uintptr_t p = starts[0];

	for (; steps; steps--) {
		p = *(const uintptr_t *)p;
		p = *(const uintptr_t *)p;
		p = *(const uintptr_t *)p;
	}
	return p;
}

TEST(kernel_check_catches_broken_kernels)
{
	static struct small_chain c;

	build(&c, 5);
	CHECK(lanes_disagree(lanes_2_second_lane_from_first, 2, &c), "a lane started from the wrong node passed");
	CHECK(lanes_disagree(lanes_3_one_lane_hops_twice, 3, &c), "a lane hopping twice passed");
	CHECK(unrolled_disagree(unrolled_4_one_hop_short, 4, &c), "an unroll one hop short passed");
	CHECK(!lanes_disagree(lanes_kernel(3), 3, &c), "the real kernel failed its own check");
}
