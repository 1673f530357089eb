/*
 * The characteriser's properties and covers (seed 003's P1..P13, P8 in two
 * checks, and its antecedent covers), kept as counts while it counts: each
 * property says how often its antecedent held (armed) and how often the
 * state then broke it (failed); each cover says how often its event
 * happened. "All properties hold" means little where the antecedents never
 * fired (an idle window passes every invariant on zeros), so a report shows
 * the armed counts beside the verdicts. The checks are pure functions of a
 * before/after view, so a test can feed them a broken transition and see
 * them fire; charz.c calls them on every event and tick.
 */
#ifndef MLPSCOPE_ANALYSE_CHARZ_PROPS_H
#define MLPSCOPE_ANALYSE_CHARZ_PROPS_H

#include <stdbool.h>
#include <stdint.h>

enum charz_prop {
	CHARZ_P1_BOUNDED,               /* outstanding <= capacity, every tick */
	CHARZ_P2_SAME_TICK_NEUTRAL,     /* an arrival and a completion in one tick cancel */
	CHARZ_P3_ARRIVAL_INCREMENTS,    /* arrivals alone, below capacity, add one each */
	CHARZ_P4_COMPLETION_DECREMENTS, /* completions alone, something outstanding, take one each */
	CHARZ_P5_UNDERFLOW_RECORDED,    /* completing more than was outstanding raises a flag */
	CHARZ_P6_HIGH_WATER_BOUNDS,     /* the high-water mark bounds the count and never falls */
	CHARZ_P7_AVERAGE_FEASIBLE,      /* the area never exceeds capacity x elapsed time */
	CHARZ_P8_DIRECTION_PARTITION,   /* reads + writes = requests */
	CHARZ_P8B_COUNTED_ONCE,         /* an arrival adds one to exactly one of reads, writes */
	CHARZ_P9_NO_STRIDE_BEFORE_TWO,  /* nothing classified before two earlier requests */
	CHARZ_P10_STRIDES_LE_REQUESTS,  /* classified <= requests - 2 */
	CHARZ_P11_USED_LE_DELIVERED,    /* used never exceeds delivered once reported */
	CHARZ_P12_USED_STICKY,          /* "used was reported" never goes back */
	CHARZ_P13_FLAGS_STICKY,         /* a raised flag stays raised */
	CHARZ_NPROPS
};

enum charz_cover {
	CHARZ_COVER_ARRIVAL,            /* arrivals */
	CHARZ_COVER_COMPLETION,         /* completions */
	CHARZ_COVER_SAME_TICK,          /* ticks with both */
	CHARZ_COVER_READ,
	CHARZ_COVER_WRITE,
	CHARZ_COVER_AT_ZERO,            /* ticks that left nothing outstanding */
	CHARZ_COVER_AT_ONE,             /* ... one */
	CHARZ_COVER_AT_CAPACITY,        /* ... the capacity */
	CHARZ_COVER_STRIDE_REGULAR,     /* requests classified regular */
	CHARZ_COVER_STRIDE_IRREGULAR,   /* ... irregular */
	CHARZ_COVER_USED_REPORT,        /* "used" reports */
	CHARZ_COVER_USED_NEVER,         /* events before the first "used" report */
	CHARZ_COVER_FLAG_RAISED,        /* events that raised a flag */
	CHARZ_COVER_EARLY_WINDOW,       /* arrivals with fewer than two earlier requests */
	CHARZ_NCOVERS
};

struct charz_check {
	uint64_t armed;                 /* antecedent held (an invariant: every check) */
	uint64_t failed;                /* ... and the state broke the property */
};

struct charz_monitor {
	struct charz_check prop[CHARZ_NPROPS];
	uint64_t cover[CHARZ_NCOVERS];
};

/* One tick as applied: the count before, the tick's events, what it left,
 * the high-water mark and flags around it, and the integral so far. */
struct charz_tick_view {
	uint64_t capacity;
	uint64_t before, arrivals, completions, after;
	uint64_t high_water_before, high_water_after;
	bool completion_idle_after;     /* the completion-while-idle flag is set after it */
	double area, elapsed;           /* after integrating up to the tick's end */
};

/* One arrival: the counters before and after it. */
struct charz_arrival_view {
	bool is_write;
	uint64_t requests_before, reads_before, writes_before;
	uint64_t requests_after, reads_after, writes_after;
	uint64_t classified_after, regular_before, regular_after;
	bool classified_now;            /* this arrival was classified */
};

void charz_props_tick(struct charz_monitor *m, const struct charz_tick_view *t);
void charz_props_arrival(struct charz_monitor *m, const struct charz_arrival_view *a);
void charz_props_completion(struct charz_monitor *m);

/* A "used" report: whether one is now recorded, the bytes used after it
 * and the bytes delivered. */
void charz_props_used(struct charz_monitor *m, bool reported_after, uint64_t used_after, uint64_t delivered);

/* Every event (an arrival, a completion, a "used" report, a summary), with
 * the sticky state before and after it, ticks it closed included (P12,
 * P13). */
void charz_props_sticky(struct charz_monitor *m, bool used_before, bool used_after, unsigned flags_before,
			unsigned flags_after);

/* "P1", "P8b" ... and the property in words. */
const char *charz_prop_label(enum charz_prop p);
const char *charz_prop_text(enum charz_prop p);
/* JSON key of a property ("p2_same_tick_neutral") and of a cover ("same_tick"). */
const char *charz_prop_key(enum charz_prop p);
const char *charz_cover_key(enum charz_cover c);

/* Properties that failed at least once, as a bit mask (1u << enum charz_prop). */
unsigned charz_props_failed_mask(const struct charz_monitor *m);

#endif
