/*
 * Glue between the queue model and the DRAM map: the addresses are the ones
 * qmodel_run issues (qmodel_address), in the order it issues them, so the
 * counts belong to the same requests the makespan does. Chains draw lines
 * uniformly from QMODEL_CHAIN_LINES, which is the footprint the random-line
 * expectation takes.
 */
#include "analyse/qmodel_dram.h"

#include <errno.h>
#include <string.h>

struct addr_ctx {
	const struct qmodel_workload *w;
	uint64_t request_bytes;
};

static uint64_t addr_at(const void *ctx, uint64_t i)
{
	const struct addr_ctx *a = ctx;

	return qmodel_address(a->w, a->request_bytes, i);
}

int qmodel_dram_at(const struct dram_map *d, const struct qmodel_memory *m, const struct qmodel_workload *w,
		   struct qmodel_dram *out)
{
	struct addr_ctx ctx = {.w = w, .request_bytes = m->request_bytes};
	uint64_t p = qmodel_in_flight(m, w);
	bool chains = w->feed == QMODEL_FEED_CHAINS;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!w->requests || (chains && !w->chains))
		return -EINVAL;
	if ((rc = dram_count(d, m->request_bytes, addr_at, &ctx, w->requests, p, &out->seen)))
		return rc;
	out->hit_model = chains ? dram_random_hit_model(d, QMODEL_CHAIN_LINES * m->request_bytes)
				: dram_seq_hit_model(d, m->request_bytes, w->requests);
	out->banks_model = chains ? dram_random_banks_model(d, p) : dram_seq_banks_model(d, m->request_bytes, p);
	return 0;
}
