/*
 * The missing-load filler: its table of fresh lines, their distinctness
 * check, and the knee fit. The hardware facts behind the layout: a load
 * that misses the L1 holds a miss buffer until its line arrives, loads of
 * one line share a buffer, and prefetchers follow streams within a 4 KiB
 * page or a constant stride per instruction. So each group's lines sit one
 * page and one line apart (each in its own page and L1 set), every base is
 * drawn at random (no instruction sees a stride from one iteration to the
 * next), and no line is in two groups of one pass of the table.
 */
#include "exp/window_miss.h"

#include "util/rng.h"
#include "jit/enc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COLUMNS (ENC_MISS_STRIDE_BYTES / ENC_LINE_BYTES)   /* 65 lines a row */

static void shuffle(uint32_t *v, size_t n, struct rng *r)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)rng_below(r, i);
		uint32_t x = v[i - 1];

		v[i - 1] = v[j];
		v[j] = x;
	}
}

int window_miss_table_build(struct window_miss_table *t, void *base, size_t bytes, uint64_t seed)
{
	size_t rows = bytes / ENC_MISS_STRIDE_BYTES, slots = rows / WINDOW_MISS_LINES_MAX;
	uint32_t *order = NULL;
	struct rng r;

	memset(t, 0, sizeof(*t));
	if (!base || slots == 0)
		return -EINVAL;
	t->nentries = slots * COLUMNS;
	t->entries = calloc(t->nentries, sizeof(*t->entries));
	order = calloc(slots, sizeof(*order));
	if (!t->entries || !order) {
		free(order);
		window_miss_table_free(t);
		return -ENOMEM;
	}
	t->base = base;
	t->bytes = bytes;
	rng_seed(&r, seed ^ 0x6d697373u);
	for (size_t col = 0; col < COLUMNS; col++) {
		for (size_t s = 0; s < slots; s++)
			order[s] = (uint32_t)s;
		shuffle(order, slots, &r);
		for (size_t s = 0; s < slots; s++) {
			size_t i = s * COLUMNS + col, row = (size_t)order[s] * WINDOW_MISS_LINES_MAX;

			t->entries[i].base = (uint64_t)(uintptr_t)(t->base + row * ENC_MISS_STRIDE_BYTES + col * ENC_LINE_BYTES);
		}
	}
	for (size_t i = 0; i < t->nentries; i++)
		t->entries[i].next = (uint64_t)(uintptr_t)&t->entries[(i + 1) % t->nentries];
	free(order);
	return 0;
}

int window_miss_table_check(const struct window_miss_table *t, struct window_miss_buffer *info)
{
	size_t nlines = t->bytes / ENC_LINE_BYTES;
	uint8_t *seen = calloc(nlines ? nlines : 1, 1);
	const struct probe_miss_entry *e = t->entries;

	memset(info, 0, sizeof(*info));
	if (!seen)
		return -ENOMEM;
	info->buffer_bytes = t->bytes;
	info->table_entries = t->nentries;
	info->lines_per_iteration_max = WINDOW_MISS_LINES_MAX;
	/* Follow the cycle as the probe does, not the array: a broken next
	 * pointer shows as lines met twice or an entry count that differs. */
	for (size_t i = 0; i < t->nentries && e; i++) {
		for (unsigned k = 0; k < WINDOW_MISS_LINES_MAX; k++) {
			uint64_t at = e->base + (uint64_t)k * ENC_MISS_STRIDE_BYTES - (uint64_t)(uintptr_t)t->base;

			info->lines_checked++;
			if (e->base < (uint64_t)(uintptr_t)t->base || at / ENC_LINE_BYTES >= nlines || at % ENC_LINE_BYTES ||
			    seen[at / ENC_LINE_BYTES]++)
				info->lines_repeated++;
		}
		e = (const struct probe_miss_entry *)(uintptr_t)e->next;
	}
	if (e != t->entries)
		info->lines_repeated++;
	free(seen);
	info->built = true;
	return info->lines_repeated ? -EPROTO : 0;
}

struct probe_miss_entry *window_miss_table_take(struct window_miss_table *t, uint64_t iters)
{
	struct probe_miss_entry *e = &t->entries[t->cursor];

	t->cursor = (size_t)((t->cursor + iters) % t->nentries);
	return e;
}

void window_miss_table_free(struct window_miss_table *t)
{
	free(t->entries);
	memset(t, 0, sizeof(*t));
}

/* ---- the knee ---- */

static double model_at(unsigned n, unsigned c, double m)
{
	return fmax(1.0, (2.0 * n + c) / m);
}

/* L for a given M, and the cost: the median of t / g and the sum of
 * absolute errors, so a point a preemption left high (min of a few trials
 * on a busy machine can still be one) moves neither M nor L. */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double cost_at(const unsigned *n, const double *t, size_t count, unsigned c, double m, double *flat,
		      double *r)
{
	double cost = 0;

	for (size_t i = 0; i < count; i++)
		r[i] = t[i] / model_at(n[i], c, m);
	qsort(r, count, sizeof(r[0]), cmp_double);
	*flat = count % 2 ? r[count / 2] : (r[count / 2 - 1] + r[count / 2]) / 2;
	for (size_t i = 0; i < count; i++)
		cost += fabs(t[i] - *flat * model_at(n[i], c, m));
	return cost;
}

