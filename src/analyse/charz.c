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

/* The view of the current tick the property checks take; after, the
 * high-water mark and the flags are filled by the caller. */
static struct charz_tick_view tick_view(const struct charz *c)
{
	return (struct charz_tick_view){
		.capacity = c->capacity, .before = c->outstanding, .arrivals = c->tick_arrivals,
		.completions = c->tick_completions, .high_water_before = c->high_water,
		.area = c->area, .elapsed = c->now - c->t_begin,
	};
}

static void tick_apply(struct charz *c)
{
	struct charz_tick_view v = tick_view(c);
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
	v.after = c->outstanding;
	v.high_water_after = c->high_water;
	v.completion_idle_after = c->flags & CHARZ_FLAG_COMPLETION_IDLE;
	charz_props_tick(&c->mon, &v);
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
	unsigned flags_before = c->flags;
	struct charz_arrival_view v = {.is_write = is_write};

	charz_advance(c, t);
	v.requests_before = c->requests;
	v.reads_before = c->reads;
	v.writes_before = c->writes;
	v.regular_before = c->stride_regular;
	v.classified_now = c->requests >= 2;
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
	v.requests_after = c->requests;
	v.reads_after = c->reads;
	v.writes_after = c->writes;
	v.classified_after = c->stride_classified;
	v.regular_after = c->stride_regular;
	charz_props_arrival(&c->mon, &v);
	charz_props_sticky(&c->mon, c->used_reported, c->used_reported, flags_before, c->flags);
}

void charz_complete(struct charz *c, double t)
{
	unsigned flags_before = c->flags;

	charz_advance(c, t);
	c->tick_completions++;
	c->completions++;
	charz_props_completion(&c->mon);
	charz_props_sticky(&c->mon, c->used_reported, c->used_reported, flags_before, c->flags);
}

void charz_report_used(struct charz *c, uint64_t bytes)
{
	unsigned flags_before = c->flags;
	bool reported_before = c->used_reported;

	c->used_reported = true;
	c->used_bytes += bytes;
	if (c->used_bytes > c->delivered_bytes) {
		c->flags |= CHARZ_FLAG_USED_EXCEEDS;
		c->used_bytes = c->delivered_bytes;
	}
	charz_props_used(&c->mon, c->used_reported, c->used_bytes, c->delivered_bytes);
	charz_props_sticky(&c->mon, reported_before, c->used_reported, flags_before, c->flags);
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
	s->mon = c->mon;
	/* The tick still open is part of the window: its checks count too. */
	if (c->tick_arrivals || c->tick_completions) {
		struct charz_tick_view v = tick_view(c);

		v.after = last;
		v.high_water_after = s->high_water;
		v.completion_idle_after = s->flags & CHARZ_FLAG_COMPLETION_IDLE;
		charz_props_tick(&s->mon, &v);
		charz_props_sticky(&s->mon, c->used_reported, c->used_reported, c->flags, s->flags);
	}
	return 0;
}
