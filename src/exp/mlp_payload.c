/*
 * Read size and spacing. Each case rebuilds the cycle in one arena (the
 * spacing changes the node count; the shift moves every node into its slot
 * so a payload crosses a line), declares the payload and the lines it
 * claims, and refuses to time a layout whose walk touches other lines. K
 * sweeps a fixed set round-robin, min over trials; Ks is fitted as in mlp.
 * Useful bytes are the payload; lines are the lines the layout check
 * counted per node, times the line size (an assumption about traffic, as in
 * mlp, not a count).
 */
#include "exp/mlp_payload.h"

#include "core/arena.h"
#include "kern/payload.h"
#include "core/stats.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static const unsigned ks[MLP_PAYLOAD_KS] = {1, 2, 4, 8, 12, 16, 20, 24, 32};

static const struct {
	size_t payload, spacing, shift, lines;
	const char *what;
} cases[MLP_PAYLOAD_CASES] = {
	{8, 64, 0, 1, "pointer only, one node per line"},
	{16, 64, 0, 1, "16 B payload, one line"},
	{32, 64, 0, 1, "32 B payload, one line"},
	{64, 64, 0, 1, "a whole line"},
	{8, 128, 0, 1, "pointer only, spacing 128"},
	{64, 128, 0, 1, "a whole line, spacing 128"},
	{128, 128, 0, 2, "a node spanning two lines"},
	{64, 128, 32, 2, "64 B crossing a line boundary"},
};

#define TRIALS_MAX 9

static int run_case(struct mlp_payload_case *pc, char *base, size_t ws, size_t line_bytes, size_t accesses,
		    unsigned trials, double floor_pct, uint64_t seed, const struct clock_info *clock,
		    volatile sig_atomic_t *stop)
{
	struct chain ch;
	uintptr_t lanes[32], sink = 0;
	double t[MLP_PAYLOAD_KS][TRIALS_MAX], kk[MLP_PAYLOAD_KS];
	size_t cursor = 0;
	struct saturation_fit fit;
	int rc;

	if ((rc = chain_build(&ch, base + pc->shift_bytes, ws, pc->spacing_bytes, line_bytes, seed,
			      chain_offset_linear)))
		return rc;
	chain_set_payload(&ch, pc->payload_bytes, pc->lines_per_node);
	if ((rc = chain_verify(&ch, &pc->layout)))
		goto out;
	if (!pc->layout.ok) {
		rc = -EPROTO;
		goto out;
	}
	for (unsigned tr = 0; tr <= trials; tr++) {
		for (unsigned i = 0; i < MLP_PAYLOAD_KS; i++) {
			unsigned k = ks[i];
			size_t steps = accesses / k;
			uint64_t t0, t1;

			if (*stop) {
				rc = -EINTR;
				goto out;
			}
			/* a fresh stretch of the cycle for every region, as in mlp */
			for (unsigned l = 0; l < k; l++)
				lanes[l] = chain_node_at(&ch, cursor + l * steps);
			cursor += steps * k;
			t0 = clock_now();
			sink ^= payload_walk(lanes, k, steps, (unsigned)(pc->payload_bytes / sizeof(uintptr_t)));
			t1 = clock_now();
			/* trial 0 is the warm-up round: code, page walks, a first visit */
			if (tr)
				t[i][tr - 1] = clock_ticks_to_ns(clock, t1 - t0) / (double)(steps * k);
		}
	}
	pc->nk = MLP_PAYLOAD_KS;
	for (unsigned i = 0; i < MLP_PAYLOAD_KS; i++) {
		pc->lanes[i] = ks[i];
		kk[i] = ks[i];
		pc->ns_per_access[i] = stats_min(t[i], trials);
		if (!i || pc->ns_per_access[i] < pc->best_ns) {
			pc->best_ns = pc->ns_per_access[i];
			pc->best_lanes = ks[i];
		}
	}
	stats_fit_saturation(kk, pc->ns_per_access, MLP_PAYLOAD_KS, &fit);
	pc->t1_ns = pc->ns_per_access[0];
	pc->ks = fit.saturation_lanes;
	pc->ks_uncertainty = fit.saturation_lanes * sqrt(2.0) * floor_pct / 100.0;
	pc->plateau_concurrency = fit.floor_ns > 0 ? pc->t1_ns / fit.floor_ns : NAN;
	pc->useful_gbps = (double)pc->payload_bytes / pc->best_ns;
	pc->line_gbps = (double)(pc->lines_per_node * line_bytes) / pc->best_ns;
	if (sink == 1)
		pc->best_lanes++;  /* never: keeps the walks live */
out:
	chain_free(&ch);
	return rc;
}

int mlp_payload_run(size_t working_set_bytes, size_t line_bytes, size_t accesses, unsigned trials,
		    double floor_pct, uint64_t seed, const struct clock_info *clock, volatile sig_atomic_t *stop,
		    struct mlp_payload *r)
{
	struct arena arena = {0};
	uint64_t w0 = clock_wall_ns();
	int rc;

	memset(r, 0, sizeof(*r));
	if (trials > TRIALS_MAX)
		trials = TRIALS_MAX;
	if (!trials)
		trials = 1;
	r->working_set_bytes = working_set_bytes;
	/* room for the shifted layout's last payload */
	if ((rc = arena_map(&arena, working_set_bytes + 4096, PAGES_HUGE)))
		return rc;
	r->total_bytes = arena.bytes;
	r->huge_bytes_obtained = arena.huge_bytes_obtained;
	for (unsigned i = 0; i < MLP_PAYLOAD_CASES; i++) {
		struct mlp_payload_case *pc = &r->c[i];

		pc->payload_bytes = cases[i].payload;
		pc->spacing_bytes = cases[i].spacing;
		pc->shift_bytes = cases[i].shift;
		pc->lines_per_node = cases[i].lines;
		pc->what = cases[i].what;
		r->ncases = i + 1;
		if ((rc = run_case(pc, arena.base, working_set_bytes, line_bytes, accesses, trials, floor_pct, seed,
				   clock, stop)))
			break;
	}
	r->seconds = (double)(clock_wall_ns() - w0) / 1e9;
	arena_unmap(&arena);
	return rc;
}
