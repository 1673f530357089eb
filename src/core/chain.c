/*
 * Sattolo cycles, chain building and the layout check. Node addresses are
 * absolute pointers, so the hot loop is `p = *p` with no index arithmetic in
 * the dependency (an index chain adds a shift and an add to every hop). The
 * permutation lives in a temporary 32-bit array: 2^32 nodes is 256 GiB at
 * 64-byte spacing, beyond any working set this tool allocates.
 */
#include "core/chain.h"

#include "core/rng.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void perm_sattolo(uint32_t *succ, size_t n, struct rng *r)
{
	for (size_t i = 0; i < n; i++)
		succ[i] = (uint32_t)i;
	/* j < i, never j == i: that exclusion is what makes one single cycle
	 * (Fisher-Yates with j <= i gives any permutation, fixed points too). */
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)rng_below(r, i);
		uint32_t t = succ[i];

		succ[i] = succ[j];
		succ[j] = t;
	}
}

size_t perm_cycle_length(const uint32_t *succ, size_t n)
{
	size_t len = 0, x = 0;

	do {
		x = succ[x];
		len++;
	} while (x != 0 && len <= n);
	return len;
}

uint64_t perm_hash(const uint32_t *succ, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++) {
		uint32_t v = succ[i];

		for (int b = 0; b < 4; b++) {
			h ^= (v >> (8 * b)) & 0xff;
			h *= 0x100000001b3ull;
		}
	}
	return h;
}

size_t chain_offset_linear(size_t node, size_t spacing_bytes)
{
	return node * spacing_bytes;
}

int chain_build(struct chain *c, char *base, size_t bytes, size_t spacing_bytes,
		size_t line_bytes, uint64_t seed, chain_offset_fn offset)
{
	size_t n = bytes / spacing_bytes;
	struct rng r;
	uint32_t *succ;

	memset(c, 0, sizeof(*c));
	if (n < 2 || n > UINT32_MAX || spacing_bytes < sizeof(uintptr_t))
		return -EINVAL;
	succ = malloc(n * sizeof(*succ));
	if (!succ)
		return -ENOMEM;
	rng_seed(&r, seed);
	perm_sattolo(succ, n, &r);
	for (size_t i = 0; i < n; i++)
		*(uintptr_t *)(base + offset(i, spacing_bytes)) =
			(uintptr_t)(base + offset(succ[i], spacing_bytes));
	c->base = base;
	c->nodes = n;
	c->spacing_bytes = spacing_bytes;
	c->line_bytes = line_bytes;
	c->seed = seed;
	c->perm_hash = perm_hash(succ, n);
	free(succ);
	return 0;
}

int chain_build_sequential(struct chain *c, char *base, size_t bytes, size_t spacing_bytes,
			   size_t line_bytes)
{
	size_t n = bytes / spacing_bytes;
	uint64_t h = 0xcbf29ce484222325ull;

	memset(c, 0, sizeof(*c));
	if (n < 2 || n > UINT32_MAX || spacing_bytes < sizeof(uintptr_t))
		return -EINVAL;
	/* Written in ascending order, so building costs a sequential sweep
	 * rather than n random stores. */
	for (size_t i = 0; i < n; i++) {
		uint32_t next = (uint32_t)(i + 1 == n ? 0 : i + 1);

		*(uintptr_t *)(base + i * spacing_bytes) = (uintptr_t)(base + (size_t)next * spacing_bytes);
		for (int b = 0; b < 4; b++) {
			h ^= (next >> (8 * b)) & 0xff;
			h *= 0x100000001b3ull;
		}
	}
	c->base = base;
	c->nodes = n;
	c->spacing_bytes = spacing_bytes;
	c->line_bytes = line_bytes;
	c->perm_hash = h;
	return 0;
}

void chain_set_payload(struct chain *c, size_t payload_bytes, size_t lines_per_node)
{
	c->payload_bytes = payload_bytes;
	c->claimed_lines_per_node = lines_per_node ? lines_per_node
		: (payload_bytes + c->line_bytes - 1) / c->line_bytes;
}

static bool bit_test_and_set(uint64_t *bits, size_t i)
{
	uint64_t m = 1ull << (i & 63);
	bool was = bits[i >> 6] & m;

	bits[i >> 6] |= m;
	return was;
}

int chain_verify(struct chain *c, struct layout_check *check)
{
	size_t n = c->nodes, span = n * c->spacing_bytes;
	/* a payload may reach past the last node's slot */
	size_t lines_cap = (span + c->payload_bytes) / c->line_bytes + 2;
	uint64_t *node_bits = calloc(n / 64 + 1, sizeof(uint64_t));
	uint64_t *line_bits = calloc(lines_cap / 64 + 1, sizeof(uint64_t));
	uint32_t *order = malloc(n * sizeof(*order));
	uintptr_t start = (uintptr_t)c->base, p = start;
	/* Lines are counted on real addresses: a chain built at an offset into
	 * a line (to make payloads cross a boundary) still has its lines where
	 * the hardware has them. */
	uintptr_t line0 = start & ~(uintptr_t)(c->line_bytes - 1);
	int rc = -ENOMEM;

	memset(check, 0, sizeof(*check));
	if (!node_bits || !line_bits || !order)
		goto out;
	check->nodes = n;
	check->expected_lines = c->spacing_bytes >= c->line_bytes
		? n : (span + c->line_bytes - 1) / c->line_bytes;
	if (c->payload_bytes && c->spacing_bytes >= c->line_bytes)
		check->expected_lines = n * c->claimed_lines_per_node;
	/* Walk at most n steps: a broken layout may close early, run into a
	 * shorter cycle that never returns, or leave the arena. */
	for (size_t step = 0; step < n; step++) {
		size_t off = p - start;

		if (p < start || off >= span)
			break;
		order[step] = (uint32_t)(off / c->spacing_bytes);
		if (!bit_test_and_set(node_bits, off / c->spacing_bytes))
			check->distinct_nodes_walked++;
		size_t loff = p - line0;

		if (!c->payload_bytes) {
			if (!bit_test_and_set(line_bits, loff / c->line_bytes))
				check->distinct_lines_walked++;
		} else {
			/* every line the payload [p, p + payload) touches */
			for (size_t l = loff / c->line_bytes; l <= (loff + c->payload_bytes - 1) / c->line_bytes; l++)
				if (!bit_test_and_set(line_bits, l))
					check->distinct_lines_walked++;
		}
		check->steps_walked++;
		p = *(const uintptr_t *)p;
		if (p == start) {
			check->closed = true;
			break;
		}
	}
	check->ok = check->closed && check->steps_walked == n &&
		    check->distinct_nodes_walked == n &&
		    check->distinct_lines_walked == check->expected_lines;
	free(c->order);
	c->order = order;
	order = NULL;
	rc = 0;
out:
	free(node_bits);
	free(line_bits);
	free(order);
	return rc;
}

int chain_build_verified(struct chain *c, char *base, size_t bytes, size_t spacing_bytes,
			 size_t line_bytes, uint64_t seed, chain_offset_fn offset,
			 struct layout_check *check)
{
	int rc;

	if ((rc = chain_build(c, base, bytes, spacing_bytes, line_bytes, seed, offset)))
		return rc;
	if ((rc = chain_verify(c, check)))
		return rc;
	return check->ok ? 0 : -EPROTO;
}

uintptr_t chain_node_at(const struct chain *c, size_t pos)
{
	return (uintptr_t)c->base + (uintptr_t)c->order[pos % c->nodes] * c->spacing_bytes;
}

void chain_free(struct chain *c)
{
	free(c->order);
	c->order = NULL;
}
