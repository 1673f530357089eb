/*
 * A next-line prefetcher run over a stream of line touches, to count the
 * traffic a program did not ask for: lines brought in ahead of demand that
 * demand never touched. The prefetcher is tagged, of degree D: a touch that
 * misses, or that is the first use of a prefetched line, fetches the next D
 * lines not yet delivered. The cache holds every line it is given (no
 * eviction), so the figures are each line's first delivery, the same basis
 * as the trace's useful bytes per line delivered. A model, not a
 * measurement: a real prefetcher's training, its distance and its stride
 * detection are the CPU's and are not known here.
 */
#ifndef MLPSCOPE_ANALYSE_PREFETCH_H
#define MLPSCOPE_ANALYSE_PREFETCH_H

#include <stddef.h>
#include <stdint.h>

#define PREFETCH_NDEGREES 3

/* The degrees modelled side by side: 1, 2 and 4 lines ahead. */
extern const unsigned prefetch_degrees[PREFETCH_NDEGREES];

struct prefetch_figures {
	unsigned degree;
	uint64_t demand_lines;   /* lines first brought in by a demand touch */
	uint64_t prefetched;     /* lines brought in ahead of demand */
	uint64_t used;           /* of those, touched by demand later */
};

struct prefetch_model {
	struct prefetch_entry *tab;
	size_t cap, used;
	struct prefetch_figures f[PREFETCH_NDEGREES];
};

/* 0 or -ENOMEM. */
int prefetch_init(struct prefetch_model *m);

/* A demand touch of line. 0 or -ENOMEM. */
int prefetch_touch(struct prefetch_model *m, uint64_t line);

void prefetch_free(struct prefetch_model *m);

/* Prefetched lines never used: the over-fetch. */
uint64_t prefetch_unused(const struct prefetch_figures *f);

/* Lines delivered in all: demand plus prefetched. */
uint64_t prefetch_delivered_lines(const struct prefetch_figures *f);

/* used_bytes / (delivered lines x line_bytes): the traffic efficiency with
 * the over-fetch counted; NaN when nothing was delivered. */
double prefetch_efficiency(const struct prefetch_figures *f, uint64_t used_bytes, uint64_t line_bytes);

/* used / prefetched (NaN for none): how often a prefetch was right. */
double prefetch_accuracy(const struct prefetch_figures *f);

#endif
