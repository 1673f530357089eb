/*
 * The app chase reference as JSON, one writer for every kernel and for
 * app bzip2 (whose writer lives apart from the kernels'), so "chase" means
 * the same keys wherever it appears (docs/OUTPUT.md, app.<kernel>.chase).
 */
#include "report/app_chase_out.h"

/* The keys of each JSON object written here, in order (docs/OUTPUT.md). */
static const struct jsonw_field app_chase_fields[] = {
	JSONW_FIELD(STRING, "pages_requested", struct app_chase, pages_requested),
	JSONW_FIELD(UINT, "total_bytes", struct app_chase, total_bytes),
	JSONW_FIELD(UINT, "huge_bytes_obtained", struct app_chase, huge_bytes_obtained),
	JSONW_FIELD(BOOL, "layout_ok", struct app_chase, layout_ok),
	JSONW_FIELD(HEX64, "perm_hash", struct app_chase, perm_hash),
	JSONW_FIELD(DOUBLE, "latency_ns", struct app_chase, latency_ns),
	JSONW_FIELD(DOUBLE, "noise_floor_pct", struct app_chase, noise_floor_pct),
	JSONW_FIELD(DOUBLE, "knee_k", struct app_chase, knee_k),
};

void app_chase_write_json(struct jsonw *w, const struct app_chase *c)
{
	jsonw_object_begin(w, "chase");
	jsonw_bool(w, "ran", c->ran);
	if (c->ran) {
		jsonw_uint(w, "working_set_bytes", c->working_set_bytes);
		jsonw_string(w, "warmth", APP_CHASE_WARMTH);
		JSONW_FIELDS(w, c, app_chase_fields);
		jsonw_array_begin(w, "points");
		for (unsigned i = 0; i < c->npoints; i++) {
			jsonw_object_begin(w, NULL);
			jsonw_uint(w, "k", c->k[i]);
			jsonw_double(w, "ns_per_access", c->ns_per_access[i]);
			jsonw_double(w, "speedup", c->speedup[i]);
			if (c->impossible[i]) {
				jsonw_bool(w, "impossible", true);
				jsonw_double(w, "speedup_bound", c->k[i]);
			}
			if (c->non_monotonic[i])
				jsonw_bool(w, "non_monotonic", true);
			jsonw_object_end(w);
		}
		jsonw_array_end(w);
		jsonw_uint(w, "non_monotonic_found", c->nfalls);
		if (c->control_fall_k) {
			jsonw_object_begin(w, "latency_falls_after_traffic");
			jsonw_double(w, "control_speedup", c->control_fall);
			jsonw_uint(w, "after_k", c->control_fall_k);
			jsonw_object_end(w);
		} else {
			jsonw_null(w, "latency_falls_after_traffic");
		}
		jsonw_double(w, "seconds", c->seconds);
	}
	jsonw_object_end(w);
}
