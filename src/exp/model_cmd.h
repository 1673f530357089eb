/*
 * `mlpscope model --from run.json`: the bound t(K) >= max(L/K, L/Q, bytes/B)
 * with L, Q and B read from a measured result, printed next to the measured
 * lanes curve with the binding term named at each K. Also the loader that
 * `trace --from` shares. It measures nothing and never exits; main.c picks
 * the exit status from the return value.
 */
#ifndef MLPSCOPE_EXP_MODEL_CMD_H
#define MLPSCOPE_EXP_MODEL_CMD_H

#include <stddef.h>
#include <stdio.h>

struct jsonr_value;

#define MODEL_MAX_POINTS 512
#define MODEL_MAX_SECTIONS 2
#define MODEL_SCHEMA_VERSION_READ 1

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
 * 0; -EBADMSG when the file is not mlpscope's, is truncated or malformed,
 * has a schema_version newer than MODEL_SCHEMA_VERSION_READ or lacks the
 * sweep (err says which); -ENOMEM; other -errno from reading the file. */
int model_inputs_load(const char *json_path, struct model_inputs *in, size_t *n, char *err, size_t errlen);

/* Print, per section, L, Q and B with their sources and, per K, the measured
 * ns_per_access, the bound and the binding term(s). 0 ok; 2 for a file that
 * is not a readable mlpscope result of schema_version <= 1; 1 for I/O
 * failure (reading the file or writing out). err gets one line. */
int model_cmd_run(const char *json_path, FILE *out, char *err, size_t errlen);

#endif
