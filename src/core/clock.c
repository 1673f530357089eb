/*
 * Timer choice and calibration. The hardware counter is preferred because it
 * is cheap (~10-40 cycles) and, where invariant, ticks at a fixed rate while
 * the core clock swings (70% swings are normal on shared VMs); a core-clock
 * counter would turn clock changes into latency changes. The counter is
 * calibrated against CLOCK_MONOTONIC_RAW, which NTP does not slew.
 * Deliberately absent: any core-cycle estimate (that is the machine section's).
 */
#include "core/clock.h"

#include "arch/arch.h"

#include <time.h>

static int use_arch_counter;

uint64_t clock_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t clock_now(void)
{
	return use_arch_counter ? arch_timer_read() : clock_wall_ns();
}

double clock_ticks_to_ns(const struct clock_info *info, uint64_t ticks)
{
	return (double)ticks / info->ticks_per_ns;
}

/* One calibration window: counter ticks over ~20 ms of raw monotonic time. */
static double calibrate_once(void)
{
	uint64_t w0 = clock_wall_ns(), t0 = arch_timer_read();
	uint64_t w1, t1;

	do {
		w1 = clock_wall_ns();
		t1 = arch_timer_read();
	} while (w1 - w0 < 20000000u);
	return (double)(t1 - t0) / (double)(w1 - w0);
}

static void sort3(double v[3])
{
	for (int i = 0; i < 2; i++)
		for (int j = i + 1; j < 3; j++)
			if (v[j] < v[i]) {
				double t = v[i];
				v[i] = v[j];
				v[j] = t;
			}
}

static void measure_resolution(struct clock_info *info)
{
	uint64_t best_step = UINT64_MAX, best_empty = UINT64_MAX;

	for (int i = 0; i < 20000; i++) {
		uint64_t a = clock_now(), b = clock_now();
		uint64_t d = b - a;

		if (d < best_empty)
			best_empty = d;
		if (d > 0 && d < best_step)
			best_step = d;
	}
	info->resolution_ticks = best_step == UINT64_MAX ? 1 : best_step;
	info->empty_region_ticks = best_empty;
}

void clock_init(struct clock_info *info)
{
	info->invariant = arch_timer_invariant();
	use_arch_counter = info->invariant;
	info->calibration_spread_pct = 0.0;

	if (!use_arch_counter) {
		info->source = "clock_monotonic_raw";
		info->ticks_per_ns = 1.0;
	} else if (arch_timer_stated_hz() > 0.0) {
		info->source = arch_timer_source();
		info->ticks_per_ns = arch_timer_stated_hz() / 1e9;
	} else {
		double r[3];

		info->source = arch_timer_source();
		for (int i = 0; i < 3; i++)
			r[i] = calibrate_once();
		sort3(r);
		info->ticks_per_ns = r[1];
		info->calibration_spread_pct = (r[2] - r[0]) / r[1] * 100.0;
	}
	measure_resolution(info);
	/* A region 100x the timer's own cost and step keeps both under 1%. */
	uint64_t overhead = info->empty_region_ticks + info->resolution_ticks;
	info->min_region_ns = 100.0 * clock_ticks_to_ns(info, overhead);
}
