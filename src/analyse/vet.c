/*
 * The ranges a saved result's numbers may hold, by key name, and the arrays
 * whose lengths other keys fix. Keys are matched by name wherever they sit,
 * because the same quantity ("lanes", "size_bytes", "level") appears in
 * several sections and a new section inherits the rule by naming its keys
 * the documented way (docs/OUTPUT.md: units in names). A key no rule names
 * is left alone: jsonr already refuses non-finite numbers.
 */
#include "analyse/vet.h"

#include "kern/lanes.h"
#include "exp/policy.h"
#include "core/team.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

enum match { KEY_IS, KEY_ENDS, KEY_STARTS };

struct rule {
	enum match match;
	const char *name;
	size_t len;         /* strlen(name): every number in a result is matched */
	double lo, hi;
	bool whole;         /* an integer count */
	const char *what;   /* the expectation, for the error */
	/* 0 also allowed below lo: "not measured" for a figure whose smallest
	 * measured value is lo (a fitted Ks is at least one lane). */
	bool zero_ok;
	/* The key names a unit: an object under it holds numbers of that unit
	 * whatever their own names ("probe_seconds": {"lanes": 0.2} is seconds
	 * spent probing the lanes, not a lane count). */
	bool unit;
};

/* ~11.6 days in ns: no timed region or fitted latency comes near it, and it
 * keeps every derived rate and ratio finite. */
#define MAX_NS 1e15
#define MAX_COUNT ((double)(1 << 30))

#define KEY(match, name) match, name, sizeof(name) - 1

/* A loop of a handful of instructions per access; far past any real kernel,
 * and it keeps the model's rates printable. */
#define MAX_INSTRUCTIONS_PER_ACCESS 1e4
#define MAX_SECONDS 1e9

/* First match wins, so exact names come before the suffixes they end in. */
static const struct rule rules[] = {
	{ KEY(KEY_ENDS, "_seconds"), 0, MAX_SECONDS, false, .what = "a time: 0..1e9 s", .unit = true },
	{ KEY(KEY_IS, "lanes"), 1, LANES_MAX, true, .what = "lanes: an integer 1..128" },
	{ KEY(KEY_ENDS, "saturation_lanes"), 1, LANES_MAX, false, .what = "a saturation: 0 (not fitted) or 1..128 lanes",
	  .zero_ok = true },
	{ KEY(KEY_ENDS, "_lanes"), 0, LANES_MAX, false, .what = "lanes: 0..128" },
	{ KEY(KEY_IS, "instructions_per_access"), 0, MAX_INSTRUCTIONS_PER_ACCESS, false,
	  .what = "an instruction count: 0..1e4 per access" },
	{ KEY(KEY_IS, "level"), 1, VET_MAX_LEVEL, true, .what = "a cache level: an integer 1..8" },
	{ KEY(KEY_ENDS, "_bytes"), 0, VET_MAX_BYTES, false, .what = "a size: 0..2^50 bytes" },
	{ KEY(KEY_IS, "threads"), 1, TEAM_MAX_THREADS, true, .what = "a thread count: an integer 1..256" },
	{ KEY(KEY_IS, "generators"), 0, TEAM_MAX_THREADS, true, .what = "a thread count: an integer 0..256" },
	{ KEY(KEY_IS, "trials"), 1, MAX_COUNT, true, .what = "a trial count: 0 (not run) or an integer >= 1", .zero_ok = true },
	{ KEY(KEY_STARTS, "trials_per_"), 1, MAX_COUNT, true, .what = "a trial count: 0 (not run) or an integer >= 1",
	  .zero_ok = true },
	{ KEY(KEY_IS, "repeats"), 1, MAX_COUNT, true, .what = "a repeat count: an integer >= 1" },
	{ KEY(KEY_IS, "n"), 0, MAX_COUNT, true, .what = "a filler count: an integer >= 0" },
	{ KEY(KEY_STARTS, "capacity"), 0, MAX_COUNT, false, .what = "a capacity: 0..2^30 entries" },
	{ KEY(KEY_STARTS, "step_n_"), 0, MAX_COUNT, true, .what = "a filler count: an integer >= 0" },
	{ KEY(KEY_ENDS, "_ns"), -MAX_NS, MAX_NS, false, .what = "a time: within +-1e15 ns", .unit = true },
	{ KEY(KEY_STARTS, "ns_per_"), 0, MAX_NS, false, .what = "a time: 0..1e15 ns" },
	{ KEY(KEY_ENDS, "_ns_at_max"), -MAX_NS, MAX_NS, false, .what = "a time: within +-1e15 ns" },
	{ KEY(KEY_ENDS, "gbps"), 0, 1e9, false, .what = "a bandwidth: 0..1e9 GB/s" },
	{ KEY(KEY_ENDS, "concurrency"), 0, 1e9, false, .what = "a concurrency: 0..1e9" },
	{ KEY(KEY_ENDS, "concurrency_littles_law"), 0, 1e9, false, .what = "a concurrency: 0..1e9" },
	{ KEY(KEY_ENDS, "occupancy_inferred"), 0, 1e9, false, .what = "a concurrency: 0..1e9" },
	{ KEY(KEY_ENDS, "_pct"), -1e9, 1e9, false, .what = "a percentage within +-1e9" },
};

struct vet {
	const char *file;
	char *err;
	size_t errlen;
	/* The rule the last key matched (NULL: none): an array's numbers all
	 * inherit one key, and the raw timings are most of a result's numbers. */
	const char *last_key;
	const struct rule *last_rule;
};

/* Where the walk stands: a chain of frames up to the root, each a member
 * (key) or an array element (index). The path is written out only for an
 * error: formatting it at every value cost more than parsing the file (a
 * fleet of 1,000 results spent a third of its time in snprintf here). */
