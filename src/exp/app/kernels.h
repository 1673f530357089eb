/*
 * The app kernels' table. Each kernel file (exp/app/kernel_NAME.c) exports
 * one struct app_kernel; kernels.c lists them in the order the full report
 * and the CSV tables name them, and app_run dispatches by name. The kernels
 * use app.c's shared library and app.c calls no kernel, so the calls run one
 * way: table -> kernels -> library. Adding a kernel is its file, one line in
 * the table, and its word in the app section's help.
 */
#ifndef MLPSCOPE_EXP_APP_KERNELS_H
#define MLPSCOPE_EXP_APP_KERNELS_H

#include <stddef.h>

#include "exp/app/app.h"

struct app_kernel {
	const char *name;  /* the operand of `app`, the CSV table's name */
	const char *warmth;      /* how warm its walks are (app_start) */
	const char *check_what;  /* what its check compares (app_start) */
	/* The contract of app_run below, r already started (app_start). */
	int (*run)(const struct app_params *p, struct app_kernel_result *r, char *err, size_t errlen);
};

extern const struct app_kernel app_kernel_bwt, app_kernel_hash, app_kernel_search, app_kernel_gather;

/* The kernels in the order the full report runs them. */
extern const struct app_kernel *const app_kernels[];
extern const unsigned app_nkernels;

/* 0 when name is a kernel this build has. */
int app_kernel_find(const char *name);

/* Run one kernel. Returns 0; -EINTR when *stop was raised; -EPROTO when a
 * correctness check or the chase's layout check failed (r->check.failure
 * says which; no figure is then valid); -EINVAL/-EFBIG/-ENOENT... for the
 * input, with err filled; -ENOMEM. */
int app_run(const char *kernel, const struct app_params *p, struct app_kernel_result *r, char *err,
	    size_t errlen);

#endif
