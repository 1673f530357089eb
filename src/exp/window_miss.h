/*
 * The window experiment's missing-load filler: the table of fresh lines its
 * loads walk, the check that those lines are distinct, and the fit of its
 * knee (struct window_miss_fit below says why a knee and not a
 * step). What it depends on: a line missing the L1 holds one L1D miss
 * buffer (fill buffer, MSHR) until its data returns, two loads of one line
 * in flight share a buffer (so the lines must be distinct), and a line out
 * of the caches comes from DRAM (so the buffer is far past the last-level
 * cache: the chase arena). Pure but for the table's memory; the sweep, and
 * the filler's result and words from the fit, are exp/window.c.
 */
#ifndef MLPSCOPE_EXP_WINDOW_MISS_H
#define MLPSCOPE_EXP_WINDOW_MISS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jit/probe.h"

/* The missing-load filler's knee: its fillers and
 * the two chase loads each hold a miss buffer for about one DRAM latency
 * L, so by Little's law an iteration takes t(N) = L max(1, (2N + 2) / M)
 * with M buffers: flat until both groups and both chases, 2N + 2 misses,
 * fill them, then a line rising 2L/M per filler. Not the robsize step of
 * the other fillers: past the knee the misses queue for buffers, they do
 * not serialise. */
struct window_miss_fit {
	bool knee_found;           /* a rise above three floors, with flat points before it */
	bool plausible;            /* the free slope past the knee gives about the same M */
	double buffers;            /* M, fitted; entries (the chase misses counted) */
	double buffers_low, buffers_high;  /* 2 n_fits + 2 .. 2 n_fails + 1 */
	unsigned n_fits, n_fails;  /* the last sampled N on the flat, the first past the knee */
	double flat_ns;            /* L: the flat level, ns per iteration */
	double slope_buffers;      /* 2 L / the free slope past the knee; NAN with too few points */
	double rms_rel_residual;   /* of the t(N) model over the points it was fitted to, over L */
};

/* Where the missing loads go: fresh lines of the chase arena (far past the
 * last-level cache), a table of per-iteration bases walked as a cycle. */
struct window_miss_buffer {
	bool built;
	size_t buffer_bytes;       /* the span the lines are drawn from */
	size_t table_entries;      /* iterations before a line comes round again */
	unsigned lines_per_iteration_max;  /* 2 x the largest N the filler is swept to */
	uint64_t lines_checked;    /* lines the distinctness walk visited */
	uint64_t lines_repeated;   /* of them, met twice in one pass of the table: 0 when distinct */
};


/* The most missing loads per group the table is laid out for: a knee at
 * up to 64 buffers (N = 31) with the curve followed to twice that. */
#define WINDOW_MISS_N_MAX 64
#define WINDOW_MISS_LINES_MAX (2 * WINDOW_MISS_N_MAX)

struct window_miss_table {
	struct probe_miss_entry *entries;   /* a cycle: entries[i].next = &entries[i + 1] */
	size_t nentries;
	size_t cursor;
	char *base;
	size_t bytes;
};

/* Lay the table out over [base, base + bytes): the buffer seen as rows of
 * 65 lines (one ENC_MISS_STRIDE_BYTES apart), each column cut into slots of
 * WINDOW_MISS_LINES_MAX rows; entry i takes column i mod 65 and the next
 * slot of a per-column random order, so no line is in two entries' groups
 * and neighbouring entries are columns apart. Returns 0, -EINVAL when the
 * buffer holds no slot, -ENOMEM. */
int window_miss_table_build(struct window_miss_table *t, void *base, size_t bytes, uint64_t seed);

/* Walk every entry's group of WINDOW_MISS_LINES_MAX lines, the cycle once
 * round from entries[0], counting lines met more than once and lines
 * outside the buffer (both counted in *repeated). Fills info; 0 when the
 * lines are distinct, -EPROTO when not, -ENOMEM. Pure but for the count
 * array it allocates. */
int window_miss_table_check(const struct window_miss_table *t, struct window_miss_buffer *info);

/* The entry a region of iters iterations starts at; the cursor moves on
 * by iters so the next region takes fresh lines. */
struct probe_miss_entry *window_miss_table_take(struct window_miss_table *t, uint64_t iters);

void window_miss_table_free(struct window_miss_table *t);

/* Fit t(n) = L max(1, (2 n + chase_misses) / M) to points (n strictly
 * increasing, count >= 3) by least absolute error over M (L the median of
 * t over the model's shape for each), then again over the points up to
 * 2.5x the knee's misses (far past it other limits bend the line), and
 * check the free slope of those past the knee against it. rise_needed (the ratio a rise must reach to be real:
 * window_jump_needed of the run's floor) decides whether there is a knee.
 * Pure. 0, -EINVAL or -ENOMEM. */
int window_miss_fit(const unsigned *n, const double *t_ns, size_t count, unsigned chase_misses, double rise_needed,
		    struct window_miss_fit *fit);

#endif
