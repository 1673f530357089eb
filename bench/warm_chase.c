/*
 * Benchmark, not a test: a plain warm random chase, the reference the
 * latency section's curve is held to (issue 21). For each size given: one
 * random cycle over the set's 64 B lines in a 2 MiB-aligned arena (huge
 * pages advised), one full untimed walk, then back-to-back timed walks (the
 * minimum of 5): the set is as warm as a chase can make it. Sets past 64 MiB
 * time 5 regions of 4M loads instead of whole walks (their lines miss anyway).
 * Independent of mlpscope's code on purpose: it shares no chain, arena or
 * clock with what it checks. Build: cc -O2 -o build/warm_chase bench/warm_chase.c
 * Usage: build/warm_chase [--each N] SIZE_BYTES... ; prints "size_bytes<TAB>ns_per_load".
 * --each N times N walks instead of 5 and prints each after the minimum:
 * where a cache is shared with other tenants (a guest's L3 share, an SMT
 * sibling's L2) the walks show the set settling, or not, walk by walk.
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
#define WALKS 5
#define BIG_REGION_LOADS (4u << 20)

int main(int argc, char **argv)
{
	int walks = WALKS, first = 1, each = 0;

	if (argc > 2 && !strcmp(argv[1], "--each")) {
		walks = atoi(argv[2]);
		each = 1;
		first = 3;
		if (walks < 1 || walks > 1000)
			return 2;
	}
	for (int a = first; a < argc; a++) {
		size_t bytes = strtoull(argv[a], NULL, 0) / LINE * LINE, n = bytes / LINE;
		size_t map = (bytes + (2u << 20) - 1) / (2u << 20) * (2u << 20) + (2u << 20);
		char *raw, *base;
		double best = 1e30, ns_each[1000];

		if (n < 2)
			continue;
		raw = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (raw == MAP_FAILED)
			return 1;
		base = (char *)(((uintptr_t)raw + (2u << 20) - 1) & ~(uintptr_t)((2u << 20) - 1));
		madvise(base, map - (2u << 20), MADV_HUGEPAGE);
		if (link_one_cycle(base, n, LINE))
			return 1;
		size_t loads = bytes <= (64u << 20) ? n : BIG_REGION_LOADS;
		void *p = walk(base, n < BIG_REGION_LOADS ? n : BIG_REGION_LOADS);

		for (int w = 0; w < walks; w++) {
			double t0 = now_ns(), ns;

			p = walk(p, loads);
			ns = (now_ns() - t0) / (double)loads;
			ns_each[w] = ns;
			if (ns < best)
				best = ns;
		}
		sink = p;
		printf("%zu\t%.3f", bytes, best);
		for (int w = 0; each && w < walks; w++)
			printf("%s%.1f", w ? " " : "\t", ns_each[w]);
		printf("\n");
		fflush(stdout);
		munmap(raw, map);
	}
	return 0;
}
