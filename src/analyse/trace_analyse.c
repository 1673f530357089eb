/*
 * The trace command. Reuse distance (distinct lines touched between two
 * touches of a line, the LRU stack distance) is computed with a Fenwick tree
 * over access times holding a 1 at each line's latest touch: the distance is
 * the count of marks after the line's previous touch, O(log n) per access.
 * When time outgrows the tree the marks are renumbered densely, so memory
 * follows the footprint, not the trace length. A fully-associative LRU cache
 * of C lines hits exactly when the distance is below C (Mattson's inclusion
 * property), so every size comes out of one pass.
 */
#include "analyse/trace_analyse.h"
#include "analyse/line_table.h"


#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_CHARS 128
#define FEN_INITIAL ((uint64_t)1 << 16)

static const uint64_t default_caches[] = {32u << 10, 512u << 10, 32u << 20};

struct line_entry {
	uint64_t key;        /* line number + 1; 0 marks an empty slot */
	uint64_t mask;       /* bytes of the line ever touched */
	uint64_t last;       /* time of the latest touch */
};

struct analyser {
	struct trace_result *r;
	struct line_entry *tab;
	size_t tab_cap, tab_used;
	uint32_t *fen;       /* 1-based Fenwick tree over times [0, fen_cap) */
	uint64_t fen_cap;
	uint64_t now;
	uint64_t cache_lines[TRACE_MAX_CACHES];
	struct charz cz;
	struct prefetch_model pf;
	bool have_req;
	uint64_t req_line;
	uint64_t req_mask;   /* bytes of req_line the current run touched */
	/* completion times of the requests in flight, oldest first: every
	 * request takes the same L, so they complete in issue order */
	double *pending;
	size_t pending_cap, pending_head, pending_n;
	double latency;
};

/* Complete, in time order, every request due by t: the characteriser
 * takes events in time order. */
static void complete_due(struct analyser *a, double t)
{
	while (a->pending_n && a->pending[a->pending_head] <= t) {
		charz_complete(&a->cz, a->pending[a->pending_head]);
		a->pending_head = (a->pending_head + 1) % a->pending_cap;
		a->pending_n--;
	}
}

static int pending_push(struct analyser *a, double done)
{
	if (a->pending_n == a->pending_cap) {
		size_t cap = a->pending_cap ? 2 * a->pending_cap : 64;
		double *p = malloc(cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		for (size_t i = 0; i < a->pending_n; i++)
			p[i] = a->pending[(a->pending_head + i) % a->pending_cap];
		free(a->pending);
		a->pending = p;
		a->pending_cap = cap;
		a->pending_head = 0;
	}
	a->pending[(a->pending_head + a->pending_n++) % a->pending_cap] = done;
	return 0;
}

static void fen_add(struct analyser *a, uint64_t pos, int32_t delta)
{
	for (uint64_t i = pos + 1; i <= a->fen_cap; i += i & -i)
		a->fen[i] = (uint32_t)((int64_t)a->fen[i] + delta);
}

/* Marks at times [0, n). */
static uint64_t fen_prefix(const struct analyser *a, uint64_t n)
{
	uint64_t s = 0;

	for (uint64_t i = n; i > 0; i -= i & -i)
		s += a->fen[i];
	return s;
}

/* Renumber the latest-touch times 0..D-1 in their order, then rebuild the
 * tree: distances depend only on the order of marks, not their values. */
static int fen_compact(struct analyser *a)
{
	uint64_t d = a->tab_used, cap = a->fen_cap, rank = 0;
	uint32_t *order = calloc(cap, sizeof(*order)), *nf;

	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < a->tab_cap; i++)
		if (a->tab[i].key)
			order[a->tab[i].last] = 1;
	for (uint64_t t = 0; t < cap; t++)
		if (order[t])
			order[t] = (uint32_t)++rank;
	for (size_t i = 0; i < a->tab_cap; i++)
		if (a->tab[i].key)
			a->tab[i].last = order[a->tab[i].last] - 1;
	free(order);
	while (2 * d > cap)
		cap *= 2;
	nf = realloc(a->fen, (cap + 1) * sizeof(*nf));
	if (!nf)
		return -ENOMEM;
	a->fen = nf;
	a->fen_cap = cap;
	memset(a->fen, 0, (cap + 1) * sizeof(*nf));
	for (uint64_t i = 1; i <= d; i++)
		a->fen[i] = 1;
	for (uint64_t i = 1; i <= cap; i++) {
		uint64_t j = i + (i & -i);

		if (j <= cap)
			a->fen[j] += a->fen[i];
	}
	a->now = d;
	return 0;
}

