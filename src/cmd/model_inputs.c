/*
 * The model command. L is the fit's t(1) (falling back to the K = 1 point),
 * Q the fitted plateau concurrency (falling back to the peak observed), and
 * B the highest line_gbps of the sweep: one line per access, the traffic the
 * memory system moves, which is an assumption the lanes experiment states.
 * B taken from the same curve makes the bandwidth term the best time seen,
 * so it can tie with L/Q; terms within the run's noise floor of each other
 * are named together rather than picking one on noise.
 */
#include "cmd/model_inputs.h"

#include "jsonr.h"
#include "qmodel.h"
#include "cmd/load.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool positive(double v)
{
	return isfinite(v) && v > 0;
}

int model_inputs_from_mlp(const struct jsonr_value *m, const char *name, struct model_inputs *in, char *err,
			  size_t errlen)
{
	size_t n = jsonr_get_count(m, "sweep");
	double v;

	memset(in, 0, sizeof(*in));
	snprintf(in->section, sizeof(in->section), "%s", name);
	if (!n) {
		snprintf(err, errlen, "%s.sweep is missing or empty", name);
		return -EBADMSG;
	}
	if (n > MODEL_MAX_POINTS)
		n = MODEL_MAX_POINTS;
	in->line_bytes = jsonr_get_number(m, "line_bytes", &v) && positive(v) ? v : 64;
	const struct jsonr_value *pt = jsonr_get(m, "sweep")->u.children.first;

	for (size_t i = 0; i < n; i++, pt = pt->next) {
		double k, t, gbps;

		if (!jsonr_get_number(pt, "lanes", &k) || !jsonr_get_number(pt, "ns_per_access", &t)) {
			snprintf(err, errlen, "%s.sweep[%zu] lacks lanes or ns_per_access", name, i);
			return -EBADMSG;
		}
		in->lanes[in->npoints] = k;
		in->ns_per_access[in->npoints] = t;
		in->npoints++;
		/* line_gbps is written as null when non-finite; derive it then */
		if (!jsonr_get_number(pt, "line_gbps", &gbps))
			gbps = positive(t) ? in->line_bytes / t : NAN;
		if (positive(gbps) && gbps > in->bytes_per_ns) {
			in->bytes_per_ns = gbps;
			in->bandwidth_at_lanes = k;
		}
	}
	if (jsonr_get_number(m, "estimate.fit_latency_ns", &v) && positive(v)) {
		in->latency_ns = v;
		in->latency_source = "estimate.fit_latency_ns";
	} else if (positive(in->ns_per_access[0])) {
		in->latency_ns = in->ns_per_access[0];
		in->latency_source = "sweep[0].ns_per_access";
	} else {
		snprintf(err, errlen, "%s has no usable latency (estimate.fit_latency_ns or sweep[0].ns_per_access)", name);
		return -EBADMSG;
	}
	if (jsonr_get_number(m, "estimate.fit_plateau_concurrency", &v) && positive(v)) {
		in->concurrency = v;
		in->concurrency_source = "estimate.fit_plateau_concurrency";
	} else if (jsonr_get_number(m, "estimate.peak_concurrency", &v) && positive(v)) {
		in->concurrency = v;
		in->concurrency_source = "estimate.peak_concurrency";
	} else {
		in->concurrency_source = "unknown (neither estimate key)";
	}
	if (jsonr_get_number(m, "noise_floor_pct", &v) && isfinite(v) && v >= 0)
		in->noise_floor_frac = v / 100;
	return 0;
}

int model_inputs_load(const char *json_path, struct model_inputs *in, size_t *n, char *err, size_t errlen)
{
	struct jsonr_doc doc;
	const struct jsonr_value *mlp;
	char what[200] = "";
	int rc;

	*n = 0;
	if ((rc = result_load(json_path, &doc, err, errlen)))
		return rc;
	mlp = jsonr_get(doc.root, "mlp");
	if (!mlp || mlp->type != JSONR_OBJECT) {
		snprintf(err, errlen, "%s: no mlp section", json_path);
		rc = -EBADMSG;
		goto out;
	}
	if (jsonr_member(mlp, "sweep")) {
		rc = model_inputs_from_mlp(mlp, "mlp", &in[(*n)++], what, sizeof(what));
	} else {
		static const char *const pages[] = {"small", "huge"};

		for (size_t i = 0; i < MODEL_MAX_SECTIONS && !rc; i++) {
			const struct jsonr_value *s = jsonr_member(mlp, pages[i]);
			char name[16];

			if (!s)
				continue;
			snprintf(name, sizeof(name), "mlp.%s", pages[i]);
			rc = model_inputs_from_mlp(s, name, &in[(*n)++], what, sizeof(what));
		}
		if (!rc && !*n) {
			snprintf(what, sizeof(what), "mlp has no sweep, small or huge");
			rc = -EBADMSG;
		}
	}
	if (rc)
		snprintf(err, errlen, "%s: %s", json_path, what);
out:
	jsonr_free(&doc);
	if (rc)
		*n = 0;
	return rc;
}

double model_bound_at(const struct model_inputs *in, size_t i, char *names, unsigned len)
{
	struct qmodel_memory m = {
		.latency = in->latency_ns,
		.queue_cap = in->concurrency,
		.bytes_per_tick = in->bytes_per_ns,
		.request_bytes = (uint64_t)in->line_bytes,
	};
	struct qmodel_bound b;

	qmodel_bound_at(&m, in->lanes[i], in->noise_floor_frac, &b);
	qmodel_bound_names(&b, names, len);
	return b.bound;
}
