/*
 * Read size and node spacing, varied independently: the lanes sweep with
 * each hop reading a payload of 8..128 bytes from its node, at spacings of
 * 64 and 128 bytes, and one node placed to cross a line boundary. Each case
 * has its own layout check, counting the lines the payloads touch against
 * the lines the case claims. Measures; never prints.
 */
#ifndef MLPSCOPE_EXP_MLP_PAYLOAD_H
#define MLPSCOPE_EXP_MLP_PAYLOAD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/chain.h"
#include "core/clock.h"

#define MLP_PAYLOAD_CASES 8
#define MLP_PAYLOAD_KS 9

struct mlp_payload_case {
	size_t payload_bytes, spacing_bytes, shift_bytes, lines_per_node;
	const char *what;
	struct layout_check layout;
	unsigned nk;
	unsigned lanes[MLP_PAYLOAD_KS];
	double ns_per_access[MLP_PAYLOAD_KS];
	double t1_ns, ks, ks_uncertainty, plateau_concurrency, best_ns;
	unsigned best_lanes;
	double useful_gbps, line_gbps;      /* at the best time */
};

struct mlp_payload {
	unsigned ncases;
	struct mlp_payload_case c[MLP_PAYLOAD_CASES];
	size_t working_set_bytes;
	size_t huge_bytes_obtained, total_bytes;
	double seconds;
};

/* Run every case over working_set_bytes (huge pages requested). floor_pct
 * is the tolerance for Ks's uncertainty (the main sweep's floor). 0,
 * -EPROTO (a case's layout check failed: its layout says how), -EINTR,
 * -ENOMEM or another -errno. */
int mlp_payload_run(size_t working_set_bytes, size_t line_bytes, size_t accesses, unsigned trials,
		    double floor_pct, uint64_t seed, const struct clock_info *clock, volatile sig_atomic_t *stop,
		    struct mlp_payload *r);

#endif
