/*
 * Benchmark, not a test: the A/B experiment behind issue 31. The same plain
 * warm chase as bench/warm_chase.c (one random cycle over the set's 64 B
 * lines in its own 2 MiB-aligned mapping, huge pages advised, one full
 * untimed walk, then the minimum of WALKS whole walks back to back) is
 * timed against an arm that differs from it in ONE of the ways the latency
 * sweep (src/exp/latency.c) differs from it:
 *   stream   the same size's +64 B sequential chain walked whole just before
 *            the block (the sweep's stream block of the same size)
 *   arena    the chain in one column of a shared arena (a line holds 8
 *            pointer slots, other chains own the other columns), as the
 *            sweep packs every size, instead of its own mapping
 *   region   the same loads timed as regions of 65,536 loads, not whole walks
 *   other    a 64 MiB chain of another set walked whole just before the
 *            warm walk (the sizes the round-robin visits in between)
 *   memset   `other` with a 256 MiB chain (the memory set the sweep visits)
 *   nowarm   `other`, and no warm walk before the timed walks
 *   warm1    a single timed unit right after the warm walk: the state the
 *            sweep's block reaches (one warm walk, a short settle, then its
 *            regions), not the minimum of WALKS walks back to back
 *   alloc2   the plain chase on a second, independent allocation (other
 *            physical pages) held alongside the first
 *   seq      the same size's +64 B chain in the NEXT COLUMN of the chase's
 *            own lines walked whole just before the warm walk: the sweep
 *            packs a size's stream beside its chase, so its stream block
 *            reads the chase's lines in address order (the descending
 *            pass visits it right before the chase)
 *   memseq   `memset`, then `seq`: does an in-order pass over the set's
 *            lines bring it back where random walks after the memory set
 *            do not?
 * The two arms alternate, REPS times each, in one process pinned by the
 * caller; each prints its minimum, and the ratio arm / plain of the minima.
 * Each arm walks its own chain (its own set of lines); the two chains swap
 * arms every repetition, so which pages hold a chain (alloc2's factor)
 * lands on both arms alike, except for alloc2 itself and arena (whose
 * chain lives in the arena). The plain arm's spread over its REPS minima
 * is the run's floor for the row. Sets past 64 MiB walk 4M-load units instead of whole walks, as
 * warm_chase.c does.
 * Independent of mlpscope's code on purpose. Build:
 *   cc -O2 -o build/latency_ab bench/latency_ab.c
 * Usage: build/latency_ab [--reps N] ARM SIZE_BYTES...
 * Prints "size_bytes<TAB>arm<TAB>plain_ns<TAB>arm_ns<TAB>ratio<TAB>plain_spread_pct".
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "plain_chase.h"

#define LINE 64
#define HUGE (2u << 20)
#define WALKS 5
#define REGION_LOADS 65536u
#define BIG_UNIT_LOADS (4u << 20)
#define OTHER_BYTES (64u << 20)
#define MEMSET_BYTES (256u << 20)
#define ARENA_COLUMN 3

struct map {
	char *raw, *base;
	size_t map_bytes;
};

static char *map_aligned(struct map *m, size_t bytes)
{
	m->map_bytes = (bytes + HUGE - 1) / HUGE * HUGE + HUGE;
	m->raw = mmap(NULL, m->map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m->raw == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	m->base = (char *)(((uintptr_t)m->raw + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
	madvise(m->base, m->map_bytes - HUGE, MADV_HUGEPAGE);
	return m->base;
}

/* One random cycle over n lines starting at base + column * 8. */
static void *build_random(char *base, size_t n, unsigned column)
{
	char *b = base + column * sizeof(void *);

	if (link_one_cycle(b, n, LINE))
		exit(1);
	return b;
}

static void *build_stream(char *base, size_t n, unsigned column)
{
	char *b = base + column * sizeof(void *);

	for (size_t i = 0; i < n; i++)
		*(void **)(b + i * LINE) = b + ((i + 1) % n) * LINE;
	return b;
}

struct arm {
	int stream, region, other, nowarm, warm1, seq;
	void *seq_head;        /* the +64 B chain in the chase's own lines */
	size_t other_bytes;
	void *chase, *stream_head, *other_head;
	size_t nodes;
};

static size_t unit_loads(size_t nodes)
{
	return nodes <= BIG_UNIT_LOADS ? nodes : BIG_UNIT_LOADS;
}

/* One block: what comes before it, the warm walk, then the timed units. */
static double block(struct arm *a)
{
	size_t unit = unit_loads(a->nodes), loads, units;
	double best = 1e30;
	void *p = a->chase;

	if (a->other)
		sink = walk(a->other_head, a->other_bytes / LINE);
	if (a->stream)
		sink = walk(a->stream_head, unit);
	if (a->seq)
		sink = walk(a->seq_head, a->nodes);
	if (!a->nowarm)
		p = walk(p, unit);
	loads = unit;
	units = a->warm1 ? 1 : WALKS;
	if (a->region && unit > REGION_LOADS) {
		units = units * unit / REGION_LOADS;
		loads = REGION_LOADS;
	}
	for (size_t u = 0; u < units; u++) {
		double t0 = now_ns(), ns;

		p = walk(p, loads);
		ns = (now_ns() - t0) / (double)loads;
		if (ns < best)
			best = ns;
	}
	a->chase = p;
	sink = p;
	return best;
}

