/*
 * The DRAM map: parsing it, placing an address in a bank and a row, and
 * serving a request stream through per-bank row buffers. A bank can hold one
 * row open, so whether a request is cheap (a column read) or dear
 * (precharge, activate, then read) depends on what the bank served last,
 * which the address map and the interleaving of the requesters decide, not
 * the program alone. Counts only: the times of ACT, PRE and RD are a DRAM
 * part's and are not modelled.
 */
#include "analyse/dram.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CHANNELS 64u
#define MAX_RANKS 16u
#define MAX_BANKS_PER_RANK 256u
#define MAX_ROW_BYTES (1ull << 30)

/* A whole decimal number in lo..hi, with an optional binary K or M suffix
 * (KiB, KB and K alike: a DRAM row is sized in powers of two) when sized. */
static int parse_count(const char *s, size_t len, bool sized, uint64_t lo, uint64_t hi, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	if (!len || s[0] < '0' || s[0] > '9')
		return -EINVAL;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		if (v > hi)
			return -EINVAL;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (sized && i < len && (s[i] == 'K' || s[i] == 'M')) {
		v <<= s[i] == 'K' ? 10 : 20;
		i++;
		if (i < len && s[i] == 'i')
			i++;
		if (i < len && s[i] == 'B')
			i++;
	} else if (sized && i < len && s[i] == 'B') {
		i++;
	}
	if (i != len || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

enum map_key { KEY_CH, KEY_RANK, KEY_BANK, KEY_ROW, KEY_INTERLEAVE, NKEYS };

static int parse_field(const char *tok, size_t len, struct dram_map *m, unsigned *seen)
{
	static const char *const names[NKEYS] = {"ch", "rank", "bank", "row", "interleave"};
	const char *eq = memchr(tok, '=', len);
	size_t klen = eq ? (size_t)(eq - tok) : len, vlen = eq ? len - klen - 1 : 0;
	const char *val = eq ? eq + 1 : NULL;
	uint64_t v;
	int k;

	for (k = 0; k < NKEYS; k++)
		if (strlen(names[k]) == klen && !memcmp(tok, names[k], klen))
			break;
	if (!eq || k == NKEYS || (*seen & (1u << k)))
		return -EINVAL;
	*seen |= 1u << k;
	switch (k) {
	case KEY_INTERLEAVE:
		if (vlen == 4 && !memcmp(val, "line", 4))
			m->interleave = DRAM_INTERLEAVE_LINE;
		else if (vlen == 3 && !memcmp(val, "row", 3))
			m->interleave = DRAM_INTERLEAVE_ROW;
		else
			return -EINVAL;
		return 0;
	case KEY_ROW:
		return parse_count(val, vlen, true, 1, MAX_ROW_BYTES, &m->row_bytes);
	default:
		if (parse_count(val, vlen, false, 1,
				k == KEY_CH ? MAX_CHANNELS : k == KEY_RANK ? MAX_RANKS : MAX_BANKS_PER_RANK, &v))
			return -EINVAL;
		*(k == KEY_CH ? &m->channels : k == KEY_RANK ? &m->ranks : &m->banks_per_rank) = (unsigned)v;
		return 0;
	}
}

int dram_map_parse(const char *s, struct dram_map *m)
{
	unsigned seen = 0;

	memset(m, 0, sizeof(*m));
	for (const char *p = s;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (parse_field(p, len, m, &seen))
			return -EINVAL;
		if (!comma)
			break;
		p = comma + 1;
	}
	return seen == (1u << NKEYS) - 1 ? 0 : -EINVAL;
}

uint64_t dram_banks(const struct dram_map *m)
{
	return (uint64_t)m->channels * m->ranks * m->banks_per_rank;
}

int dram_map_check(const struct dram_map *m, uint64_t line_bytes)
{
	uint64_t banks = dram_banks(m);

	if (!line_bytes || !banks || banks > DRAM_MAX_BANKS || m->row_bytes < line_bytes || m->row_bytes % line_bytes)
		return -EINVAL;
	if (m->interleave != DRAM_INTERLEAVE_LINE && m->interleave != DRAM_INTERLEAVE_ROW)
		return -EINVAL;
	return 0;
}

const char *dram_interleave_name(enum dram_interleave i)
{
	return i == DRAM_INTERLEAVE_LINE ? "line" : i == DRAM_INTERLEAVE_ROW ? "row" : "?";
}

void dram_locate(const struct dram_map *m, uint64_t line_bytes, uint64_t addr, uint64_t *bank, uint64_t *row)
{
	uint64_t banks = dram_banks(m), lines_per_row = m->row_bytes / line_bytes;

	if (m->interleave == DRAM_INTERLEAVE_LINE) {
		/* address bits: line offset | bank | column (line in row) | row */
		uint64_t line = addr / line_bytes;

		*bank = line % banks;
		*row = line / banks / lines_per_row;
	} else {
		/* address bits: line offset | column | bank | row */
		uint64_t chunk = addr / m->row_bytes;

		*bank = chunk % banks;
		*row = chunk / banks;
	}
}

uint64_t dram_activations(const struct dram_count *c)
{
	return c->empty + c->conflicts;
}

double dram_hit_fraction(const struct dram_count *c)
{
	return c->requests ? (double)c->hits / (double)c->requests : NAN;
}

static uint64_t bank_of(const struct dram_map *m, uint64_t line_bytes, dram_addr_fn addr, const void *ctx, uint64_t i)
{
	uint64_t bank, row;

	dram_locate(m, line_bytes, addr(ctx, i), &bank, &row);
	return bank;
}

int dram_count(const struct dram_map *m, uint64_t line_bytes, dram_addr_fn addr, const void *ctx, uint64_t n,
	       uint64_t in_flight, struct dram_count *c)
{
	uint64_t banks = dram_banks(m), busy = 0;
	/* open[b]: 1 + the row bank b holds open, 0 for none; window[b]:
	 * requests to bank b among the last P */
	uint64_t *open, *window;
	double busy_sum = 0;

	memset(c, 0, sizeof(*c));
	if (dram_map_check(m, line_bytes) || !n)
		return -EINVAL;
	open = calloc(banks, sizeof(*open));
	window = calloc(banks, sizeof(*window));
	if (!open || !window) {
		free(open);
		free(window);
		return -ENOMEM;
	}
	c->in_flight = in_flight < 1 ? 1 : in_flight > n ? n : in_flight;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t bank, row;

		dram_locate(m, line_bytes, addr(ctx, i), &bank, &row);
		if (open[bank] == row + 1)
			c->hits++;
		else if (open[bank])
			c->conflicts++;
		else
			c->empty++;
		open[bank] = row + 1;
		busy += !window[bank]++;
		/* the request P back has completed: recomputed, not stored, so
		 * a window of a hundred million costs nothing */
		if (i >= c->in_flight)
			busy -= !--window[bank_of(m, line_bytes, addr, ctx, i - c->in_flight)];
		if (i + 1 >= c->in_flight)
			busy_sum += (double)busy;
	}
	c->requests = n;
	c->banks_busy_mean = busy_sum / (double)(n - c->in_flight + 1);
	free(open);
	free(window);
	return 0;
}

/* The controller's held requests, oldest first. */
struct held {
	uint64_t bank, row;
};

static void serve(struct dram_count *c, uint64_t *open, const struct held *h)
{
	if (open[h->bank] == h->row + 1)
		c->hits++;
	else if (open[h->bank])
		c->conflicts++;
	else
		c->empty++;
	open[h->bank] = h->row + 1;
}

int dram_count_reordered(const struct dram_map *m, uint64_t line_bytes, dram_addr_fn addr, const void *ctx,
			 uint64_t n, uint64_t window, struct dram_count *c)
{
	uint64_t banks = dram_banks(m), busy = 0, next = 0, nheld = 0;
	uint64_t *open, *per_bank;
	struct held *held;
	double busy_sum = 0;

	memset(c, 0, sizeof(*c));
	if (dram_map_check(m, line_bytes) || !n)
		return -EINVAL;
	c->in_flight = window < 1 ? 1 : window > DRAM_MAX_WINDOW ? DRAM_MAX_WINDOW : window;
	c->in_flight = c->in_flight > n ? n : c->in_flight;
	open = calloc(banks, sizeof(*open));
	per_bank = calloc(banks, sizeof(*per_bank));
	held = calloc(c->in_flight, sizeof(*held));
	if (!open || !per_bank || !held) {
		free(open);
		free(per_bank);
		free(held);
		return -ENOMEM;
	}
	for (uint64_t served = 0; served < n; served++) {
		uint64_t pick = 0;

		for (; nheld < c->in_flight && next < n; nheld++, next++) {
			dram_locate(m, line_bytes, addr(ctx, next), &held[nheld].bank, &held[nheld].row);
			busy += !per_bank[held[nheld].bank]++;
		}
		busy_sum += (double)busy;
		/* first ready: the oldest that hits its bank's open row */
		while (pick < nheld && open[held[pick].bank] != held[pick].row + 1)
			pick++;
		if (pick == nheld)
			pick = 0;
		serve(c, open, &held[pick]);
		busy -= !--per_bank[held[pick].bank];
		memmove(&held[pick], &held[pick + 1], (size_t)(nheld - pick - 1) * sizeof(*held));
		nheld--;
	}
	c->requests = n;
	c->banks_busy_mean = busy_sum / (double)n;
	free(open);
	free(per_bank);
	free(held);
	return 0;
}

double dram_seq_hit_model(const struct dram_map *m, uint64_t line_bytes, uint64_t lines)
{
	uint64_t banks = dram_banks(m), per_row = m->row_bytes / line_bytes, stripe = banks * per_row, opened;

	if (!lines)
		return NAN;
	/* every (bank, row) pair the walk touches is opened once and never
	 * reopened: `row` fills a row before moving on, `line` touches each
	 * bank's row once per stripe of banks x lines-per-row lines */
	if (m->interleave == DRAM_INTERLEAVE_ROW)
		opened = (lines + per_row - 1) / per_row;
	else
		opened = lines / stripe * banks + (lines % stripe < banks ? lines % stripe : banks);
	return 1.0 - (double)opened / (double)lines;
}

double dram_random_hit_model(const struct dram_map *m, uint64_t footprint_bytes)
{
	double f = (double)dram_banks(m) * (double)m->row_bytes / (double)footprint_bytes;

	return f < 1 ? f : 1;
}

double dram_seq_banks_model(const struct dram_map *m, uint64_t line_bytes, uint64_t in_flight)
{
	double banks = (double)dram_banks(m), p = (double)in_flight;
	double spread = m->interleave == DRAM_INTERLEAVE_LINE
				? p : 1.0 + (p - 1.0) / (double)(m->row_bytes / line_bytes);

	return spread < banks ? spread : banks;
}

double dram_random_banks_model(const struct dram_map *m, uint64_t in_flight)
{
	double banks = (double)dram_banks(m);

	return banks * (1.0 - pow(1.0 - 1.0 / banks, (double)in_flight));
}

const uint64_t dram_two_windows[DRAM_TWO_WINDOWS] = {2, 8, 32};

struct two_ctx {
	uint64_t line_bytes, base_b;
	bool both;
};

static uint64_t two_addr(const void *ctx, uint64_t i)
{
	const struct two_ctx *t = ctx;

	if (!t->both)
		return i * t->line_bytes;
	return (i & 1 ? t->base_b : 0) + (i / 2) * t->line_bytes;
}

int dram_two_streams(const struct dram_map *m, uint64_t line_bytes, uint64_t lines_each, struct dram_two_streams *t)
{
	uint64_t banks = dram_banks(m), span, stride;
	struct two_ctx ctx = {.line_bytes = line_bytes};
	int rc;

	memset(t, 0, sizeof(*t));
	if (dram_map_check(m, line_bytes) || !lines_each)
		return -EINVAL;
	/* banks x row bytes apart is the same bank, the next row, under either
	 * interleave; B starts past A's region so the two never share a row */
	stride = banks * m->row_bytes;
	span = lines_each * line_bytes;
	t->lines_each = lines_each;
	t->base_same_bytes = (span + stride - 1) / stride * stride;
	t->apart_possible = banks > 1;
	/* half the banks away (a bank's granule is a line or a row): the two
	 * walks move bank to bank in step, so they never meet in a bank in the
	 * same step */
	t->base_apart_bytes = t->base_same_bytes +
			      (banks / 2) * (m->interleave == DRAM_INTERLEAVE_LINE ? line_bytes : m->row_bytes);
	if ((rc = dram_count(m, line_bytes, two_addr, &ctx, lines_each, 1, &t->alone)))
		return rc;
	ctx.both = true;
	ctx.base_b = t->base_same_bytes;
	if ((rc = dram_count(m, line_bytes, two_addr, &ctx, 2 * lines_each, 2, &t->same_bank)))
		return rc;
	for (int w = 0; w < DRAM_TWO_WINDOWS; w++)
		if ((rc = dram_count_reordered(m, line_bytes, two_addr, &ctx, 2 * lines_each, dram_two_windows[w],
					       &t->same_bank_reordered[w])))
			return rc;
	if (!t->apart_possible)
		return 0;
	ctx.base_b = t->base_apart_bytes;
	return dram_count(m, line_bytes, two_addr, &ctx, 2 * lines_each, 2, &t->apart);
}