static unsigned hist_bucket(uint64_t d)
{
	return d ? 64u - (unsigned)__builtin_clzll(d) : 0;
}

static int touch_line(struct analyser *a, uint64_t line, uint64_t mask, bool is_write)
{
	struct trace_result *r = a->r;
	struct line_entry *e;
	size_t slot;
	int rc;

	if (a->now == a->fen_cap) {
		rc = fen_compact(a);
		if (rc)
			return rc;
	}
	if (2 * (a->tab_used + 1) > a->tab_cap) {
		struct line_entry *tab = line_table_grow(a->tab, &a->tab_cap, sizeof(*a->tab));

		if (!tab)
			return -ENOMEM;
		a->tab = tab;
	}
	slot = line_table_slot(a->tab, sizeof(*a->tab), a->tab_cap, line + 1);
	e = &a->tab[slot];
	r->touches++;
	if (!e->key) {
		e->key = line + 1;
		a->tab_used++;
		r->cold++;
	} else {
		uint64_t d = fen_prefix(a, a->now) - fen_prefix(a, e->last + 1);

		r->reuse_hist[hist_bucket(d)]++;
		for (size_t i = 0; i < r->ncaches; i++)
			if (d < a->cache_lines[i])
				r->cache_hits[i]++;
		fen_add(a, e->last, -1);
	}
	if ((rc = prefetch_touch(&a->pf, line)))
		return rc;
	e->mask |= mask;
	e->last = a->now;
	fen_add(a, a->now, 1);
	a->now++;
	/* One request per change of line: a cache asks memory once for the
	 * line however many accesses then hit it. It issues at the current
	 * tick and stays outstanding L ticks (the stated timing model). */
	if (!a->have_req || line != a->req_line) {
		double t = (double)r->instr;

		if (a->have_req)
			charz_report_used(&a->cz, (uint64_t)__builtin_popcountll(a->req_mask));
		complete_due(a, t);
		charz_arrive(&a->cz, t, line * TRACE_LINE_BYTES, TRACE_LINE_BYTES, is_write);
		if ((rc = pending_push(a, t + a->latency)))
			return rc;
		a->have_req = true;
		a->req_line = line;
		a->req_mask = 0;
	}
	a->req_mask |= mask;
	return 0;
}

static int trace_access(struct analyser *a, uint64_t addr, uint64_t size, bool is_write)
{
	uint64_t end = addr + size - 1 < addr ? UINT64_MAX : addr + size - 1;
	uint64_t first = addr / TRACE_LINE_BYTES, last = end / TRACE_LINE_BYTES;

	for (uint64_t line = first;; line++) {
		unsigned lo = line == first ? (unsigned)(addr % TRACE_LINE_BYTES) : 0;
		unsigned hi = line == last ? (unsigned)(end % TRACE_LINE_BYTES) : TRACE_LINE_BYTES - 1;
		uint64_t mask = (~0ull >> (63 - hi)) & (~0ull << lo);
		int rc = touch_line(a, line, mask, is_write);

		if (rc)
			return rc;
		if (line == last)
			return 0;
	}
}

/* Lackey's record forms: "I  addr,size" and " L|S|M addr,size", addr in
 * hex without 0x, size in decimal. Anything else is malformed. */
