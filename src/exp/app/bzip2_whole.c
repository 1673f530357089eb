/*
 * `app bzip2`'s whole-process phase: the CPUs this process may use, the
 * budget's word for the rounds, and the expected output (libbz2's bytes
 * and hash) handed to exp/app/bzip2_processes.c, which knows nothing of
 * the app's result or budget; and the instruction counts
 * (exp/app/bzip2_instructions.c) after them. Measures only; never prints.
 */
#include "exp/app/bzip2.h"

#include "core/team.h"

#include <stdio.h>
#include <string.h>

static bool phase_past(void *pctx)
{
	return app_bzip2_past(pctx, APP_BZ2_PHASE_PROCESSES);
}

int app_bzip2_whole_process(const struct app_bzip2_params *p, const uint8_t *in, size_t len,
			    struct app_bzip2_result *r)
{
	int cpus[APP_BZ2_PROC_CPUS];
	int n = team_allowed_cpus(cpus, APP_BZ2_PROC_CPUS);
	unsigned ncpus = n < APP_BZ2_PROC_CPUS ? (unsigned)n : APP_BZ2_PROC_CPUS;

	memset(&r->processes, 0, sizeof(r->processes));
	if (!p->process_rounds || n < 1)
		return 0;
	if (app_bzip2_past(p, APP_BZ2_PHASE_PROCESSES)) {
		r->processes.budget_cut = true;
		return 0;
	}
	return app_bzip2_processes_run(&r->processes, in, len, cpus, ncpus, p->max_workers, p->process_rounds,
				       r->decoded_bytes, r->hash, phase_past, (void *)p);
}

int app_bzip2_count_instructions(const struct app_bzip2_params *p, struct app_bzip2_result *r)
{
	int cpus[1];

	memset(&r->instructions, 0, sizeof(r->instructions));
	if (!p->count_instructions)
		return 0;
	if (app_bzip2_past(p, APP_BZ2_PHASE_PROCESSES)) {
		snprintf(r->instructions.why, sizeof(r->instructions.why), "the budget ran out before them");
		return 0;
	}
	return app_bzip2_instructions_measure(&r->instructions, team_allowed_cpus(cpus, 1) > 0 ? cpus[0] : 0);
}
