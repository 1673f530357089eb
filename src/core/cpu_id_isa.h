/*
 * The per-ISA decoders cpu_id.c dispatches to by the host's ISA. Portable
 * C: each decodes the host seam's answers, never an instruction of its
 * own. Nothing but cpu_id*.c includes this.
 */
#ifndef MLPSCOPE_CORE_CPU_ID_ISA_H
#define MLPSCOPE_CORE_CPU_ID_ISA_H

#include "core/cpu_id.h"

int cpu_id_x86_identify(struct cpu_id *id);
int cpu_id_x86_caches(struct cache_desc *out, int max);
int cpu_id_x86_tlbs(struct cpu_tlb *out, int max);

int cpu_id_arm_identify(struct cpu_id *id);
int cpu_id_arm_caches(struct cache_desc *out, int max);

#endif