static bool parse_record(const char *s, size_t n, char *kind, uint64_t *addr, uint64_t *size)
{
	size_t i = 3, digits;
	uint64_t v = 0;

	if (n < 3)
		return false;
	if (s[0] == 'I' && s[1] == ' ' && s[2] == ' ')
		*kind = 'I';
	else if (s[0] == ' ' && (s[1] == 'L' || s[1] == 'S' || s[1] == 'M') && s[2] == ' ')
		*kind = s[1];
	else
		return false;
	for (digits = 0; i < n && s[i] != ','; i++, digits++) {
		char c = s[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return false;
		if (digits == 16)
			return false;
		v = v << 4 | d;
	}
	if (!digits || i >= n)
		return false;
	*addr = v;
	v = 0;
	for (i++, digits = 0; i < n; i++, digits++) {
		if (s[i] < '0' || s[i] > '9' || digits == 5)
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (!digits || !v || v > TRACE_MAX_ACCESS_BYTES)
		return false;
	*size = v;
	return true;
}

static void note_bad(struct trace_result *r, const char *s, size_t n)
{
	if (r->malformed < TRACE_BAD_REPORTED) {
		struct trace_bad_line *b = &r->bad[r->malformed];
		size_t k = n < sizeof(b->text) - 1 ? n : sizeof(b->text) - 1;

		b->line_no = r->lines;
		for (size_t i = 0; i < k; i++)
			b->text[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
		b->text[k] = 0;
	}
	r->malformed++;
}

static int trace_line(struct analyser *a, const char *s, size_t n, bool too_long)
{
	struct trace_result *r = a->r;
	uint64_t addr, size;
	char kind;

	r->lines++;
	if (n >= 2 && s[0] == '=' && s[1] == '=') {
		r->valgrind_lines++;
		return 0;
	}
	if (too_long || !parse_record(s, n, &kind, &addr, &size)) {
		note_bad(r, s, n);
		return 0;
	}
	switch (kind) {
	case 'I':
		r->instr++;
		return 0;
	case 'L':
		r->loads++;
		return trace_access(a, addr, size, false);
	case 'S':
		r->stores++;
		return trace_access(a, addr, size, true);
	default:
		/* a modify reads then writes the same bytes: one touch, dirty */
		r->modifies++;
		return trace_access(a, addr, size, true);
	}
}

int trace_analyse(FILE *f, const struct trace_params *p, struct trace_result *r, char *err, size_t errlen)
{
	struct analyser a = {.r = r};
	const uint64_t *caches = p && p->cache_bytes ? p->cache_bytes : default_caches;
	size_t ncaches = p && p->cache_bytes ? p->ncaches : sizeof(default_caches) / sizeof(default_caches[0]);
	char buf[LINE_MAX_CHARS];
	size_t n = 0;
	bool too_long = false;
	int c, rc;

	memset(r, 0, sizeof(*r));
	if (!ncaches || ncaches > TRACE_MAX_CACHES) {
		snprintf(err, errlen, "between 1 and %d cache sizes", TRACE_MAX_CACHES);
		return -EINVAL;
	}
	r->ncaches = ncaches;
	a.latency = p && p->latency_ticks > 0 ? p->latency_ticks : TRACE_DEFAULT_LATENCY_TICKS;
	if (!isfinite(a.latency) || a.latency > 1e12) {
		snprintf(err, errlen, "request latency %g ticks is not a finite number up to 1e12", a.latency);
		return -EINVAL;
	}
	r->latency_ticks = a.latency;
	snprintf(r->latency_source, sizeof(r->latency_source), "%s", p && p->latency_ticks > 0 && p->latency_source ?
		 p->latency_source : "the textbook 200-cycle miss at one instruction record per cycle");
	for (size_t i = 0; i < ncaches; i++) {
		if (caches[i] < TRACE_LINE_BYTES) {
			snprintf(err, errlen, "cache size %llu is smaller than a line", (unsigned long long)caches[i]);
			return -EINVAL;
		}
		r->cache_bytes[i] = caches[i];
		a.cache_lines[i] = caches[i] / TRACE_LINE_BYTES;
	}
	/* capacity: without a queue the model caps nothing and every request
	 * is held; with one, what passes it is the characteriser's overflow */
	r->queue_cap = p ? p->queue_cap : 0;
	rc = charz_init(&a.cz, r->queue_cap ? r->queue_cap : UINT64_MAX, TRACE_LINE_BYTES, 0);
	if (rc)
		return rc;
	a.fen_cap = FEN_INITIAL;
	a.fen = calloc(a.fen_cap + 1, sizeof(*a.fen));
	a.tab = a.fen ? line_table_grow(NULL, &a.tab_cap, sizeof(*a.tab)) : NULL;
	rc = a.tab ? 0 : -ENOMEM;
	if (!rc)
		rc = prefetch_init(&a.pf);
	if (rc)
		goto out;
	while ((c = getc_unlocked(f)) != EOF) {
		if (c != '\n') {
			if (n < sizeof(buf))
				buf[n++] = (char)c;
			else
				too_long = true;
			continue;
		}
		rc = trace_line(&a, buf, n, too_long);
		if (rc)
			goto out;
		n = 0;
		too_long = false;
	}
	if (ferror(f)) {
		rc = -(errno ? errno : EIO);
		snprintf(err, errlen, "reading the trace failed: %s", strerror(-rc));
		goto out;
	}
	if (n || too_long) {
		r->ends_without_newline = true;
		rc = trace_line(&a, buf, n, too_long);
		if (rc)
			goto out;
	}
	r->distinct_lines = a.tab_used;
	for (size_t i = 0; i < a.tab_cap; i++)
		if (a.tab[i].key)
			r->bytes_touched += (uint64_t)__builtin_popcountll(a.tab[i].mask);
	r->ticks = r->instr;
	memcpy(r->prefetch, a.pf.f, sizeof(r->prefetch));
	{
		/* the window ends when the last request completes (or at the last
		 * tick when nothing was requested) */
		double end = a.pending_n ? a.pending[(a.pending_head + a.pending_n - 1) % a.pending_cap] : (double)r->instr;

		if (a.have_req)
			charz_report_used(&a.cz, (uint64_t)__builtin_popcountll(a.req_mask));
		complete_due(&a, end);
		rc = charz_summarise(&a.cz, end, &r->requests);
	}
out:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory analysing the trace");
	free(a.fen);
	free(a.tab);
	free(a.pending);
	prefetch_free(&a.pf);
	return rc;
}

const char *trace_flag_unarmable(const struct trace_result *r, unsigned flag)
{
	switch (flag) {
	case CHARZ_FLAG_OVERFLOW:
		return r->queue_cap ? NULL : "the capacity is unlimited (--queue Q sets one)";
	case CHARZ_FLAG_COMPLETION_IDLE:
		return r->queue_cap ? NULL : "every completion is of a request the characteriser holds (with --queue Q, "
					     "a request dropped past Q still completes)";
	case CHARZ_FLAG_TIME_BACKWARDS:
		return "the model emits its events in time order";
	case CHARZ_FLAG_USED_EXCEEDS:
		return "a request's used bytes lie in its own line, which it delivered";
	default:
		return NULL;
	}
}

const char *trace_prop_unarmable(const struct trace_result *r, enum charz_prop p)
{
	switch (p) {
	case CHARZ_P1_BOUNDED:
	case CHARZ_P7_AVERAGE_FEASIBLE:
		return r->queue_cap ? NULL : "true by construction: the capacity is unlimited (--queue Q sets one)";
	case CHARZ_P5_UNDERFLOW_RECORDED:
		return trace_flag_unarmable(r, CHARZ_FLAG_COMPLETION_IDLE);
	case CHARZ_P13_FLAGS_STICKY:
		return r->queue_cap ? NULL : "no flag can be raised without --queue Q (see the flags)";
	default:
		return NULL;
	}
}
