/*
 * The queue model. Each accepted request completes at
 *   max(accept + L, previous completion + bytes / B),
 * i.e. it takes the full latency and the data path hands out one request's
 * bytes at a time. Both terms are monotone in acceptance order, so
 * completions are FIFO and the in-flight set is a ring, not a heap: the
 * model stays exact (no event-queue tie-breaking) and linear in requests.
 * Completions are processed before acceptances within a tick, as a freed
 * slot is reusable at once; the characteriser nets the two either way.
 */
#include "analyse/qmodel.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct inflight {
	double done;
	uint64_t chain;
};

static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

uint64_t qmodel_address(const struct qmodel_workload *w, uint64_t request_bytes, uint64_t i)
{
	/* scattered lines: a chase's next address is data, not arithmetic */
	if (w->feed == QMODEL_FEED_CHAINS)
		return (splitmix64(w->seed ^ (i * 0x100000001b3ull)) % QMODEL_CHAIN_LINES) * request_bytes;
	return i * request_bytes;
}

uint64_t qmodel_in_flight(const struct qmodel_memory *m, const struct qmodel_workload *w)
{
	uint64_t p = w->feed == QMODEL_FEED_CHAINS ? w->chains : w->requests;

	if (m->queue_cap > 0 && (uint64_t)m->queue_cap < p)
		p = (uint64_t)m->queue_cap;
	return p < w->requests ? p : w->requests;
}

static int qmodel_check(const struct qmodel_memory *m, const struct qmodel_workload *w)
{
	if (!(m->latency > 0) || !isfinite(m->latency) || !m->request_bytes)
		return -EINVAL;
	if (!(m->queue_cap >= 0) || m->queue_cap != floor(m->queue_cap) || m->queue_cap > 1e12)
		return -EINVAL;
	if (!(m->bytes_per_tick >= 0) || !isfinite(m->bytes_per_tick))
		return -EINVAL;
	if (!w->requests || (w->feed == QMODEL_FEED_CHAINS && !w->chains))
		return -EINVAL;
	if (w->feed != QMODEL_FEED_CHAINS && w->feed != QMODEL_FEED_STREAM)
		return -EINVAL;
	return 0;
}

int qmodel_run(const struct qmodel_memory *m, const struct qmodel_workload *w, struct qmodel_result *r)
{
	bool chains = w->feed == QMODEL_FEED_CHAINS;
	uint64_t nchains = chains ? w->chains : 1;
	uint64_t sources = chains ? (w->chains < w->requests ? w->chains : w->requests) : w->requests;
	uint64_t slots = m->queue_cap > 0 && (uint64_t)m->queue_cap < sources ? (uint64_t)m->queue_cap : sources;
	double xfer = m->bytes_per_tick > 0 ? (double)m->request_bytes / m->bytes_per_tick : 0;
	struct inflight *ring = NULL;
	uint64_t *remaining = NULL, *ready = NULL;
	uint64_t head = 0, inflight = 0, ready_head = 0, nready = 0, issued = 0, stream_next = 0;
	double t = 0, bus = 0;
	struct charz cz;
	int rc;

	rc = qmodel_check(m, w);
	if (rc)
		return rc;
	memset(r, 0, sizeof(*r));
	ring = calloc(slots, sizeof(*ring));
	if (chains) {
		remaining = calloc(nchains, sizeof(*remaining));
		ready = calloc(nchains, sizeof(*ready));
	}
	if (!ring || (chains && (!remaining || !ready))) {
		rc = -ENOMEM;
		goto out;
	}
	/* The characteriser's capacity is what the memory system could hold:
	 * Q, or every source when Q is unlimited. */
	rc = charz_init(&cz, m->queue_cap > 0 ? (uint64_t)m->queue_cap : sources, m->request_bytes, 0);
	if (rc)
		goto out;
	if (chains) {
		for (uint64_t c = 0; c < nchains; c++) {
			remaining[c] = w->requests / nchains + (c < w->requests % nchains);
			if (remaining[c])
				ready[nready++] = c;
		}
	}
	for (;;) {
		while (inflight < slots && (chains ? nready > 0 : stream_next < w->requests)) {
			uint64_t chain = 0, addr;
			struct inflight *f;
			double done;

			if (chains) {
				chain = ready[ready_head];
				ready_head = (ready_head + 1) % nchains;
				nready--;
				remaining[chain]--;
			} else {
				stream_next++;
			}
			addr = qmodel_address(w, m->request_bytes, issued);
			issued++;
			charz_arrive(&cz, t, addr, m->request_bytes, false);
			done = t + m->latency;
			if (bus + xfer > done)
				done = bus + xfer;
			bus = done;
			f = &ring[(head + inflight) % slots];
			f->done = done;
			f->chain = chain;
			inflight++;
		}
		if (!inflight)
			break;
		t = ring[head].done;
		while (inflight && ring[head].done == t) {
			uint64_t chain = ring[head].chain;

			charz_complete(&cz, t);
			head = (head + 1) % slots;
			inflight--;
			if (chains && remaining[chain]) {
				ready[(ready_head + nready) % nchains] = chain;
				nready++;
			}
		}
	}
	r->makespan = t;
	r->per_request = t / (double)w->requests;
	rc = charz_summarise(&cz, t, &r->seen);
out:
	free(ring);
	free(remaining);
	free(ready);
	return rc;
}

