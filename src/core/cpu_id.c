/*
 * The CPU's claims about itself, decoded by the host's ISA (host_isa(), the
 * recorded host's when one is in use, so an x86-64 build decodes a recorded
 * AArch64 host and the other way round). A host of any other ISA has no
 * way to ask: unknown, never guessed.
 */
#include "core/cpu_id.h"

#include "core/host.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

static bool isa_is(const char *name)
{
	return !strcmp(host_isa(), name);
}

int cpu_identify(struct cpu_id *id)
{
	if (isa_is("x86_64"))
		return cpu_id_x86_identify(id);
	if (isa_is("aarch64"))
		return cpu_id_arm_identify(id);
	memset(id, 0, sizeof(*id));
	return -ENOTSUP;
}

int cpu_read_caches(struct cache_desc *out, int max)
{
	if (isa_is("x86_64"))
		return cpu_id_x86_caches(out, max);
	if (isa_is("aarch64"))
		return cpu_id_arm_caches(out, max);
	return -ENOTSUP;
}

const char *cpu_caches_source(void)
{
	return isa_is("x86_64") ? "cpuid" : isa_is("aarch64") ? "ctr_el0" : "none";
}

int cpu_read_tlbs(struct cpu_tlb *out, int max)
{
	/* AArch64 has no architected TLB-size register: unknown. */
	return isa_is("x86_64") ? cpu_id_x86_tlbs(out, max) : -ENOTSUP;
}
