/*
 * The request-stream characteriser. Counting is per tick: events with one
 * timestamp accumulate, and the net change is applied when time moves on
 * (or when a summary looks), which is what makes "arrive and complete in the
 * same tick" a no-op regardless of call order. The time average is kept as
 * an integral (count x duration) so it is exact for integer-valued times;
 * nothing here matches completions to arrivals, because the memory systems
 * it describes complete out of order and the averages do not need identity.
 */
#include "analyse/charz.h"

#include <errno.h>
#include <math.h>
#include <string.h>

int charz_init(struct charz *c, uint64_t capacity, uint64_t line_bytes, double t_begin)
{
	if (!capacity || !line_bytes || !isfinite(t_begin))
		return -EINVAL;
	memset(c, 0, sizeof(*c));
	c->capacity = capacity;
	c->line_bytes = line_bytes;
	c->t_begin = t_begin;
	c->now = t_begin;
	return 0;
}

/* The count the current tick leaves, clamped into [0, capacity]; *flags gets
 * what the clamping found and *dropped / *unmatched the excess. */
static uint64_t tick_result(const struct charz *c, unsigned *flags, uint64_t *dropped, uint64_t *unmatched)
{
	uint64_t up = c->outstanding + c->tick_arrivals;

	*flags = 0;
	*dropped = 0;
	*unmatched = 0;
	if (c->tick_completions > up) {
		*flags |= CHARZ_FLAG_COMPLETION_IDLE;
		*unmatched = c->tick_completions - up;
		return 0;
	}
	up -= c->tick_completions;
	if (up > c->capacity) {
		*flags |= CHARZ_FLAG_OVERFLOW;
		*dropped = up - c->capacity;
		return c->capacity;
	}
	return up;
}

static void tick_apply(struct charz *c)
{
	unsigned f;
	uint64_t dropped, unmatched;

	c->outstanding = tick_result(c, &f, &dropped, &unmatched);
	c->flags |= f;
	c->dropped += dropped;
	c->unmatched += unmatched;
	if (c->outstanding > c->high_water)
		c->high_water = c->outstanding;
	c->tick_arrivals = 0;
	c->tick_completions = 0;
}

/* Move to time t: close the current tick and integrate the count it left
 * over the gap. An older timestamp is folded into the current tick, since
 * integrating a negative duration would subtract occupancy that happened. */
static void charz_advance(struct charz *c, double t)
{
	if (!(t >= c->now)) {           /* also catches NaN */
		c->flags |= CHARZ_FLAG_TIME_BACKWARDS;
		return;
	}
	if (t == c->now)
		return;
	tick_apply(c);
	c->area += (double)c->outstanding * (t - c->now);
	c->now = t;
}

void charz_arrive(struct charz *c, double t, uint64_t addr, uint64_t bytes, bool is_write)
{
	uint64_t line = addr / c->line_bytes;

	charz_advance(c, t);
	c->tick_arrivals++;
	c->requests++;
	if (is_write)
		c->writes++;
	else
		c->reads++;
	c->delivered_bytes += bytes;
	/* A request can only be called regular against a delta that itself
	 * needed two requests to exist: the first request has no delta, the
	 * second has one but nothing to repeat. */
	if (c->requests >= 2) {
		int64_t delta = (int64_t)(line - c->prev_line);

		if (c->requests >= 3) {
			c->stride_classified++;
			if (delta == c->prev_delta)
				c->stride_regular++;
		}
		c->prev_delta = delta;
	}
	c->prev_line = line;
}

void charz_complete(struct charz *c, double t)
{
	charz_advance(c, t);
	c->tick_completions++;
	c->completions++;
}

void charz_report_used(struct charz *c, uint64_t bytes)
{
	c->used_reported = true;
	c->used_bytes += bytes;
	if (c->used_bytes > c->delivered_bytes) {
		c->flags |= CHARZ_FLAG_USED_EXCEEDS;
		c->used_bytes = c->delivered_bytes;
	}
}

uint64_t charz_outstanding(const struct charz *c)
{
	unsigned f;
	uint64_t dropped, unmatched;

	return tick_result(c, &f, &dropped, &unmatched);
}

int charz_summarise(const struct charz *c, double t_end, struct charz_summary *s)
{
	unsigned f;
	uint64_t dropped, unmatched, last;
	double window;

	if (!(t_end >= c->now))
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	last = tick_result(c, &f, &dropped, &unmatched);
	window = t_end - c->t_begin;
	s->has_data = window > 0;
	s->window = window;
	s->mean_outstanding = s->has_data ? (c->area + (double)last * (t_end - c->now)) / window : NAN;
	s->high_water = last > c->high_water ? last : c->high_water;
	s->outstanding_at_end = last;
	s->requests = c->requests;
	s->reads = c->reads;
	s->writes = c->writes;
	s->completions = c->completions;
	s->dropped = c->dropped + dropped;
	s->unmatched = c->unmatched + unmatched;
	s->stride_classified = c->stride_classified;
	s->stride_regular = c->stride_regular;
	s->stride_regular_fraction = c->stride_classified ?
		(double)c->stride_regular / (double)c->stride_classified : NAN;
	s->delivered_bytes = c->delivered_bytes;
	s->used_reported = c->used_reported;
	s->used_bytes = c->used_bytes;
	s->used_fraction = c->used_reported && c->delivered_bytes ?
		(double)c->used_bytes / (double)c->delivered_bytes : NAN;
	s->flags = c->flags | f;
	return 0;
}
