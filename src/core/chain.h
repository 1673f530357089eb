/*
 * Permutations and pointer chains. A chain is one Sattolo cycle over the
 * nodes of an arena, one node every spacing_bytes, each node holding the
 * address of the next. The layout check walks the built cycle in memory and
 * counts what it actually visits: a layout whose addresses collide still
 * visits every *index*, so only counting addresses catches it.
 */
#ifndef MLPSCOPE_CORE_CHAIN_H
#define MLPSCOPE_CORE_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rng;

/* Fill succ[0..n) with a uniformly random cyclic permutation (one cycle of
 * length n) by Sattolo's algorithm. n >= 2. */
void perm_sattolo(uint32_t *succ, size_t n, struct rng *r);

/* Length of the cycle through element 0 (n for a Sattolo permutation). */
size_t perm_cycle_length(const uint32_t *succ, size_t n);

/* FNV-1a over the permutation, recorded so a run can be tied to its layout. */
uint64_t perm_hash(const uint32_t *succ, size_t n);

/* Byte offset of node i. Production uses i * spacing; tests substitute a
 * colliding function to prove the layout check fires. */
typedef size_t (*chain_offset_fn)(size_t node, size_t spacing_bytes);
size_t chain_offset_linear(size_t node, size_t spacing_bytes);

struct chain {
	char *base;
	size_t nodes;
	size_t spacing_bytes;
	size_t line_bytes;
	uint64_t seed;
	uint64_t perm_hash;
	uint32_t *order;   /* order[pos] = node at position pos along the cycle */
	size_t payload_bytes;          /* bytes read per node from its address; 0: the pointer's line only */
	size_t claimed_lines_per_node; /* what the layout claims a node's payload touches */
};

struct layout_check {
	size_t nodes;                 /* what the layout claims */
	size_t expected_lines;        /* distinct cache lines the layout claims */
	size_t steps_walked;          /* steps until the walk closed (or gave up) */
	size_t distinct_nodes_walked;
	size_t distinct_lines_walked;
	bool closed;                  /* returned to its start */
	bool ok;
};

/* Write a Sattolo cycle of bytes/spacing nodes into base[0..bytes). Returns 0
 * or -errno (ENOMEM for the temporary permutation). */
int chain_build(struct chain *c, char *base, size_t bytes, size_t spacing_bytes,
		size_t line_bytes, uint64_t seed, chain_offset_fn offset);

/* Write a sequential cycle of bytes/spacing nodes into base[0..bytes): node
 * i holds the address of node i + 1, the last node that of node 0. Walked
 * with one node per line this is a stream a next-line or stride prefetcher
 * can follow, the contrast to a random chain of the same size. seed is 0 and
 * perm_hash that of the identity successor. Returns 0 or -EINVAL. */
int chain_build_sequential(struct chain *c, char *base, size_t bytes, size_t spacing_bytes,
			   size_t line_bytes);

/* Declare that each node is read payload_bytes from its address, touching
 * lines_per_node lines by the layout's claim (0: ceil(payload / line), what
 * a line-aligned node needs). The layout check then counts every line the
 * payloads touch, so a node that crosses a line boundary it claims not to
 * cross shows as too many lines. Call between chain_build and chain_verify. */
void chain_set_payload(struct chain *c, size_t payload_bytes, size_t lines_per_node);

/* Walk the cycle from node 0 as the hardware will, count distinct nodes and
 * lines, and record the cycle order for lane starts. Fills *check; returns 0,
 * or -ENOMEM. check->ok is the verdict. A large chain is walked in segments
 * at once (its misses overlap); the counts are those of the one walk from
 * node 0, which decides any chain the segments do not prove whole. */
int chain_verify(struct chain *c, struct layout_check *check);

/* chain_build, then chain_verify into *check: 0; -errno from either; or
 * -EPROTO when the walk disagrees with the layout (check->ok false), since a
 * chain that does not visit what it claims must not be timed. *check is
 * untouched when the build fails. */
int chain_build_verified(struct chain *c, char *base, size_t bytes, size_t spacing_bytes,
			 size_t line_bytes, uint64_t seed, chain_offset_fn offset,
			 struct layout_check *check);

/* Address of the node at position pos (mod nodes) along the verified cycle. */
uintptr_t chain_node_at(const struct chain *c, size_t pos);

void chain_free(struct chain *c);

#endif
