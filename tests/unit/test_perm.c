/* Permutations, chains and the layout check. */
#include "../harness.h"

#include "core/chain.h"
#include "util/rng.h"

#include <stdlib.h>
#include <string.h>

TEST(sattolo_is_one_full_cycle_over_many_seeds)
{
	static const size_t sizes[] = {2, 3, 4, 7, 64, 1000, 65537};
	uint32_t *succ = malloc(65537 * sizeof(*succ));

	CHECK(succ, "out of memory");
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
		for (uint64_t seed = 0; seed < 200; seed++) {
			struct rng r;
			size_t len;

			rng_seed(&r, seed);
			perm_sattolo(succ, sizes[s], &r);
			len = perm_cycle_length(succ, sizes[s]);
			if (len != sizes[s]) {
				free(succ);
				CHECK(len == sizes[s], "n=%zu seed=%llu: cycle of %zu", sizes[s],
				      (unsigned long long)seed, len);
			}
		}
	free(succ);
}

TEST(cycle_length_sees_a_permutation_that_is_not_one_cycle)
{
	uint32_t two_cycles[4] = {1, 0, 3, 2};

	CHECK(perm_cycle_length(two_cycles, 4) == 2, "two 2-cycles read as %zu",
	      perm_cycle_length(two_cycles, 4));
}

TEST(rng_is_the_same_sequence_everywhere)
{
	struct rng r;

	rng_seed(&r, 1);
	/* Fixed values: a change here changes every recorded permutation. */
	uint64_t first = rng_next(&r);

	rng_seed(&r, 1);
	CHECK(rng_next(&r) == first, "reseeding does not replay");
	CHECK(first == 0xb3f2af6d0fc710c5ull, "xoshiro256** seed 1 gave %016llx", (unsigned long long)first);
	for (int i = 0; i < 10000; i++)
		CHECK(rng_below(&r, 7) < 7, "rng_below out of range");
}

/* The bug this guards: a stray factor in the offset made line 32 land on
 * line 64's address, so a "big" working set touched a fraction of itself. */
static size_t colliding_offset(size_t node, size_t spacing)
{
	return node * spacing + spacing * (node % 64);
}

static void build_and_check(size_t nodes, chain_offset_fn fn, struct layout_check *check, int *rc)
{
	size_t bytes = nodes * 64;
	char *base = aligned_alloc(4096, bytes + 64 * 64 + 4096);
	struct chain c;

	*rc = -1;
	if (!base)
		return;
	memset(base, 0, bytes + 64 * 64 + 4096);
	if (chain_build(&c, base, bytes, 64, 64, 42, fn) == 0)
		*rc = chain_verify(&c, check);
	chain_free(&c);
	free(base);
}

TEST(layout_check_passes_a_linear_layout)
{
	struct layout_check check;
	int rc;

	build_and_check(4096, chain_offset_linear, &check, &rc);
	CHECK(rc == 0, "verify failed to run");
	CHECK(check.ok, "walked %zu steps, %zu nodes, %zu lines", check.steps_walked,
	      check.distinct_nodes_walked, check.distinct_lines_walked);
	CHECK(check.distinct_lines_walked == 4096, "%zu lines", check.distinct_lines_walked);
}

TEST(layout_check_fires_on_a_colliding_layout)
{
	struct layout_check check;
	int rc;

	build_and_check(4096, colliding_offset, &check, &rc);
	CHECK(rc == 0, "verify failed to run");
	CHECK(!check.ok, "a colliding layout passed: %zu lines walked", check.distinct_lines_walked);
	CHECK(check.distinct_lines_walked < 4096, "walked %zu distinct lines of 4096",
	      check.distinct_lines_walked);
	snprintf(tctx->message, sizeof(tctx->message), "fired: walked %zu steps, %zu distinct lines of 4096",
		 check.steps_walked, check.distinct_lines_walked);
}

/* Past a few thousand nodes the check walks the cycle in segments at once
 * (many misses in flight); what it counts must be the serial walk's. */
TEST(layout_check_in_segments_passes_a_large_linear_layout_and_keeps_the_order)
{
	size_t nodes = 1 << 17, bytes = nodes * 64;
	char *base = aligned_alloc(4096, bytes);
	struct chain c;
	struct layout_check check;
	size_t bad = nodes;

	CHECK(base, "out of memory");
	CHECK(chain_build(&c, base, bytes, 64, 64, 11, chain_offset_linear) == 0, "build");
	CHECK(chain_verify(&c, &check) == 0, "verify failed to run");
	CHECK(check.ok && check.closed && check.steps_walked == nodes && check.distinct_nodes_walked == nodes &&
	      check.distinct_lines_walked == nodes, "walked %zu steps, %zu nodes, %zu lines", check.steps_walked,
	      check.distinct_nodes_walked, check.distinct_lines_walked);
	CHECK(c.order[0] == 0, "the order starts at node %u, not node 0", c.order[0]);
	for (size_t pos = 0; pos < nodes && bad == nodes; pos++)
		if (*(uintptr_t *)chain_node_at(&c, pos) != chain_node_at(&c, pos + 1))
			bad = pos;
	chain_free(&c);
	free(base);
	CHECK(bad == nodes, "position %zu does not link to the next", bad);
}

