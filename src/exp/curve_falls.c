/* Falls of a curve that should not fall (curve_falls.h). */
#include "exp/curve_falls.h"

#include <math.h>

size_t curve_find_falls(const double *x, const double *y, size_t n, double floor_pct, struct curve_fall *out,
			size_t cap)
{
	double tol = (isfinite(floor_pct) && floor_pct > 0 ? floor_pct : 0.0) / 100.0;
	size_t found = 0, ref = n;

	for (size_t i = 0; i < n; i++) {
		if (!isfinite(y[i]))
			continue;
		if (ref < n && y[i] < y[ref] * (1.0 - tol)) {
			if (found < cap)
				out[found] = (struct curve_fall){
					.index = i, .x = x[i], .y = y[i], .ref_index = ref, .ref_x = x[ref],
					.ref_y = y[ref], .fall_pct = 100.0 * (1.0 - y[i] / y[ref]),
				};
			found++;
		}
		if (ref == n || y[i] > y[ref])
			ref = i;
	}
	return found;
}
