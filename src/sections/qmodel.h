/*
 * `mlpscope qmodel`: the queue model (qmodel.h) answered from the command
 * line. Its inputs are options: latency L in ticks, lane counts K, requests,
 * a cap Q on outstanding requests and a data path of B bytes per tick; with
 * none given it answers the textbook case (64 misses at L = 200 cycles, K =
 * 1, 8, 16 -> 12,800, 1,600, 800 cycles). Simulates, measures nothing.
 */
#ifndef MLPSCOPE_SECTIONS_QMODEL_H
#define MLPSCOPE_SECTIONS_QMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analyse/dram.h"
#include "frame/options.h"

#define QMODEL_CMD_MAX_LANES 32

struct qmodel_cmd_args {
	double latency;              /* L, ticks, > 0 */
	uint64_t lanes[QMODEL_CMD_MAX_LANES];
	size_t nlanes;
	uint64_t requests;
	double queue_cap;            /* 0: unlimited */
	double bytes_per_tick;       /* 0: unlimited */
	uint64_t request_bytes;
	bool chase_vs_stream;        /* also the same reads as one chain and as a stream */
	bool has_dram;               /* --dram-map given */
	struct dram_map dram;        /* row hits and bank spread through it */
	const char *json_out;        /* --json FILE ("-": stdout); NULL: none */
};

/* A latency in ticks: a finite number > 0, the whole string. 0 or -EINVAL. */
int qmodel_parse_ticks(const char *s, double *out);

/* Options into args: the textbook case for what is not given. 0, or 2
 * with err naming the option and the accepted form. */
int qmodel_cmd_parse(const struct options *o, struct qmodel_cmd_args *a, char *err, size_t errlen);

/* Simulate K chains for each K, and a stream of independent requests (and
 * the chase-vs-stream comparison when asked), print makespan, time per
 * request, mean outstanding and the bound to out, and the JSON to
 * a->json_out when set. 0; 1 with err (a write failed); 2 for an
 * unwritable --json path (found before the work). */
int qmodel_cmd_run(const struct qmodel_cmd_args *a, FILE *out, char *err, size_t errlen);

/* The registry's entry. */
int cmd_qmodel(const struct options *o, char *err, size_t errlen);

#endif
