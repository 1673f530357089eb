/*
 * Sattolo cycles, chain building and the layout check. Node addresses are
 * absolute pointers, so the hot loop is `p = *p` with no index arithmetic in
 * the dependency (an index chain adds a shift and an add to every hop). The
 * permutation lives in a temporary 32-bit array: 2^32 nodes is 256 GiB at
 * 64-byte spacing, beyond any working set this tool allocates.
 */
#include "core/chain.h"

#include "util/rng.h"

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

/* Lines the node at byte loff from the first line touches, not counted
 * before: the pointer's line, or every line its payload reads. */
static size_t count_lines(const struct chain *c, uint64_t *line_bits, size_t loff)
{
	size_t fresh = 0, last;

	if (!c->payload_bytes)
		return !bit_test_and_set(line_bits, loff / c->line_bytes);
	last = (loff + c->payload_bytes - 1) / c->line_bytes;
	for (size_t l = loff / c->line_bytes; l <= last; l++)
		fresh += !bit_test_and_set(line_bits, l);
	return fresh;
}

/* The walk from node 0 as the hardware does it, one dependent load at a
 * time: the check's reference, and its answer for any chain the parallel
 * walk below cannot prove whole. Bits and *check start zeroed. */
static void walk_serial(const struct chain *c, struct layout_check *check, uint64_t *node_bits,
			uint64_t *line_bits, uint32_t *order)
{
	size_t n = c->nodes, span = n * c->spacing_bytes;
	uintptr_t start = (uintptr_t)c->base, p = start;
	/* Lines are counted on real addresses: a chain built at an offset into
	 * a line (to make payloads cross a boundary) still has its lines where
	 * the hardware has them. */
	uintptr_t line0 = start & ~(uintptr_t)(c->line_bytes - 1);

	/* Walk at most n steps: a broken layout may close early, run into a
	 * shorter cycle that never returns, or leave the arena. */
	for (size_t step = 0; step < n; step++) {
		size_t off = p - start;

		if (p < start || off >= span)
			break;
		order[step] = (uint32_t)(off / c->spacing_bytes);
		if (!bit_test_and_set(node_bits, off / c->spacing_bytes))
			check->distinct_nodes_walked++;
		check->distinct_lines_walked += count_lines(c, line_bits, p - line0);
		check->steps_walked++;
		p = *(const uintptr_t *)p;
		if (p == start) {
			check->closed = true;
			break;
		}
	}
}

/* ---- the same check with many walks in flight ----
 * One dependent walk of a chain past the caches costs a miss per node (0.75
 * s for 4 Mi nodes at 180 ns, 1.4 s on small pages): most of a sweep's setup.
 * The cycle is cut at VERIFY_WALKERS nodes spread over the arena; each
 * segment, from one cut to the next cut it meets, is walked at once with
 * the others, so a core keeps that many misses in flight. Every segment
 * node must be new (its node bit clear) and in the span; the segments must
 * chain from node 0 through every cut back to node 0 and hold n nodes in
 * all. Then the walk from node 0 follows exactly these segments, so the
 * counts are the serial walk's own. Anything else (a colliding or broken
 * layout, a cut off the cycle) is left to the serial walk, which counts it
 * as the check always has. */
#define VERIFY_WALKERS 64
/* Under this many nodes the chain is in the caches and a serial walk cheap. */
#define VERIFY_PARALLEL_MIN_NODES ((size_t)VERIFY_WALKERS * 256)

#define VERIFY_STREAM_PEEK 64

struct segment {
	uintptr_t cut;         /* its first node */
	uintptr_t at;          /* the node last walked */
	uint32_t *nodes;       /* node indices in walk order */
	size_t len, cap;
	unsigned next;         /* the cut it ran into */
	bool done;
};

static bool segment_push(struct segment *g, uint32_t node)
{
	if (g->len == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 1024;
		uint32_t *v = realloc(g->nodes, cap * sizeof(*v));

		if (!v)
			return false;
		g->nodes = v;
		g->cap = cap;
	}
	g->nodes[g->len++] = node;
	return true;
}

/* The cut whose first node is address p, or VERIFY_WALKERS. */
static unsigned cut_at(const struct segment *g, uintptr_t p)
{
	unsigned k = 0;

	while (k < VERIFY_WALKERS && g[k].cut != p)
		k++;
	return k;
}

/* Node p, reached by segment g: new, it is walked on (true); a cut, the
 * segment ends there (true); anything else (out of the span, a node seen
 * before, no memory) is irregular (false). */
static bool segment_step(const struct chain *c, struct segment *g, uintptr_t p, struct segment *all,
			 uint64_t *node_bits, uint64_t *line_bits, struct layout_check *check)
{
	uintptr_t start = (uintptr_t)c->base;
	uintptr_t line0 = start & ~(uintptr_t)(c->line_bytes - 1);
	size_t off = p - start, node;

	if (p < start || off >= c->nodes * c->spacing_bytes)
		return false;
	node = off / c->spacing_bytes;
	if (bit_test_and_set(node_bits, node)) {
		g->next = cut_at(all, p);
		g->done = true;
		return g->next < VERIFY_WALKERS;
	}
	check->distinct_nodes_walked++;
	/* One node a line from a line-aligned base: node i is line i, so a new
	 * node is a new line (the second bitmap would only repeat the first). */
	if (!c->payload_bytes && c->spacing_bytes == c->line_bytes && line0 == start)
		check->distinct_lines_walked++;
	else
		check->distinct_lines_walked += count_lines(c, line_bits, p - line0);
	g->at = p;
	return segment_push(g, (uint32_t)node);
}

