/*
 * The search loops. Every lane of a group runs the same number of steps
 * (the halving sequence depends on n alone; the Eytzinger depth is fixed),
 * so lockstep costs no lane waiting, only the state array. The prefetch
 * forms touch, per lane and step, the lines the search can reach later:
 * two midpoints ahead for the sorted array, the 16 descendants four levels
 * down (two 64-byte lines of 8-byte keys) for Eytzinger.
 */
#include "kern/app_walks.h"

#include <stdbool.h>

/* One body per search for both forms: every caller passes prefetch as a
 * constant and the body is forced inline, so each public function is its
 * own loop and the plain one carries neither the prefetches nor a test. */
static inline __attribute__((always_inline)) void sorted_lanes(const uint64_t *a, size_t n, const uint64_t *queries,
								size_t nq, unsigned k, uint32_t *result, bool prefetch)
{
	const uint64_t *base[APP_K_MAX];

	for (size_t q0 = 0; q0 < nq; q0 += k) {
		unsigned g = nq - q0 < k ? (unsigned)(nq - q0) : k;
		size_t len = n;

		for (unsigned i = 0; i < g; i++)
			base[i] = a;
		while (len > 1) {
			size_t half = len / 2;

			for (unsigned i = 0; i < g; i++) {
				if (prefetch) {
					size_t next = (len - half) / 2;

					__builtin_prefetch(base[i] + next);
					__builtin_prefetch(base[i] + half + next);
				}
				base[i] = base[i][half] < queries[q0 + i] ? base[i] + half : base[i];
			}
			len -= half;
		}
		for (unsigned i = 0; i < g; i++)
			result[q0 + i] = (uint32_t)(base[i] - a) + (*base[i] < queries[q0 + i]);
	}
}

static inline __attribute__((always_inline)) void eytzinger_lanes(const uint64_t *e, size_t n,
								   const uint64_t *queries, size_t nq, unsigned k,
								   uint32_t *result, bool prefetch)
{
	size_t pos[APP_K_MAX];
	unsigned depth = app_eytzinger_depth(n);

	for (size_t q0 = 0; q0 < nq; q0 += k) {
		unsigned g = nq - q0 < k ? (unsigned)(nq - q0) : k;

		for (unsigned i = 0; i < g; i++)
			pos[i] = 1;
		for (unsigned d = 0; d < depth; d++)
			for (unsigned i = 0; i < g; i++) {
				size_t p = pos[i], at = p <= n ? p : 0;

				/* Past the end the address is never dereferenced:
				 * a prefetch does not fault. */
				if (prefetch) {
					__builtin_prefetch((const void *)((uintptr_t)e + 128 * p));
					__builtin_prefetch((const void *)((uintptr_t)e + 128 * p + 64));
				}
				pos[i] = p <= n ? 2 * p + (e[at] < queries[q0 + i]) : p;
			}
		for (unsigned i = 0; i < g; i++)
			result[q0 + i] = app_eytzinger_answer(pos[i]);
	}
}

void app_search_sorted(const uint64_t *a, size_t n, const uint64_t *queries, size_t nq, unsigned k,
		       uint32_t *result)
{
	sorted_lanes(a, n, queries, nq, k, result, false);
}

void app_search_sorted_prefetch(const uint64_t *a, size_t n, const uint64_t *queries, size_t nq, unsigned k,
				uint32_t *result)
{
	sorted_lanes(a, n, queries, nq, k, result, true);
}

void app_search_eytzinger(const uint64_t *e, size_t n, const uint64_t *queries, size_t nq, unsigned k,
			  uint32_t *result)
{
	eytzinger_lanes(e, n, queries, nq, k, result, false);
}

void app_search_eytzinger_prefetch(const uint64_t *e, size_t n, const uint64_t *queries, size_t nq, unsigned k,
				   uint32_t *result)
{
	eytzinger_lanes(e, n, queries, nq, k, result, true);
}
