/*
 * app.bzip2's decoded MB/s for compare and the fleet table. The workers'
 * figure is the best over the worker counts, not the largest count's: on a
 * shared or small machine more workers can be slower, and the question a
 * fleet row answers is what the decoder reached there.
 */
#include "analyse/bzip2_figures.h"

#include <math.h>

static double num(const struct jsonr_value *v, const char *path)
{
	double d;

	return v && jsonr_get_number(v, path, &d) && isfinite(d) ? d : NAN;
}

bool bzip2_figures_read(const struct jsonr_value *doc, struct bzip2_figures *f)
{
	const struct jsonr_value *b = jsonr_get(doc, "app.bzip2"), *w;

	*f = (struct bzip2_figures){NAN, NAN, NAN, NAN, NAN, NAN};
	if (!b || b->type != JSONR_OBJECT)
		return false;
	f->best_mb_per_s = num(b, "best.mb_per_s");
	f->best_k = num(b, "best.k");
	f->libbz2_mb_per_s = num(b, "libbz2_mb_per_s");
	w = jsonr_get(b, "workers");
	for (const struct jsonr_value *e = w && w->type == JSONR_ARRAY ? w->u.children.first : NULL; e; e = e->next) {
		double n = num(e, "workers"), mb = num(e, "mb_per_s");

		if (!isfinite(n) || !isfinite(mb))
			continue;
		if (!isfinite(f->workers_most) || n > f->workers_most)
			f->workers_most = n;
		if (!isfinite(f->workers_mb_per_s) || mb > f->workers_mb_per_s) {
			f->workers_mb_per_s = mb;
			f->workers_at = n;
		}
	}
	return true;
}
