/*
 * The table of load and store ports. Each row is a core's L1D throughput as
 * its vendor's optimisation guide states it: what the address-generation and
 * store-data ports can start per cycle, not what a given loop sustains. A
 * hybrid client part is left out: which core type ran the sweep is a fact
 * of the run, and a row here would name one of two answers.
 */
#include "analyse/ports.h"

#include <stddef.h>
#include <string.h>

static const char amd_17h[] = "AMD Software Optimization Guide, family 17h (pub. 55723, 56305)";
static const char amd_19h[] = "AMD Software Optimization Guide, family 19h (pub. 56665; Zen 4: 57647)";
static const char amd_1ah[] = "AMD Software Optimization Guide, family 1Ah (pub. 58455)";
static const char intel_manual[] = "Intel 64 and IA-32 Optimization Reference Manual (248966)";

static const struct row {
	bool amd;
	int family, model_lo, model_hi;
	double loads, stores;
	const char *core, *source;
} rows[] = {
	{true, 0x17, 0x00, 0xff, 2, 1, "Zen, Zen 2", amd_17h},
	{true, 0x19, 0x00, 0x0f, 3, 2, "Zen 3", amd_19h},
	{true, 0x19, 0x20, 0x2f, 3, 2, "Zen 3", amd_19h},
	{true, 0x19, 0x40, 0x5f, 3, 2, "Zen 3", amd_19h},
	{true, 0x19, 0x10, 0x1f, 3, 2, "Zen 4", amd_19h},
	{true, 0x19, 0x60, 0x7f, 3, 2, "Zen 4", amd_19h},
	{true, 0x19, 0xa0, 0xaf, 3, 2, "Zen 4", amd_19h},
	{true, 0x1a, 0x00, 0xff, 4, 2, "Zen 5", amd_1ah},
	{false, 6, 0x55, 0x55, 2, 1, "Skylake server", intel_manual},
	{false, 6, 0x6a, 0x6a, 2, 2, "Sunny Cove (Ice Lake server)", intel_manual},
	{false, 6, 0x6c, 0x6c, 2, 2, "Sunny Cove (Ice Lake server)", intel_manual},
	{false, 6, 0x8f, 0x8f, 3, 2, "Golden Cove (Sapphire Rapids)", intel_manual},
	{false, 6, 0xcf, 0xcf, 3, 2, "Raptor Cove (Emerald Rapids)", intel_manual},
	{false, 6, 0xad, 0xae, 3, 2, "Redwood Cove (Granite Rapids)", intel_manual},
};

bool ports_lookup(const char *vendor, int family, int model, struct ports *p)
{
	bool amd = vendor && !strcmp(vendor, "AuthenticAMD"), intel = vendor && !strcmp(vendor, "GenuineIntel");

	for (size_t i = 0; (amd || intel) && i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];

		if (r->amd == amd && r->family == family && model >= r->model_lo && model <= r->model_hi) {
			*p = (struct ports){r->loads, r->stores, false, r->core, r->source};
			return true;
		}
	}
	/* the largest of the table: a port term divides by it, so the bound
	 * it gives can only be lower than the true one */
	*p = (struct ports){4, 2, true, NULL, "assumed: a CPU without a public figure in the table; its largest, "
			    "so the term stays a lower bound"};
	return false;
}
