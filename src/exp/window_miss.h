/*
 * The window experiment's missing-load filler: the table of fresh lines its
 * loads walk, the check that those lines are distinct, and the fit of its
 * knee (struct window_miss_fit in exp/window.h says why a knee and not a
 * step). What it depends on: a line missing the L1 holds one L1D miss
 * buffer (fill buffer, MSHR) until its data returns, two loads of one line
 * in flight share a buffer (so the lines must be distinct), and a line out
 * of the caches comes from DRAM (so the buffer is far past the last-level
 * cache: the chase arena). Never prints; the sweep itself is exp/window.c.
 */
#ifndef MLPSCOPE_EXP_WINDOW_MISS_H
#define MLPSCOPE_EXP_WINDOW_MISS_H

#include "exp/window.h"

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
 * increasing, 3 <= count <= WINDOW_MAX_POINTS) by least absolute error
 * over M (L the median of t over the model's shape for each), and
 * check the free slope past the knee against it. tol_frac (the run's noise
 * floor) decides whether the rise is real (three floors, at least 5%).
 * Pure. 0 or -EINVAL. */
int window_miss_fit(const unsigned *n, const double *t_ns, size_t count, unsigned chase_misses, double tol_frac,
		    struct window_miss_fit *fit);

/* The missing-load filler's result from its points: fr->miss, and the step
 * fields (fits/fails N, capacity, whole capacity) set to the knee's bracket
 * and M so the summary and the writers treat it as every other filler;
 * the note says how the figure was read and whether the slope agrees. */
void window_miss_fill(struct window_filler_result *fr, double tol_frac);

#endif