/* The parallel walk: true when it proved the chain one cycle of n nodes
 * through node 0 (check filled, order written); false when the serial walk
 * must decide (bits and check then dirty). */
static bool walk_parallel(const struct chain *c, struct layout_check *check, uint64_t *node_bits,
			  uint64_t *line_bits, uint32_t *order, struct segment *g)
{
	size_t n = c->nodes, total = VERIFY_WALKERS, pos = 0;  /* total: nodes walked, and each segment's last step */
	uintptr_t start = (uintptr_t)c->base;
	uintptr_t line0 = start & ~(uintptr_t)(c->line_bytes - 1);
	unsigned active = VERIFY_WALKERS, k = 0, hops = 0, live[VERIFY_WALKERS];

	for (unsigned i = 0; i < VERIFY_WALKERS; i++) {
		size_t node = i * (n / VERIFY_WALKERS);

		g[i].cut = g[i].at = start + node * c->spacing_bytes;
		if (bit_test_and_set(node_bits, node) || !segment_push(&g[i], (uint32_t)node))
			return false;
		check->distinct_nodes_walked++;
		check->distinct_lines_walked += count_lines(c, line_bits, g[i].at - line0);
		live[i] = i;
	}
	/* Rounds over the segments still walking: every next pointer is read
	 * first, all independent loads, so the core has their misses in flight
	 * at once; then each is checked. */
	while (active) {
		uintptr_t next[VERIFY_WALKERS];

		for (unsigned i = 0; i < active; i++)
			next[i] = *(const uintptr_t *)g[live[i]].at;
		for (unsigned i = 0; i < active; i++)
			if (!segment_step(c, &g[live[i]], next[i], g, node_bits, line_bits, check) || ++total > n + VERIFY_WALKERS)
				return false;
		for (unsigned i = 0; i < active;)
			if (g[live[i]].done)
				live[i] = live[--active];
			else
				i++;
	}
	/* From node 0 through every cut, back to node 0, n nodes in all. */
	do {
		if (pos + g[k].len > n)
			return false;
		memcpy(order + pos, g[k].nodes, g[k].len * sizeof(*order));
		pos += g[k].len;
		k = g[k].next;
	} while (k != 0 && ++hops < VERIFY_WALKERS);
	if (k != 0 || hops + 1 != VERIFY_WALKERS || pos != n)
		return false;
	check->steps_walked = n;
	check->closed = true;
	return true;
}

/* A chain whose first VERIFY_STREAM_PEEK steps each go to the next slot
 * (chain_build_sequential's): the prefetcher streams it to one walk faster
 * than it follows many walks far apart (4 Mi nodes: 0.09 s, against 0.25 s
 * in segments). Either walk gives the same counts. */
static bool streams(const struct chain *c)
{
	const char *p = c->base;

	for (unsigned i = 0; i < VERIFY_STREAM_PEEK; i++, p += c->spacing_bytes)
		if (*(const uintptr_t *)p != (uintptr_t)(p + c->spacing_bytes))
			return false;
	return true;
}

int chain_verify(struct chain *c, struct layout_check *check)
{
	size_t n = c->nodes, span = n * c->spacing_bytes;
	/* a payload may reach past the last node's slot */
	size_t lines_cap = (span + c->payload_bytes) / c->line_bytes + 2;
	size_t node_words = n / 64 + 1, line_words = lines_cap / 64 + 1;
	uint64_t *node_bits = calloc(node_words, sizeof(uint64_t));
	uint64_t *line_bits = calloc(line_words, sizeof(uint64_t));
	uint32_t *order = malloc(n * sizeof(*order));
	struct segment g[VERIFY_WALKERS];
	int rc = -ENOMEM;

	memset(check, 0, sizeof(*check));
	memset(g, 0, sizeof(g));
	if (!node_bits || !line_bits || !order)
		goto out;
	if (n < VERIFY_PARALLEL_MIN_NODES || streams(c) || !walk_parallel(c, check, node_bits, line_bits, order, g)) {
		memset(check, 0, sizeof(*check));
		memset(node_bits, 0, node_words * sizeof(uint64_t));
		memset(line_bits, 0, line_words * sizeof(uint64_t));
		walk_serial(c, check, node_bits, line_bits, order);
	}
	check->nodes = n;
	check->expected_lines = c->spacing_bytes >= c->line_bytes
		? n : (span + c->line_bytes - 1) / c->line_bytes;
	if (c->payload_bytes && c->spacing_bytes >= c->line_bytes)
		check->expected_lines = n * c->claimed_lines_per_node;
	check->ok = check->closed && check->steps_walked == n &&
		    check->distinct_nodes_walked == n &&
		    check->distinct_lines_walked == check->expected_lines;
	free(c->order);
	c->order = order;
	order = NULL;
	rc = 0;
out:
	for (unsigned i = 0; i < VERIFY_WALKERS; i++)
		free(g[i].nodes);
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