static double rms_at(const unsigned *n, const double *t, size_t count, unsigned c, double m, double flat)
{
	double sse = 0;

	for (size_t i = 0; i < count; i++) {
		double e = t[i] - flat * model_at(n[i], c, m);

		sse += e * e;
	}
	return sqrt(sse / (double)count) / flat;
}

/* The free slope of the points clearly past the knee (15% above it), as
 * the M it implies: 2 L / slope. The median of the slopes between every
 * two such points (Theil-Sen), so one preempted point does not tilt it.
 * NAN with fewer than two such points or no rise. */
static double slope_buffers(const unsigned *n, const double *t, size_t count, unsigned c, double m, double flat)
{
	double *sl = malloc(count * count / 2 * sizeof(*sl) + sizeof(*sl)), b;
	size_t k = 0;

	if (!sl)
		return NAN;
	for (size_t i = 0; i < count; i++)
		for (size_t j = i + 1; j < count; j++)
			if (2.0 * n[i] + c > 1.15 * m)
				sl[k++] = (t[j] - t[i]) / (double)(n[j] - n[i]);
	if (k == 0) {
		free(sl);
		return NAN;
	}
	qsort(sl, k, sizeof(sl[0]), cmp_double);
	b = k % 2 ? sl[k / 2] : (sl[k / 2 - 1] + sl[k / 2]) / 2;
	free(sl);
	return b > 0 ? 2 * flat / b : NAN;
}

/* The best M over the first count points, every 1/20 of a buffer from one
 * to past the last point. */
static void grid_fit(const unsigned *n, const double *t, size_t count, unsigned c, double *r,
		     struct window_miss_fit *fit)
{
	double best = INFINITY;

	for (double m = 1; m <= 2.0 * n[count - 1] + c + 1; m += 0.05) {
		double flat, cost = cost_at(n, t, count, c, m, &flat, r);

		if (cost < best) {
			best = cost;
			fit->buffers = m;
			fit->flat_ns = flat;
		}
	}
}

/* Points up to NEAR_KNEE times the knee's misses: far past it the curve
 * meets other limits (memory bandwidth, page walks, the L2's queue) that
 * Little's law for the buffers alone does not hold. */
#define NEAR_KNEE 2.5

int window_miss_fit(const unsigned *n, const double *t_ns, size_t count, unsigned chase_misses, double rise_needed,
		    struct window_miss_fit *fit)
{
	double top = 0, ratio, *r;
	unsigned c = chase_misses;
	size_t near = 0;

	memset(fit, 0, sizeof(*fit));
	fit->slope_buffers = NAN;
	if (!n || !t_ns || count < 3 || !(rise_needed >= 1))
		return -EINVAL;
	for (size_t i = 1; i < count; i++)
		if (n[i] <= n[i - 1])
			return -EINVAL;
	if (!(r = malloc(count * sizeof(*r))))
		return -ENOMEM;
	grid_fit(n, t_ns, count, c, r, fit);
	while (near < count && 2.0 * n[near] + c <= NEAR_KNEE * fit->buffers)
		near++;
	/* Again over the points near the knee, when enough lie past it. */
	if (near >= 3 && near < count && 2.0 * n[near - 2] + c > fit->buffers)
		grid_fit(n, t_ns, near, c, r, fit);
	else
		near = count;
	free(r);
	fit->rms_rel_residual = rms_at(n, t_ns, near, c, fit->buffers, fit->flat_ns);
	for (size_t i = 0; i < count; i++) {
		top = fmax(top, t_ns[i]);
		if (2.0 * n[i] + c <= fit->buffers)
			fit->n_fits = n[i];
		else if (!fit->n_fails)
			fit->n_fails = n[i];
	}
	/* A knee needs a point on each side of it and a rise the floor cannot
	 * make: three floors, as a step does. */
	fit->knee_found = 2.0 * n[0] + c <= fit->buffers && fit->n_fails &&
			  top >= fit->flat_ns * rise_needed;
	if (!fit->knee_found)
		return 0;
	fit->buffers_low = 2.0 * fit->n_fits + c;
	fit->buffers_high = 2.0 * fit->n_fails + c - 1;
	fit->buffers = fmin(fmax(fit->buffers, fit->buffers_low), fit->buffers_high);
	fit->slope_buffers = slope_buffers(n, t_ns, near, c, fit->buffers, fit->flat_ns);
	ratio = fit->slope_buffers / fit->buffers;
	/* The slope is read off fewer points and carries the queueing near the
	 * knee: a third either way still says the same M; beyond that another
	 * limit shapes the curve. */
	fit->plausible = isfinite(ratio) && ratio >= 0.67 && ratio <= 1.5;
	return 0;
}
