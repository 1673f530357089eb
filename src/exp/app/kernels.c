/*
 * The app kernels' table and the dispatch by name (see kernels.h). Only
 * this file names every kernel; the section, the writers and the CSV tables
 * walk app_kernels[].
 */
#include "exp/app/kernels.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

const struct app_kernel *const app_kernels[] = {&app_kernel_bwt, &app_kernel_hash, &app_kernel_search,
						&app_kernel_gather};
const unsigned app_nkernels = sizeof(app_kernels) / sizeof(app_kernels[0]);

static const struct app_kernel *find(const char *name)
{
	for (unsigned i = 0; i < app_nkernels; i++)
		if (!strcmp(name, app_kernels[i]->name))
			return app_kernels[i];
	return NULL;
}

int app_kernel_find(const char *name)
{
	return find(name) ? 0 : -ENOENT;
}

int app_run(const char *kernel, const struct app_params *p, struct app_kernel_result *r, char *err,
	    size_t errlen)
{
	const struct app_kernel *k = find(kernel);
	int rc;

	if (k) {
		app_start(p, r, k->name, k->warmth, k->check_what);
		rc = k->run(p, r, err, errlen);
		r->may_fit_cache_from = !p->largest_cache_bytes ? "none"
					: p->cache_sizes_from ? p->cache_sizes_from : "OS-reported";
		return rc;
	}
	snprintf(err, errlen, "'%s' is not an app kernel", kernel);
	return -EINVAL;
}
