/*
 * The characteriser's properties as checks on a before/after view. The
 * count a tick should leave is computed here another way than charz.c does
 * (matched arrival/completion pairs first, then what is left of either,
 * clamped one step at a time), so a shared mistake is not checked against
 * itself.
 */
#include "analyse/charz_props.h"

static const struct {
	const char *label, *key, *text;
} props[CHARZ_NPROPS] = {
	[CHARZ_P1_BOUNDED] = {"P1", "p1_outstanding_bounded", "outstanding never exceeds the capacity"},
	[CHARZ_P2_SAME_TICK_NEUTRAL] = {"P2", "p2_same_tick_neutral",
					"an arrival and a completion in one tick leave the count unchanged"},
	[CHARZ_P3_ARRIVAL_INCREMENTS] = {"P3", "p3_arrival_increments",
					 "an arrival alone, below capacity, adds one"},
	[CHARZ_P4_COMPLETION_DECREMENTS] = {"P4", "p4_completion_decrements",
					    "a completion alone, with something outstanding, takes one"},
	[CHARZ_P5_UNDERFLOW_RECORDED] = {"P5", "p5_underflow_recorded",
					 "a completion with nothing outstanding raises completion_idle"},
	[CHARZ_P6_HIGH_WATER_BOUNDS] = {"P6", "p6_high_water_bounds",
					"the high-water mark bounds the count and never falls"},
	[CHARZ_P7_AVERAGE_FEASIBLE] = {"P7", "p7_average_feasible",
				       "the time-average never exceeds the capacity (area <= capacity x time)"},
	[CHARZ_P8_DIRECTION_PARTITION] = {"P8", "p8_direction_partition", "reads + writes = requests"},
	[CHARZ_P8B_COUNTED_ONCE] = {"P8b", "p8b_counted_once",
				    "each request is counted once, as a read or as a write"},
	[CHARZ_P9_NO_STRIDE_BEFORE_TWO] = {"P9", "p9_no_stride_before_two",
					   "no stride is classified before two earlier requests"},
	[CHARZ_P10_STRIDES_LE_REQUESTS] = {"P10", "p10_strides_le_requests",
					   "stride classifications never exceed requests - 2"},
	[CHARZ_P11_USED_LE_DELIVERED] = {"P11", "p11_used_le_delivered",
					 "bytes used never exceed bytes delivered"},
	[CHARZ_P12_USED_STICKY] = {"P12", "p12_used_sticky", "\"used was reported\" never goes back"},
	[CHARZ_P13_FLAGS_STICKY] = {"P13", "p13_flags_sticky", "a raised flag stays raised"},
};

static const char *const cover_keys[CHARZ_NCOVERS] = {
	[CHARZ_COVER_ARRIVAL] = "arrival",
	[CHARZ_COVER_COMPLETION] = "completion",
	[CHARZ_COVER_SAME_TICK] = "same_tick",
	[CHARZ_COVER_READ] = "read",
	[CHARZ_COVER_WRITE] = "write",
	[CHARZ_COVER_AT_ZERO] = "outstanding_zero",
	[CHARZ_COVER_AT_ONE] = "outstanding_one",
	[CHARZ_COVER_AT_CAPACITY] = "outstanding_at_capacity",
	[CHARZ_COVER_STRIDE_REGULAR] = "stride_regular",
	[CHARZ_COVER_STRIDE_IRREGULAR] = "stride_irregular",
	[CHARZ_COVER_USED_REPORT] = "used_report",
	[CHARZ_COVER_USED_NEVER] = "used_never_reported",
	[CHARZ_COVER_FLAG_RAISED] = "flag_raised",
	[CHARZ_COVER_EARLY_WINDOW] = "early_window",
};

static void judge(struct charz_monitor *m, enum charz_prop p, bool holds)
{
	m->prop[p].armed++;
	if (!holds)
		m->prop[p].failed++;
}

/* The count a tick should leave: matched pairs cancel, then the remaining
 * arrivals fill up to the capacity or the remaining completions drain to
 * zero. */
static uint64_t expected_after(const struct charz_tick_view *t)
{
	uint64_t pairs = t->arrivals < t->completions ? t->arrivals : t->completions;
	uint64_t up = t->arrivals - pairs, down = t->completions - pairs;

	if (up)
		return up > t->capacity - t->before || t->before > t->capacity ? t->capacity : t->before + up;
	return down >= t->before ? 0 : t->before - down;
}

