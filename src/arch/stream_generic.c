/*
 * Every other target: no vector bandwidth kernels, so the bandwidth
 * experiment measures the scalar C kernels only and reports no
 * non-temporal store rows (a portable C store has no cache-bypass hint).
 */
#if !defined(__x86_64__) && !defined(__aarch64__)
#include "kern/stream.h"

const struct stream_kernel *stream_arch_kernels(size_t *n)
{
	*n = 0;
	return NULL;
}

/* No non-temporal mix here: only the scalar mixes of kern/stream.c run. */
const struct stream_kernel *stream_arch_mix_kernels(size_t *n)
{
	*n = 0;
	return NULL;
}
#else
typedef int stream_generic_not_built;
#endif
