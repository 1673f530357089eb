/*
 * The app chase reference as JSON, one writer for every kernel and for
 * app bzip2 (whose writer lives apart from the kernels'), so "chase" means
 * the same keys wherever it appears (docs/OUTPUT.md, app.<kernel>.chase).
 */
#include "report/app_chase_out.h"

void app_write_chase_json(struct jsonw *w, const struct app_chase *c)
{
	jsonw_object_begin(w, "chase");
	jsonw_bool(w, "ran", c->ran);
	if (c->ran) {
		jsonw_uint(w, "working_set_bytes", c->working_set_bytes);
		jsonw_string(w, "warmth", APP_CHASE_WARMTH);
		jsonw_string(w, "pages_requested", c->pages_requested);
		jsonw_uint(w, "total_bytes", c->total_bytes);
		jsonw_uint(w, "huge_bytes_obtained", c->huge_bytes_obtained);
		jsonw_bool(w, "layout_ok", c->layout_ok);
		jsonw_hex64(w, "perm_hash", c->perm_hash);
		jsonw_double(w, "latency_ns", c->latency_ns);
		jsonw_double(w, "noise_floor_pct", c->noise_floor_pct);
		jsonw_double(w, "knee_k", c->knee_k);
		jsonw_array_begin(w, "points");
		for (unsigned i = 0; i < c->npoints; i++) {
			jsonw_object_begin(w, NULL);
			jsonw_uint(w, "k", c->k[i]);
			jsonw_double(w, "ns_per_access", c->ns_per_access[i]);
			jsonw_double(w, "speedup", c->speedup[i]);
			jsonw_object_end(w);
		}
		jsonw_array_end(w);
		jsonw_double(w, "seconds", c->seconds);
	}
	jsonw_object_end(w);
}