void charz_props_tick(struct charz_monitor *m, const struct charz_tick_view *t)
{
	uint64_t want = expected_after(t);
	bool a = t->arrivals > 0, d = t->completions > 0;

	judge(m, CHARZ_P1_BOUNDED, t->after <= t->capacity);
	if (a && d)
		judge(m, CHARZ_P2_SAME_TICK_NEUTRAL, t->after == want);
	if (a && !d && t->before < t->capacity)
		judge(m, CHARZ_P3_ARRIVAL_INCREMENTS, t->after == want && t->after > t->before);
	if (d && !a && t->before > 0)
		judge(m, CHARZ_P4_COMPLETION_DECREMENTS, t->after == want && t->after < t->before);
	if (t->completions > t->before + t->arrivals)
		judge(m, CHARZ_P5_UNDERFLOW_RECORDED, t->completion_idle_after);
	judge(m, CHARZ_P6_HIGH_WATER_BOUNDS, t->high_water_after >= t->after &&
	      t->high_water_after >= t->high_water_before);
	/* A relative slack for the rounding of a sum of products; a time-average
	 * above the capacity by more is arithmetic gone wrong. */
	judge(m, CHARZ_P7_AVERAGE_FEASIBLE, t->area <= (double)t->capacity * t->elapsed * (1 + 1e-12));
	m->cover[CHARZ_COVER_SAME_TICK] += a && d;
	m->cover[CHARZ_COVER_AT_ZERO] += t->after == 0;
	m->cover[CHARZ_COVER_AT_ONE] += t->after == 1;
	m->cover[CHARZ_COVER_AT_CAPACITY] += t->after == t->capacity;
}

void charz_props_arrival(struct charz_monitor *m, const struct charz_arrival_view *a)
{
	bool once = a->requests_after == a->requests_before + 1 &&
		    (a->is_write ? a->writes_after == a->writes_before + 1 && a->reads_after == a->reads_before
				 : a->reads_after == a->reads_before + 1 && a->writes_after == a->writes_before);

	m->cover[CHARZ_COVER_ARRIVAL]++;
	m->cover[a->is_write ? CHARZ_COVER_WRITE : CHARZ_COVER_READ]++;
	judge(m, CHARZ_P8_DIRECTION_PARTITION, a->reads_after + a->writes_after == a->requests_after);
	judge(m, CHARZ_P8B_COUNTED_ONCE, once);
	if (a->requests_after <= 2) {
		m->cover[CHARZ_COVER_EARLY_WINDOW]++;
		judge(m, CHARZ_P9_NO_STRIDE_BEFORE_TWO, a->classified_after == 0);
	}
	judge(m, CHARZ_P10_STRIDES_LE_REQUESTS, a->classified_after <= (a->requests_after > 2 ? a->requests_after - 2 : 0));
	if (a->classified_now)
		m->cover[a->regular_after > a->regular_before ? CHARZ_COVER_STRIDE_REGULAR : CHARZ_COVER_STRIDE_IRREGULAR]++;
}

void charz_props_completion(struct charz_monitor *m)
{
	m->cover[CHARZ_COVER_COMPLETION]++;
}

void charz_props_used(struct charz_monitor *m, bool reported_after, uint64_t used_after, uint64_t delivered)
{
	m->cover[CHARZ_COVER_USED_REPORT]++;
	if (reported_after)
		judge(m, CHARZ_P11_USED_LE_DELIVERED, used_after <= delivered);
}

void charz_props_sticky(struct charz_monitor *m, bool used_before, bool used_after, unsigned flags_before,
			unsigned flags_after)
{
	if (used_before)
		judge(m, CHARZ_P12_USED_STICKY, used_after);
	else
		m->cover[CHARZ_COVER_USED_NEVER]++;
	if (flags_before)
		judge(m, CHARZ_P13_FLAGS_STICKY, (flags_after & flags_before) == flags_before);
	m->cover[CHARZ_COVER_FLAG_RAISED] += (flags_after & ~flags_before) != 0;
}

const char *charz_prop_label(enum charz_prop p)
{
	return (unsigned)p < CHARZ_NPROPS ? props[p].label : "?";
}

const char *charz_prop_text(enum charz_prop p)
{
	return (unsigned)p < CHARZ_NPROPS ? props[p].text : "?";
}

const char *charz_prop_key(enum charz_prop p)
{
	return (unsigned)p < CHARZ_NPROPS ? props[p].key : "?";
}

const char *charz_cover_key(enum charz_cover c)
{
	return (unsigned)c < CHARZ_NCOVERS ? cover_keys[c] : "?";
}

unsigned charz_props_failed_mask(const struct charz_monitor *m)
{
	unsigned mask = 0;

	for (int p = 0; p < CHARZ_NPROPS; p++)
		if (m->prop[p].failed)
			mask |= 1u << p;
	return mask;
}
