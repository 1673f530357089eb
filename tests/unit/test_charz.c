/*
 * The request-stream characteriser: its rules one by one, then 10,000 random
 * event streams checked against the invariants and against a reference that
 * computes the same figures another way (Little's-law sums of arrival and
 * departure times, a per-tick replay of the timeline, strides recomputed
 * from the list of lines). Two formulations agreeing is the evidence.
 */
#include "../harness.h"

#include "analyse/charz.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x853c49e6748fea9bull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static unsigned rnd_below(unsigned n)
{
	return (unsigned)(rnd() % n);
}

TEST(charz_zero_length_window_is_no_data)
{
	struct charz c;
	struct charz_summary s;

	CHECK(charz_init(&c, 4, 64, 10) == 0, "init");
	CHECK(charz_summarise(&c, 10, &s) == 0, "summary");
	CHECK(!s.has_data && isnan(s.mean_outstanding) && isnan(s.stride_regular_fraction), "idle: no data, not zero");
	charz_arrive(&c, 10, 0, 64, false);
	charz_complete(&c, 10);
	CHECK(charz_summarise(&c, 10, &s) == 0 && !s.has_data && isnan(s.mean_outstanding),
	      "events but zero length: still no data (mean %g)", s.mean_outstanding);
	CHECK(s.requests == 1, "the request is still counted");
	CHECK(charz_summarise(&c, 9, &s) == -EINVAL, "a window ending before its last event is refused");
	CHECK(charz_init(&c, 0, 64, 0) == -EINVAL && charz_init(&c, 1, 0, 0) == -EINVAL, "capacity and line > 0");
}

TEST(charz_time_average_and_high_water)
{
	struct charz c;
	struct charz_summary s;

	charz_init(&c, 8, 64, 0);
	charz_arrive(&c, 0, 0, 64, false);   /* 1 outstanding over [0,10) */
	charz_arrive(&c, 10, 64, 64, false); /* 2 over [10,20) */
	charz_arrive(&c, 10, 128, 64, true); /* 3 */
	charz_complete(&c, 20);
	charz_complete(&c, 20);
	charz_complete(&c, 30);              /* 1 over [20,30), 0 over [30,40) */
	CHECK(charz_summarise(&c, 40, &s) == 0, "summary");
	CHECK(s.mean_outstanding == (10.0 * 1 + 10 * 3 + 10 * 1) / 40, "mean %g", s.mean_outstanding);
	CHECK(s.high_water == 3 && s.outstanding_at_end == 0, "hwm %llu", (unsigned long long)s.high_water);
	CHECK(s.reads == 2 && s.writes == 1 && s.requests == 3 && s.completions == 3, "counts");
	CHECK(s.flags == 0, "no flags %#x", s.flags);
}

TEST(charz_same_tick_arrival_and_completion_leave_the_count)
{
	struct charz c;

	for (int order = 0; order < 2; order++) {
		charz_init(&c, 2, 64, 0);
		charz_arrive(&c, 1, 0, 64, false);
		charz_arrive(&c, 1, 64, 64, false);
		CHECK(charz_outstanding(&c) == 2, "full");
		/* at capacity: complete-then-arrive and arrive-then-complete in one
		 * tick are the same tick, neither overflows nor underflows */
		if (order) {
			charz_arrive(&c, 5, 128, 64, false);
			charz_complete(&c, 5);
		} else {
			charz_complete(&c, 5);
			charz_arrive(&c, 5, 128, 64, false);
		}
		CHECK(charz_outstanding(&c) == 2, "order %d: count %llu", order, (unsigned long long)charz_outstanding(&c));
		charz_complete(&c, 6);
		CHECK(c.flags == 0, "order %d: flags %#x", order, c.flags);
	}
	charz_init(&c, 1, 64, 0);
	charz_complete(&c, 3);   /* a zero-latency request seen completion first */
	charz_arrive(&c, 3, 0, 64, false);
	CHECK(charz_outstanding(&c) == 0, "zero-latency request");
	charz_arrive(&c, 4, 0, 64, false);
	CHECK(c.flags == 0, "no completion-while-idle for a same-tick pair: %#x", c.flags);
}

