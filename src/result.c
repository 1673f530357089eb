/*
 * The result model's helpers: warnings, and ownership of its heap parts (the
 * raw trial arrays).
 */
#include "result.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void result_warn(struct report *r, const char *fmt, ...)
{
	va_list ap;

	if (r->nwarnings >= REPORT_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(r->warnings[r->nwarnings++], sizeof(r->warnings[0]), fmt, ap);
	va_end(ap);
}

void mlp_result_free(struct mlp_result *m)
{
	for (unsigned i = 0; i < LANES_MAX; i++) {
		free(m->sweep[i].trials_ns);
		m->sweep[i].trials_ns = NULL;
	}
	for (unsigned i = 0; i < 8; i++) {
		free(m->control[i].trials_ns);
		m->control[i].trials_ns = NULL;
	}
}

void result_free(struct report *r)
{
	for (int m = 0; m < 2; m++)
		mlp_result_free(&r->mlp[m]);
	bandwidth_result_free(&r->bandwidth);
	multicore_result_free(&r->multicore);
}