void qmodel_bound_at(const struct qmodel_memory *m, double k, double rel_tolerance, struct qmodel_bound *b)
{
	memset(b, 0, sizeof(*b));
	b->term[QMODEL_TERM_LATENCY] = k > 0 ? m->latency / k : 0;
	b->term[QMODEL_TERM_CONCURRENCY] = m->queue_cap > 0 ? m->latency / m->queue_cap : 0;
	b->term[QMODEL_TERM_BANDWIDTH] = m->bytes_per_tick > 0 ? (double)m->request_bytes / m->bytes_per_tick : 0;
	b->binding = QMODEL_TERM_LATENCY;
	for (int i = 1; i < QMODEL_NTERMS; i++)
		if (b->term[i] > b->term[b->binding])
			b->binding = (enum qmodel_term)i;
	b->bound = b->term[b->binding];
	for (int i = 0; i < QMODEL_NTERMS; i++)
		if (b->bound > 0 && b->term[i] >= b->bound * (1.0 - rel_tolerance))
			b->tied_mask |= 1u << i;
}

const char *qmodel_term_name(enum qmodel_term t)
{
	static const char *const names[QMODEL_NTERMS] = {
		[QMODEL_TERM_LATENCY] = "latency", [QMODEL_TERM_CONCURRENCY] = "concurrency",
		[QMODEL_TERM_BANDWIDTH] = "bandwidth",
	};

	return (unsigned)t < QMODEL_NTERMS ? names[t] : "?";
}

void qmodel_bound_names(const struct qmodel_bound *b, char *buf, unsigned buflen)
{
	size_t used = 0;

	if (!buflen)
		return;
	buf[0] = 0;
	if (!b->tied_mask) {
		snprintf(buf, buflen, "none (no term known)");
		return;
	}
	for (int i = 0; i < QMODEL_NTERMS; i++) {
		if (!(b->tied_mask & (1u << i)))
			continue;
		int n = snprintf(buf + used, buflen - used, "%s%s", used ? "+" : "", qmodel_term_name((enum qmodel_term)i));

		if (n < 0 || (size_t)n >= buflen - used)
			return;
		used += (size_t)n;
	}
}

int qmodel_compare_chase_stream(const struct qmodel_memory *m, uint64_t reads, struct qmodel_comparison *c)
{
	struct qmodel_workload chase = {.feed = QMODEL_FEED_CHAINS, .chains = 1, .requests = reads, .seed = 1};
	struct qmodel_workload stream = {.feed = QMODEL_FEED_STREAM, .requests = reads};
	int rc;

	memset(c, 0, sizeof(*c));
	rc = qmodel_run(m, &chase, &c->chase);
	if (rc)
		return rc;
	rc = qmodel_run(m, &stream, &c->stream);
	if (rc)
		return rc;
	qmodel_bound_at(m, 1, 0, &c->chase_bound);
	qmodel_bound_at(m, 0, 0, &c->stream_bound);
	c->slowdown = c->stream.makespan > 0 ? c->chase.makespan / c->stream.makespan : NAN;
	return 0;
}

const char *qmodel_flag_unarmable(unsigned flag)
{
	switch (flag) {
	case CHARZ_FLAG_OVERFLOW:
		return "the model accepts no more than its Q slots (or one per source) at once";
	case CHARZ_FLAG_COMPLETION_IDLE:
		return "the model completes only requests it accepted";
	case CHARZ_FLAG_TIME_BACKWARDS:
		return "the model's clock only moves forward";
	case CHARZ_FLAG_USED_EXCEEDS:
		return "the model reports no bytes used";
	default:
		return NULL;
	}
}

const char *qmodel_prop_unarmable(enum charz_prop p)
{
	switch (p) {
	case CHARZ_P5_UNDERFLOW_RECORDED:
		return qmodel_flag_unarmable(CHARZ_FLAG_COMPLETION_IDLE);
	case CHARZ_P11_USED_LE_DELIVERED:
	case CHARZ_P12_USED_STICKY:
		return qmodel_flag_unarmable(CHARZ_FLAG_USED_EXCEEDS);
	case CHARZ_P13_FLAGS_STICKY:
		return "no flag can be raised (see the flags)";
	default:
		return NULL;
	}
}