TEST(charz_stride_needs_two_earlier_requests)
{
	struct charz c;
	struct charz_summary s;

	charz_init(&c, 16, 64, 0);
	charz_arrive(&c, 0, 0, 64, false);
	charz_arrive(&c, 1, 64, 64, false);
	charz_summarise(&c, 2, &s);
	CHECK(s.stride_classified == 0 && isnan(s.stride_regular_fraction), "two requests: nothing classified");
	charz_arrive(&c, 2, 128 + 7, 64, false);   /* same line delta (+1) within a line */
	charz_arrive(&c, 3, 64 * 9, 64, false);    /* +7: irregular */
	charz_arrive(&c, 4, 64 * 16, 64, false);   /* +7 again: regular */
	charz_arrive(&c, 5, 64 * 15, 64, false);   /* -1: irregular */
	charz_summarise(&c, 6, &s);
	CHECK(s.stride_classified == 4 && s.stride_regular == 2, "classified %llu regular %llu",
	      (unsigned long long)s.stride_classified, (unsigned long long)s.stride_regular);
	CHECK(s.stride_regular_fraction == 0.5, "fraction %g", s.stride_regular_fraction);
}

TEST(charz_used_never_reported_is_not_zero_used)
{
	struct charz c;
	struct charz_summary s;

	charz_init(&c, 4, 64, 0);
	charz_arrive(&c, 0, 0, 64, false);
	charz_complete(&c, 1);
	charz_summarise(&c, 1, &s);
	CHECK(!s.used_reported && isnan(s.used_fraction), "never reported: unknown");
	charz_report_used(&c, 0);
	charz_summarise(&c, 1, &s);
	CHECK(s.used_reported && s.used_bytes == 0 && s.used_fraction == 0, "reported zero: zero");
	charz_report_used(&c, 16);
	charz_summarise(&c, 1, &s);
	CHECK(s.used_fraction == 0.25, "16 of 64: %g", s.used_fraction);
}

TEST(charz_flags_are_sticky)
{
	struct charz c;
	struct charz_summary s;

	charz_init(&c, 1, 64, 0);
	charz_arrive(&c, 0, 0, 64, false);
	charz_arrive(&c, 0, 64, 64, false);
	CHECK(charz_outstanding(&c) == 1, "held at capacity");
	charz_complete(&c, 1);
	CHECK(c.flags & CHARZ_FLAG_OVERFLOW, "overflow raised when the tick closed");
	charz_complete(&c, 2);   /* the dropped request's completion: nothing outstanding */
	charz_arrive(&c, 3, 0, 64, false);
	charz_complete(&c, 4);
	charz_arrive(&c, 3, 0, 64, false);   /* older than the current tick: folded into it */
	charz_complete(&c, 5);
	charz_report_used(&c, 1000);
	charz_arrive(&c, 9, 0, 64, false);
	charz_complete(&c, 10);
	charz_summarise(&c, 20, &s);
	CHECK(s.flags == (CHARZ_FLAG_OVERFLOW | CHARZ_FLAG_COMPLETION_IDLE | CHARZ_FLAG_TIME_BACKWARDS |
			  CHARZ_FLAG_USED_EXCEEDS), "all four stay set after clean events: %#x", s.flags);
	CHECK(s.dropped == 1 && s.unmatched == 1, "dropped %llu unmatched %llu", (unsigned long long)s.dropped,
	      (unsigned long long)s.unmatched);
	CHECK(s.used_bytes <= s.delivered_bytes, "used held at delivered");
}

/* ---- random streams against the reference ---- */

struct ev {
	double t;
	int kind;            /* 0 arrival, 1 completion */
	uint64_t addr, bytes;
	bool write;
	unsigned tie;        /* random order inside a tick */
};

static int ev_cmp(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->tie < y->tie ? -1 : x->tie > y->tie;
}

#define MAX_REQ 48
#define MAX_EV (2 * MAX_REQ + 4 + 2 * 2 * MAX_REQ)

struct reference {
	double area;          /* Little's law: sum of (t_end - a) minus sum of (t_end - d) */
	uint64_t high_water;
	int first_anomaly;    /* 0 none, 1 overflow, 2 completion with nothing outstanding */
	uint64_t classified, regular, reads, writes, delivered;
};

/* The timeline replayed tick by tick from the recorded times, without the
 * module's clamping: the reference is only compared before an anomaly. */
static void reference_compute(const struct ev *e, size_t n, uint64_t cap, double t_end, struct reference *ref)
{
	int64_t count = 0;
	uint64_t lines[MAX_EV];
	size_t nl = 0;

	memset(ref, 0, sizeof(*ref));
	for (size_t i = 0; i < n; i++) {
		if (e[i].kind == 0) {
			ref->area += t_end - e[i].t;
			lines[nl++] = e[i].addr / 64;
			ref->delivered += e[i].bytes;
			if (e[i].write)
				ref->writes++;
			else
				ref->reads++;
		} else {
			ref->area -= t_end - e[i].t;
		}
	}
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && e[j].t == e[i].t) {
			count += e[j].kind == 0 ? 1 : -1;
			j++;
		}
		if (!ref->first_anomaly && count > (int64_t)cap)
			ref->first_anomaly = 1;
		if (!ref->first_anomaly && count < 0)
			ref->first_anomaly = 2;
		if (!ref->first_anomaly && (uint64_t)count > ref->high_water)
			ref->high_water = (uint64_t)count;
		i = j;
	}
	for (size_t i = 2; i < nl; i++) {
		ref->classified++;
		if (lines[i] - lines[i - 1] == lines[i - 1] - lines[i - 2])
			ref->regular++;
	}
}