struct at {
	const struct at *up;
	const char *key;  /* NULL: an array element */
	size_t klen, index;
};

/* "mlp.sweep[0].lanes" for a, then name (when not NULL) after a dot. */
static size_t at_format(char *out, size_t len, const struct at *a, const char *name)
{
	size_t used = 0;
	int n;

	if (a && a->up)
		used = at_format(out, len, a->up, NULL);
	if (a && a->up && used < len) {
		if (a->key)
			n = snprintf(out + used, len - used, "%s%.*s", used ? "." : "", (int)a->klen, a->key);
		else
			n = snprintf(out + used, len - used, "[%zu]", a->index);
		used += n > 0 ? (size_t)n : 0;
	}
	if (name && used < len) {
		n = snprintf(out + used, len - used, "%s%s", used ? "." : "", name);
		used += n > 0 ? (size_t)n : 0;
	}
	return used < len ? used : len - 1;
}

static bool key_matches(const struct rule *r, const char *key, size_t len)
{
	size_t n = r->len;

	switch (r->match) {
	case KEY_IS:
		return len == n && !memcmp(key, r->name, n);
	case KEY_ENDS:
		return len >= n && key[len - 1] == r->name[n - 1] && !memcmp(key + len - n, r->name, n);
	case KEY_STARTS:
		return len >= n && key[0] == r->name[0] && !memcmp(key, r->name, n);
	}
	return false;
}

/* The first rule key matches, NULL when none does. */
static const struct rule *rule_of(struct vet *v, const char *key, size_t len)
{
	if (key == v->last_key)
		return v->last_rule;
	v->last_key = key;
	v->last_rule = NULL;
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]) && !v->last_rule; i++)
		if (key_matches(&rules[i], key, len))
			v->last_rule = &rules[i];
	return v->last_rule;
}

static int check_number(struct vet *v, const char *key, size_t len, double x, const struct at *where)
{
	const struct rule *r = rule_of(v, key, len);
	char at[300];

	if (!r || (r->zero_ok && x == 0) || ((x >= r->lo && x <= r->hi) && (!r->whole || x == floor(x))))
		return 0;
	at_format(at, sizeof(at), where, NULL);
	snprintf(v->err, v->errlen, "%s: %s = %.10g is out of range (expected %s)", v->file, at, x, r->what);
	return -EDOM;
}

/* Lengths fixed by other keys: a sweep has one point per lane count, a
 * result names at most VET_MAX_LEVEL levels, and an estimate lists one Ks
 * per repeat. */
static int check_lengths(struct vet *v, const struct jsonr_value *obj, const struct at *where)
{
	const struct jsonr_value *a;
	char at[300];
	double reps;

	if ((a = jsonr_member(obj, "sweep")) && a->type == JSONR_ARRAY && a->u.children.count > LANES_MAX) {
		at_format(at, sizeof(at), where, "sweep");
		snprintf(v->err, v->errlen, "%s: %s has %zu points (expected at most one per lane count, %d)", v->file,
			 at, a->u.children.count, LANES_MAX);
		return -EDOM;
	}
	if ((a = jsonr_member(obj, "levels_detected")) && a->type == JSONR_ARRAY &&
	    a->u.children.count > VET_MAX_LEVEL) {
		at_format(at, sizeof(at), where, "levels_detected");
		snprintf(v->err, v->errlen, "%s: %s has %zu levels (expected at most %d)", v->file, at,
			 a->u.children.count, VET_MAX_LEVEL);
		return -EDOM;
	}
	if ((a = jsonr_member(obj, "repeat_saturation_lanes")) && a->type == JSONR_ARRAY &&
	    jsonr_get_number(obj, "repeats", &reps) && (double)a->u.children.count != reps) {
		at_format(at, sizeof(at), where, "repeat_saturation_lanes");
		snprintf(v->err, v->errlen, "%s: %s has %zu values but repeats is %.17g (expected one per repeat)",
			 v->file, at, a->u.children.count, reps);
		return -EDOM;
	}
	return 0;
}

/* Depth is bounded by the reader's nesting limit (JSONR_DEFAULT_MAX_DEPTH),
 * so recursion here is too. key is the name numbers inside inherit: an
 * array's elements take the array's key ("repeat_saturation_lanes"). */
static int walk(struct vet *v, const struct jsonr_value *x, const char *key, size_t klen, const struct at *where)
{
	struct at here = { .up = where };
	int rc;

	switch (x->type) {
	case JSONR_NUMBER:
		return key ? check_number(v, key, klen, x->u.number, where) : 0;
	case JSONR_OBJECT: {
		const struct rule *r = key ? rule_of(v, key, klen) : NULL;
		bool inherit = r && r->unit;

		if ((rc = check_lengths(v, x, where)))
			return rc;
		for (const struct jsonr_value *m = x->u.children.first; m; m = m->next) {
			here.key = m->key;
			here.klen = m->key_len;
			if ((rc = walk(v, m, inherit ? key : m->key, inherit ? klen : m->key_len, &here)))
				return rc;
		}
		return 0;
	}
	case JSONR_ARRAY:
		for (const struct jsonr_value *e = x->u.children.first; e; e = e->next, here.index++)
			if ((rc = walk(v, e, key, klen, &here)))
				return rc;
		return 0;
	default:
		return 0;
	}
}

int vet_result(const struct jsonr_value *root, const char *path, char *err, size_t errlen)
{
	struct vet v = { .file = path, .err = err, .errlen = errlen };

	struct at top = { 0 };

	return root ? walk(&v, root, NULL, 0, &top) : 0;
}
