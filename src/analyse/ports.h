/*
 * How many loads and how many stores a core's L1D can take per cycle, by
 * CPU identity (vendor, family, model as CPUID reports them and a result's
 * machine section records them), from the vendors' public optimisation
 * guides. A CPU the table does not know gets the largest counts in it,
 * stated as assumed: the model's port terms divide by these counts, so the
 * larger figure keeps each term a lower bound.
 */
#ifndef MLPSCOPE_ANALYSE_PORTS_H
#define MLPSCOPE_ANALYSE_PORTS_H

#include <stdbool.h>

struct ports {
	double loads_per_cycle;
	double stores_per_cycle;
	bool assumed;            /* not a figure for this CPU: the table's largest */
	const char *core;        /* the core the figure is for, by its public name; NULL when assumed */
	const char *source;      /* the public document, or why assumed */
};

/* Fill p for vendor ("AuthenticAMD", "GenuineIntel"; NULL unknown), family
 * and model. Always fills p; returns true when the table knows the CPU. */
bool ports_lookup(const char *vendor, int family, int model, struct ports *p);

#endif