TEST(charz_random_streams_hold_invariants_and_match_reference)
{
	static struct ev e[MAX_EV];
	unsigned agreed = 0, anomalies = 0, no_data = 0;
	uint64_t armed[CHARZ_NPROPS] = {0}, covered[CHARZ_NCOVERS] = {0};

	for (int stream = 0; stream < 10000; stream++) {
		uint64_t cap = 1 + rnd_below(12);
		unsigned nreq = rnd_below(MAX_REQ + 1);
		bool zero_window = rnd_below(25) == 0;
		bool strided = rnd_below(3) == 0;
		double t_begin = zero_window ? 50 : rnd_below(5), t_end;
		size_t n = 0;
		struct charz c;
		struct charz_summary s;
		struct reference ref;
		unsigned prev_flags = 0;
		uint64_t used_sum = 0;
		bool used_reported = false;

		for (unsigned i = 0; i < nreq; i++) {
			double a = zero_window ? t_begin : t_begin + rnd_below(60);
			double lat = zero_window ? 0 : rnd_below(25);
			uint64_t addr = strided ? 4096 + (uint64_t)i * 64 * 3 + rnd_below(64) : rnd() % (1u << 20);

			if (strided && rnd_below(8) == 0)
				addr = rnd() % (1u << 20);
			e[n++] = (struct ev){a, 0, addr, 1 + rnd_below(128), rnd_below(3) == 0, (unsigned)rnd()};
			/* a few requests never complete inside the window */
			if (zero_window || rnd_below(10))
				e[n++] = (struct ev){a + lat, 1, 0, 0, false, (unsigned)rnd()};
		}
		if (!zero_window && rnd_below(20) == 0)   /* a stray completion */
			e[n++] = (struct ev){t_begin + rnd_below(80), 1, 0, 0, false, (unsigned)rnd()};
		qsort(e, n, sizeof(e[0]), ev_cmp);
		t_end = zero_window ? t_begin : t_begin + 90 + rnd_below(10);

		CHECK(charz_init(&c, cap, 64, t_begin) == 0, "init");
		for (size_t i = 0; i < n; i++) {
			if (e[i].kind == 0)
				charz_arrive(&c, e[i].t, e[i].addr, e[i].bytes, e[i].write);
			else
				charz_complete(&c, e[i].t);
			CHECK(charz_outstanding(&c) <= cap, "stream %d: outstanding %llu > capacity %llu", stream,
			      (unsigned long long)charz_outstanding(&c), (unsigned long long)cap);
			CHECK((c.flags & prev_flags) == prev_flags, "stream %d: a flag was cleared", stream);
			prev_flags = c.flags;
			/* an arrival and a completion injected into this tick */
			if (rnd_below(6) == 0 && n + 2 <= MAX_EV) {
				uint64_t before = charz_outstanding(&c);

				charz_arrive(&c, e[i].t, e[i].addr, 64, false);
				charz_complete(&c, e[i].t);
				CHECK(charz_outstanding(&c) == before, "stream %d: same-tick pair moved the count", stream);
				/* record the pair for the reference, right after event i */
				memmove(&e[i + 3], &e[i + 1], (n - i - 1) * sizeof(e[0]));
				e[i + 1] = (struct ev){e[i].t, 0, e[i].addr, 64, false, 0};
				e[i + 2] = (struct ev){e[i].t, 1, 0, 0, false, 0};
				n += 2;
				i += 2;
			}
		}
		if (rnd_below(3) == 0) {
			uint64_t b = rnd_below(3) ? rnd_below(200) : 0;

			charz_report_used(&c, b);
			used_sum += b;
			used_reported = true;
		}
		CHECK(charz_summarise(&c, t_end, &s) == 0, "stream %d: summary", stream);
		reference_compute(e, n, cap, t_end, &ref);
		/* the module's own property monitor agrees that nothing broke */
		CHECK(!charz_props_failed_mask(&s.mon), "stream %d: properties failed %#x", stream,
		      charz_props_failed_mask(&s.mon));
		for (int p = 0; p < CHARZ_NPROPS; p++)
			armed[p] += s.mon.prop[p].armed;
		for (int k = 0; k < CHARZ_NCOVERS; k++)
			covered[k] += s.mon.cover[k];

		/* invariants */
		CHECK(s.high_water <= cap, "stream %d: hwm", stream);
		CHECK(!s.has_data || s.mean_outstanding <= (double)cap + 1e-9, "stream %d: mean %g > cap", stream,
		      s.mean_outstanding);
		CHECK(s.reads + s.writes == s.requests, "stream %d: reads+writes", stream);
		CHECK(s.stride_classified <= (s.requests > 2 ? s.requests - 2 : 0), "stream %d: classified", stream);
		CHECK(s.stride_regular <= s.stride_classified, "stream %d: regular", stream);
		CHECK(s.used_bytes <= s.delivered_bytes, "stream %d: used > delivered", stream);
		CHECK(s.used_reported == used_reported, "stream %d: used reported", stream);
		CHECK(s.has_data == !zero_window, "stream %d: has_data", stream);
		if (zero_window) {
			CHECK(isnan(s.mean_outstanding), "stream %d: zero window gives a number", stream);
			no_data++;
		}
		/* agreement with the reference */
		CHECK(s.reads == ref.reads && s.writes == ref.writes && s.delivered_bytes == ref.delivered,
		      "stream %d: counts differ", stream);
		CHECK(s.stride_classified == ref.classified && s.stride_regular == ref.regular,
		      "stream %d: stride %llu/%llu, reference %llu/%llu", stream, (unsigned long long)s.stride_regular,
		      (unsigned long long)s.stride_classified, (unsigned long long)ref.regular,
		      (unsigned long long)ref.classified);
		CHECK(s.used_bytes == (used_sum < ref.delivered ? used_sum : ref.delivered), "stream %d: used", stream);
		CHECK(!!(s.flags & CHARZ_FLAG_USED_EXCEEDS) == (used_sum > ref.delivered), "stream %d: used flag", stream);
		if (ref.first_anomaly) {
			unsigned want = ref.first_anomaly == 1 ? CHARZ_FLAG_OVERFLOW : CHARZ_FLAG_COMPLETION_IDLE;

			CHECK(s.flags & want, "stream %d: reference saw anomaly %d, flags %#x", stream, ref.first_anomaly,
			      s.flags);
			anomalies++;
			continue;
		}
		CHECK(!(s.flags & (CHARZ_FLAG_OVERFLOW | CHARZ_FLAG_COMPLETION_IDLE | CHARZ_FLAG_TIME_BACKWARDS)),
		      "stream %d: flags %#x on a clean stream", stream, s.flags);
		CHECK(s.high_water == ref.high_water, "stream %d: hwm %llu, reference %llu", stream,
		      (unsigned long long)s.high_water, (unsigned long long)ref.high_water);
		if (s.has_data) {
			double want = ref.area / (t_end - t_begin);

			CHECK(fabs(s.mean_outstanding - want) <= 1e-9 * (1 + want), "stream %d: mean %.12g, reference %.12g",
			      stream, s.mean_outstanding, want);
		}
		agreed++;
	}
	/* the generator must exercise both sides, or the test proves little:
	 * every property armed and every cover hit somewhere */
	CHECK(agreed > 3000 && anomalies > 300 && no_data > 100, "agreed %u anomalies %u no-data %u", agreed,
	      anomalies, no_data);
	for (int p = 0; p < CHARZ_NPROPS; p++)
		CHECK(armed[p] > 0, "%s never armed", charz_prop_label((enum charz_prop)p));
	for (int k = 0; k < CHARZ_NCOVERS; k++)
		CHECK(covered[k] > 0, "cover %s never hit", charz_cover_key((enum charz_cover)k));
}