int main(int argc, char **argv)
{
	int reps = 3, first = 1;
	const char *name;

	if (argc > 2 && !strcmp(argv[1], "--reps")) {
		reps = atoi(argv[2]);
		first = 3;
		if (reps < 1 || reps > 100) {
			fprintf(stderr, "--reps: expected 1..100\n");
			return 2;
		}
	}
	if (argc < first + 2) {
		fprintf(stderr, "usage: latency_ab [--reps N] stream|arena|region|other|memset|nowarm|warm1|alloc2|seq|memseq SIZE...\n");
		return 2;
	}
	name = argv[first];
	for (int k = first + 1; k < argc; k++) {
		size_t bytes = strtoull(argv[k], NULL, 0) / LINE * LINE, n = bytes / LINE;
		struct map mp = {0}, ma = {0}, mo = {0}, ms = {0};
		struct arm plain = {.nodes = n}, arm = {.nodes = n};
		double pmin = 1e30, pmax = 0, amin = 1e30;

		if (n < 2)
			continue;
		plain.chase = build_random(map_aligned(&mp, bytes), n, 0);
		if (!strcmp(name, "arena")) {
			/* A 256 MiB arena, 8 columns: the chain in one, other
			 * random chains in the two beside it, as packed. */
			size_t arena = bytes > (256u << 20) ? bytes : (256u << 20);
			char *b = map_aligned(&ma, arena);

			build_random(b, arena / LINE, ARENA_COLUMN - 1);
			arm.chase = build_random(b + (arena - bytes) / 2 / HUGE * HUGE, n, ARENA_COLUMN);
			build_random(b, arena / LINE, ARENA_COLUMN + 1);
		} else if (!strcmp(name, "alloc2") || !strcmp(name, "stream") || !strcmp(name, "region") ||
			   !strcmp(name, "other") || !strcmp(name, "nowarm") || !strcmp(name, "warm1") ||
			   !strcmp(name, "memset") || !strcmp(name, "seq") || !strcmp(name, "memseq")) {
			arm.chase = build_random(map_aligned(&ma, bytes), n, 0);
		} else {
			fprintf(stderr, "arm: unknown '%s' (expected stream, arena, region, other, memset, nowarm, warm1, alloc2, seq, memseq)\n",
				name);
			return 2;
		}
		arm.stream = !strcmp(name, "stream");
		arm.region = !strcmp(name, "region");
		arm.other = !strcmp(name, "other") || !strcmp(name, "nowarm") || !strcmp(name, "memset") ||
			    !strcmp(name, "memseq");
		arm.other_bytes = !strcmp(name, "memset") || !strcmp(name, "memseq") ? MEMSET_BYTES : OTHER_BYTES;
		arm.seq = !strcmp(name, "seq") || !strcmp(name, "memseq");
		/* Both chains get their in-order neighbour (column 1 of the same
		 * lines), so the swap below keeps each with its own lines. */
		plain.seq_head = build_stream(mp.base, n, 1);
		arm.seq_head = build_stream(ma.base, n, 1);
		arm.nowarm = !strcmp(name, "nowarm");
		arm.warm1 = !strcmp(name, "warm1");
		if (arm.stream)
			arm.stream_head = build_stream(map_aligned(&ms, bytes), n, 0);
		if (arm.other)
			arm.other_head = build_random(map_aligned(&mo, arm.other_bytes), arm.other_bytes / LINE, 0);
		/* Both chains first walked once, so neither arm pays first touch. */
		sink = walk(plain.chase, n);
		sink = walk(arm.chase, n);
		for (int r = 0; r < reps; r++) {
			double pn, an;

			if (r % 2 && strcmp(name, "alloc2") && strcmp(name, "arena")) {
				void *t = plain.chase;

				plain.chase = arm.chase;
				arm.chase = t;
				t = plain.seq_head;
				plain.seq_head = arm.seq_head;
				arm.seq_head = t;
			}
			pn = block(&plain);
			an = block(&arm);

			pmin = pn < pmin ? pn : pmin;
			pmax = pn > pmax ? pn : pmax;
			amin = an < amin ? an : amin;
		}
		printf("%zu\t%s\t%.2f\t%.2f\t%.3f\t%.1f\n", bytes, name, pmin, amin, amin / pmin,
		       100.0 * (pmax / pmin - 1.0));
		fflush(stdout);
		munmap(mp.raw, mp.map_bytes);
		if (ma.raw)
			munmap(ma.raw, ma.map_bytes);
		if (ms.raw)
			munmap(ms.raw, ms.map_bytes);
		if (mo.raw)
			munmap(mo.raw, mo.map_bytes);
	}
	return 0;
}
