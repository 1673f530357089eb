/*
 * The bound model's inputs read from a measured result: L, Q and B of each
 * lanes arm, and the bound t(K) >= max(L/K, L/Q, bytes/B) at each point.
 * Shared by `model`, `trace --from` and the HTML report's model lines.
 * Reads through cmd/load.c; prints nothing.
 */
#ifndef MLPSCOPE_CMD_MODEL_INPUTS_H
#define MLPSCOPE_CMD_MODEL_INPUTS_H

#include <stddef.h>
#include <stdio.h>

struct jsonr_value;

#define MODEL_MAX_POINTS 512
#define MODEL_MAX_SECTIONS 2

/* One measured lanes experiment, reduced to the model's inputs. Times in
 * ns; bandwidth in bytes per ns (= decimal GB/s). */
struct model_inputs {
	char section[16];              /* "mlp", "mlp.small" or "mlp.huge" */
	double latency_ns;             /* L */
	const char *latency_source;    /* the key it came from */
	double concurrency;            /* Q; 0 when the file has neither key */
	const char *concurrency_source;
	double bytes_per_ns;           /* B: the highest line_gbps in the sweep */
	double bandwidth_at_lanes;     /* the K where B was seen */
	double line_bytes;             /* bytes per access the B term charges */
	double noise_floor_frac;       /* tie tolerance; 0 when absent */
	size_t npoints;
	double lanes[MODEL_MAX_POINTS];
	double ns_per_access[MODEL_MAX_POINTS];
};

/* One "mlp"-shaped object (it has a sweep) into *in, named name. 0, or
 * -EBADMSG with err saying what is missing. */
int model_inputs_from_mlp(const struct jsonr_value *m, const char *name, struct model_inputs *in, char *err,
			  size_t errlen);

/* The bound at sweep point i, t(K) >= max(L/K, L/Q, line/B) in ns, and the
 * names of the binding term(s) (ties within the noise floor) in names. */
double model_bound_at(const struct model_inputs *in, size_t i, char *names, unsigned len);

/* Read the mlp section(s) of an mlpscope JSON result into in[0..*n).
 * 0; result_load's errors (cmd/load.h) for a file that is not a readable
 * mlpscope result; -EBADMSG when it lacks the mlp sweep (err says which). */
int model_inputs_load(const char *json_path, struct model_inputs *in, size_t *n, char *err, size_t errlen);

#endif