/* The monitor itself: each check fires on a transition that breaks its
 * property (a monitor that cannot fail would prove nothing), and stays
 * quiet on the same transition done right. */
TEST(charz_property_checks_fire_on_broken_transitions)
{
	static const struct {
		enum charz_prop p;
		struct charz_tick_view ok, bad;
	} ticks[] = {
		{CHARZ_P1_BOUNDED, {.capacity = 4, .before = 3, .arrivals = 2, .after = 4, .high_water_after = 4},
		 {.capacity = 4, .before = 3, .arrivals = 2, .after = 5, .high_water_after = 5}},
		{CHARZ_P2_SAME_TICK_NEUTRAL, {.capacity = 4, .before = 4, .arrivals = 1, .completions = 1, .after = 4,
					      .high_water_after = 4},
		 /* the naive if/else-if: the arrival won, the completion was lost */
		 {.capacity = 4, .before = 3, .arrivals = 1, .completions = 1, .after = 4, .high_water_after = 4}},
		{CHARZ_P3_ARRIVAL_INCREMENTS, {.capacity = 8, .before = 2, .arrivals = 3, .after = 5, .high_water_after = 5},
		 {.capacity = 8, .before = 2, .arrivals = 3, .after = 3, .high_water_after = 5}},
		{CHARZ_P4_COMPLETION_DECREMENTS, {.capacity = 8, .before = 2, .completions = 1, .after = 1,
						  .high_water_after = 2},
		 {.capacity = 8, .before = 2, .completions = 1, .after = 2, .high_water_after = 2}},
		{CHARZ_P5_UNDERFLOW_RECORDED, {.capacity = 8, .completions = 1, .completion_idle_after = true},
		 {.capacity = 8, .completions = 1}},
		{CHARZ_P6_HIGH_WATER_BOUNDS, {.capacity = 8, .before = 1, .arrivals = 1, .after = 2, .high_water_before = 3,
					      .high_water_after = 3},
		 {.capacity = 8, .before = 1, .arrivals = 1, .after = 2, .high_water_before = 3, .high_water_after = 2}},
		{CHARZ_P7_AVERAGE_FEASIBLE, {.capacity = 2, .area = 20, .elapsed = 10},
		 {.capacity = 2, .area = 20.001, .elapsed = 10}},
	};
	struct charz_arrival_view once = {.requests_before = 4, .reads_before = 3, .writes_before = 1,
					  .requests_after = 5, .reads_after = 4, .writes_after = 1, .classified_after = 3};
	struct charz_arrival_view twice = once;

	for (size_t i = 0; i < sizeof(ticks) / sizeof(ticks[0]); i++) {
		struct charz_monitor m = {0};

		charz_props_tick(&m, &ticks[i].ok);
		CHECK(m.prop[ticks[i].p].armed == 1 && !charz_props_failed_mask(&m), "%s: armed %llu, failed %#x on a "
		      "good tick", charz_prop_label(ticks[i].p), (unsigned long long)m.prop[ticks[i].p].armed,
		      charz_props_failed_mask(&m));
		memset(&m, 0, sizeof(m));
		charz_props_tick(&m, &ticks[i].bad);
		CHECK(m.prop[ticks[i].p].failed == 1, "%s did not fire on a broken tick (failed %#x)",
		      charz_prop_label(ticks[i].p), charz_props_failed_mask(&m));
	}
	{
		struct charz_monitor m = {0};

		charz_props_arrival(&m, &once);
		CHECK(!charz_props_failed_mask(&m) && m.prop[CHARZ_P8B_COUNTED_ONCE].armed == 1, "a good arrival");
		twice.writes_after = 2;   /* counted as a read and as a write */
		charz_props_arrival(&m, &twice);
		CHECK(charz_props_failed_mask(&m) == (1u << CHARZ_P8_DIRECTION_PARTITION | 1u << CHARZ_P8B_COUNTED_ONCE),
		      "double count: failed %#x", charz_props_failed_mask(&m));
		memset(&m, 0, sizeof(m));
		twice = once;
		twice.reads_after = 3;    /* counted nowhere */
		twice.writes_after = 1;
		charz_props_arrival(&m, &twice);
		CHECK(m.prop[CHARZ_P8B_COUNTED_ONCE].failed == 1, "uncounted arrival: failed %#x",
		      charz_props_failed_mask(&m));
		memset(&m, 0, sizeof(m));
		twice = (struct charz_arrival_view){.requests_after = 2, .reads_after = 2, .classified_after = 1,
						    .requests_before = 1, .reads_before = 1};
		charz_props_arrival(&m, &twice);
		CHECK(charz_props_failed_mask(&m) == (1u << CHARZ_P9_NO_STRIDE_BEFORE_TWO | 1u << CHARZ_P10_STRIDES_LE_REQUESTS),
		      "a stride on the second request: failed %#x", charz_props_failed_mask(&m));
		memset(&m, 0, sizeof(m));
		charz_props_used(&m, true, 65, 64);
		charz_props_sticky(&m, true, false, CHARZ_FLAG_OVERFLOW, 0);
		CHECK(charz_props_failed_mask(&m) == (1u << CHARZ_P11_USED_LE_DELIVERED | 1u << CHARZ_P12_USED_STICKY |
						      1u << CHARZ_P13_FLAGS_STICKY),
		      "used past delivered, dropped flags: failed %#x", charz_props_failed_mask(&m));
	}
}