TEST(layout_check_in_segments_fires_on_a_large_colliding_layout)
{
	struct layout_check check;
	int rc;

	build_and_check(1 << 16, colliding_offset, &check, &rc);
	CHECK(rc == 0, "verify failed to run");
	CHECK(!check.ok && check.distinct_lines_walked < (1 << 16), "a colliding layout passed: %zu lines walked",
	      check.distinct_lines_walked);
}

/* Two cycles of half the nodes each, or a walk that runs into its own
 * tail: the segments cannot chain through node 0 over every node, and the
 * counts are the serial walk's (half the nodes, closed; n steps, open). */
TEST(layout_check_in_segments_fires_on_two_cycles_and_on_a_tail)
{
	size_t n = 1 << 16, half = n / 2;
	uintptr_t *v = malloc(n * sizeof(*v));
	struct chain c = {0};
	struct layout_check check;

	CHECK(v, "out of memory");
	for (size_t i = 0; i < n; i++)
		v[i] = (uintptr_t)&v[i % half == half - 1 ? i - (half - 1) : i + 1];
	c = (struct chain){.base = (char *)v, .nodes = n, .spacing_bytes = 8, .line_bytes = 64};
	CHECK(chain_verify(&c, &check) == 0, "verify failed to run");
	CHECK(!check.ok && check.closed && check.steps_walked == half && check.distinct_nodes_walked == half,
	      "two cycles: ok %d closed %d, %zu steps, %zu nodes", check.ok, check.closed, check.steps_walked,
	      check.distinct_nodes_walked);
	chain_free(&c);
	for (size_t i = 0; i < n; i++)
		v[i] = (uintptr_t)&v[i + 1 == n ? half : i + 1];
	CHECK(chain_verify(&c, &check) == 0, "verify failed to run");
	CHECK(!check.ok && !check.closed && check.steps_walked == n &&
	      check.distinct_nodes_walked == n, "a tail: ok %d closed %d, %zu steps, %zu nodes", check.ok,
	      check.closed, check.steps_walked, check.distinct_nodes_walked);
	chain_free(&c);
	free(v);
}

TEST(chain_positions_follow_the_cycle)
{
	size_t nodes = 1024, bytes = nodes * 64;
	char *base = aligned_alloc(4096, bytes);
	struct chain c;
	struct layout_check check;

	CHECK(base, "out of memory");
	CHECK(chain_build(&c, base, bytes, 64, 64, 7, chain_offset_linear) == 0, "build");
	CHECK(chain_verify(&c, &check) == 0 && check.ok, "verify");
	for (size_t pos = 0; pos < nodes + 5; pos++) {
		uintptr_t here = chain_node_at(&c, pos), next = chain_node_at(&c, pos + 1);

		if (*(uintptr_t *)here != next) {
			chain_free(&c);
			free(base);
			CHECK(0, "position %zu does not link to position %zu", pos, pos + 1);
		}
	}
	chain_free(&c);
	free(base);
}

/* shift 32: every node 32 bytes into its 128-byte slot, so a 64-byte
 * payload from there crosses a line boundary. */
static int payload_check(size_t shift, size_t payload, size_t claimed, struct layout_check *check)
{
	size_t nodes = 2048, bytes = nodes * 128;
	char *base = aligned_alloc(4096, bytes + 4096);
	struct chain c;
	int rc = -1;

	if (!base)
		return -1;
	memset(base, 0, bytes + 4096);
	if (chain_build(&c, base + shift, bytes, 128, 64, 7, chain_offset_linear) == 0) {
		chain_set_payload(&c, payload, claimed);
		rc = chain_verify(&c, check);
	}
	chain_free(&c);
	free(base);
	return rc;
}

TEST(layout_check_counts_the_lines_a_payload_touches)
{
	struct layout_check check;

	/* aligned 64-byte payloads: one line per node, as claimed by default */
	CHECK(payload_check(0, 64, 0, &check) == 0, "verify");
	CHECK(check.ok && check.distinct_lines_walked == 2048, "aligned: ok %d, %zu lines", check.ok,
	      check.distinct_lines_walked);
	/* 128-byte payloads span two lines: claimed by default (ceil) */
	CHECK(payload_check(0, 128, 0, &check) == 0, "verify");
	CHECK(check.ok && check.distinct_lines_walked == 4096, "two lines: ok %d, %zu", check.ok,
	      check.distinct_lines_walked);
	/* the same 64 bytes 32 bytes into the slot cross a boundary: with the
	 * aligned claim the line count catches it */
	CHECK(payload_check(32, 64, 0, &check) == 0, "verify");
	CHECK(!check.ok && check.distinct_lines_walked == 4096 && check.expected_lines == 2048,
	      "a line-crossing payload passed: ok %d, %zu lines, %zu expected", check.ok,
	      check.distinct_lines_walked, check.expected_lines);
	/* declared as crossing, it passes */
	CHECK(payload_check(32, 64, 2, &check) == 0, "verify");
	CHECK(check.ok, "a declared crossing failed: %zu lines", check.distinct_lines_walked);
	snprintf(tctx->message, sizeof(tctx->message), "fired: %zu lines walked, 2048 claimed",
		 (size_t)4096);
}
