/*
 * The core clock's state behind every cycle figure, and what a high noise
 * floor hides from the summary: a clock whose samples alternate (3657 and
 * 1997 MHz) gives no cycles anywhere, and a floor that hides the TLB steps
 * is said under the floor's row. Synthetic figures and a recorded result
 * edited by hand; no hardware.
 */
#include "../harness.h"

#include "analyse/latency_levels.h"
#include "exp/latency.h"
#include "exp/machine.h"
#include "report/summary.h"
#include "frame/registry.h"
#include "util/jsonr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TEST(clock_state_alternating_samples_are_not_steady)
{
	struct machine_clock_state c;

	machine_core_clock_state(1997, 3657, 15.0, &c);
	CHECK(c.known && !c.steady && c.spread_pct > 80 && c.spread_pct < 84, "3657/1997 MHz: %s, %.1f%%",
	      c.steady ? "steady" : "not steady", c.spread_pct);
	machine_core_clock_state(3391, 3437, 15.0, &c);
	CHECK(c.known && c.steady, "3391-3437 MHz (1.4%%) read as not steady");
	/* A floor of 100% does not make an 83% swing one clock; a floor of
	 * 0.5% does not make 5 ms samples' own 1.4% a moving clock. */
	machine_core_clock_state(1997, 3657, 103.0, &c);
	CHECK(!c.steady && c.tolerance_pct == MACHINE_CLOCK_STEADY_MAX_PCT, "tolerance %.1f%%", c.tolerance_pct);
	machine_core_clock_state(3391, 3437, 0.5, &c);
	CHECK(c.steady && c.tolerance_pct == MACHINE_CLOCK_STEADY_MIN_PCT, "tolerance %.1f%%", c.tolerance_pct);
	machine_core_clock_state(0, 0, 10.0, &c);
	CHECK(!c.known && !c.steady, "no samples read as a clock");
}

static int load_text(const char *rel, char **text, size_t *len)
{
	char path[4096];
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/../%s", test_bin_dir(), rel);
	if (access(path, R_OK))
		snprintf(path, sizeof(path), "%s", rel);
	if (!(f = fopen(path, "rb")))
		return -1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	*text = malloc((size_t)n + 64);
	*len = *text ? fread(*text, 1, (size_t)n, f) : 0;
	fclose(f);
	return *text && *len == (size_t)n ? 0 : -1;
}

/* A recorded report whose latency section says its clock was not steady:
 * the summary keeps every latency in ns and gives no cycles. */
TEST(clock_state_unsteady_clock_gives_no_cycles_in_the_summary)
{
	static struct summary s;
	struct jsonr_doc doc;
	char *text = NULL, *edited, *at, err[256];
	size_t len = 0;
	static const char mark[] = "\"core_mhz_min\"", steady[] = "\"core_clock_steady\": false, ";

	CHECK(load_text("tests/data/report_a.json", &text, &len) == 0, "fixture");
	CHECK((at = strstr(text, mark)), "no core_mhz_min in the fixture");
	edited = malloc(len + sizeof(steady));
	CHECK(edited, "malloc");
	memcpy(edited, text, (size_t)(at - text));
	memcpy(edited + (at - text), steady, sizeof(steady) - 1);
	memcpy(edited + (at - text) + sizeof(steady) - 1, at, len - (size_t)(at - text));
	CHECK(jsonr_parse(edited, len + sizeof(steady) - 1, 0, &doc, err, sizeof(err)) == 0, "%s", err);
	free(text);
	free(edited);
	summary_build(registry_views(), doc.root, &s);
	CHECK(summary_find(&s, "l1_latency_ns"), "the L1 in ns went too");
	for (size_t i = 0; i < s.n; i++)
		CHECK(strcmp(s.fig[i].unit, "cycles"), "%s given in cycles from an unsteady clock", s.fig[i].name);
	jsonr_free(&doc);
}

/* latency_derive: a clock marked not steady gives NaN cycles at every
 * point (written as null), a steady one the range. */
TEST(clock_state_unsteady_clock_derives_no_point_cycles)
{
	static struct latency_result r;
	struct latency_params p = {.core_mhz_min = 1997, .core_mhz_max = 3657, .core_clock_unsteady = true};

	memset(&r, 0, sizeof(r));
	r.npoints = r.ncurve = 1;
	r.trials = 1;
	r.points[0] = (struct latency_point){.size_bytes = 16384, .pages = PAGES_HUGE, .ntrials = 1,
					    .chase_trials_ns = {1.2}, .stream_trials_ns = {0.5}};
	latency_derive(&r, &p);
	CHECK(isnan(r.points[0].chase_cycles_min) && isnan(r.points[0].chase_cycles_max), "cycles %.1f-%.1f",
	      r.points[0].chase_cycles_min, r.points[0].chase_cycles_max);
	p.core_clock_unsteady = false;
	latency_derive(&r, &p);
	CHECK(r.points[0].chase_cycles_min > 2 && r.points[0].chase_cycles_max > r.points[0].chase_cycles_min,
	      "a steady clock lost its cycles");
}

/* A floor that hid the TLB steps: the summary says so under the floor's
 * row, in text and JSON; a run whose floor hid nothing says nothing. */
TEST(summary_says_what_the_floor_hid)
{
	static struct summary s;
	static const char hid[] =
		"{\"noise\": {\"floor_pct\": 67.0, \"floor_from\": \"paired_ratio\"},"
		" \"tlb\": {\"noise_floor_pct\": 67.0, \"levels\": [], \"walk\": ["
		"{\"page_bytes\": 4096, \"max_extra_ns\": 120.5, \"steps_hidden_by_floor\": true},"
		"{\"page_bytes\": 2097152, \"max_extra_ns\": 3.0, \"steps_hidden_by_floor\": false}]},"
		" \"warnings\": []}";
	struct jsonr_doc doc;
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(jsonr_parse(hid, sizeof(hid) - 1, 0, &doc, err, sizeof(err)) == 0, "%s", err);
	summary_build(registry_views(), doc.root, &s);
	jsonr_free(&doc);
	CHECK(s.nhidden == 1 && strstr(s.hidden[0], "noise floor 67.0%: TLB steps not shown") &&
		      strstr(s.hidden[0], "4 KiB"), "%zu hidden: %s", s.nhidden, s.nhidden ? s.hidden[0] : "");
	CHECK((f = open_memstream(&buf, &len)), "memstream");
	summary_write_text(&s, f);
	fclose(f);
	CHECK(strstr(buf, "! noise floor 67.0%: TLB steps not shown"), "the text:\n%s", buf);
	free(buf);
}
