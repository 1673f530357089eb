/*
 * The hash-probe loops: plain, lockstep groups and an AMAC ring, over one
 * chained table, and the linear-probing control. The lane state (key, node)
 * lives in arrays: K is a run-time value. Nothing here checks or times.
 */
#include "kern/app_walks.h"

void app_hash_plain(const struct app_hash_table *t, const uint64_t *keys, size_t n, unsigned k,
		    struct app_hash_out *out)
{
	uint64_t found = 0, sum = 0;

	(void)k;
	for (size_t q = 0; q < n; q++) {
		uint64_t key = keys[q];

		for (uint32_t i = t->heads[key & t->mask]; i != APP_HASH_NIL; i = t->nodes[i].next)
			if (t->nodes[i].key == key) {
				found++;
				sum += t->nodes[i].value;
				break;
			}
	}
	out->found = found;
	out->value_sum = sum;
}

void app_hash_lockstep(const struct app_hash_table *t, const uint64_t *keys, size_t n, unsigned k,
		       struct app_hash_out *out)
{
	uint64_t found = 0, sum = 0, key[APP_K_MAX];
	uint32_t node[APP_K_MAX];

	for (size_t q0 = 0; q0 < n; q0 += k) {
		unsigned g = n - q0 < k ? (unsigned)(n - q0) : k, active;

		for (unsigned i = 0; i < g; i++) {
			key[i] = keys[q0 + i];
			node[i] = t->heads[key[i] & t->mask];
		}
		do {
			active = 0;
			for (unsigned i = 0; i < g; i++) {
				const struct app_hash_node *nd;

				if (node[i] == APP_HASH_NIL)
					continue;
				nd = &t->nodes[node[i]];
				if (nd->key == key[i]) {
					found++;
					sum += nd->value;
					node[i] = APP_HASH_NIL;
				} else if ((node[i] = nd->next) != APP_HASH_NIL) {
					active++;
				}
			}
		} while (active);
	}
	out->found = found;
	out->value_sum = sum;
}

void app_hash_amac(const struct app_hash_table *t, const uint64_t *keys, size_t n, unsigned k,
		   struct app_hash_out *out)
{
	/* node == APP_HASH_NIL with live set: the head is still to load. */
	uint64_t found = 0, sum = 0, key[APP_K_MAX];
	uint32_t node[APP_K_MAX];
	unsigned char live[APP_K_MAX];
	size_t next = 0, done = 0;

	for (unsigned i = 0; i < k; i++) {
		live[i] = next < n;
		if (live[i])
			key[i] = keys[next++];
		node[i] = APP_HASH_NIL;
	}
	while (done < n)
		for (unsigned i = 0; i < k; i++) {
			const struct app_hash_node *nd;
			int end = 0;

			if (!live[i])
				continue;
			if (node[i] == APP_HASH_NIL) {
				node[i] = t->heads[key[i] & t->mask];
				end = node[i] == APP_HASH_NIL;
			} else {
				nd = &t->nodes[node[i]];
				if (nd->key == key[i]) {
					found++;
					sum += nd->value;
					end = 1;
				} else {
					node[i] = nd->next;
					end = node[i] == APP_HASH_NIL;
				}
			}
			if (end) {
				done++;
				node[i] = APP_HASH_NIL;
				live[i] = next < n;
				if (live[i])
					key[i] = keys[next++];
			}
		}
	out->found = found;
	out->value_sum = sum;
}

void app_hash_linear(const struct app_lp_slot *slots, uint64_t mask, const uint64_t *keys, size_t n,
		     struct app_hash_out *out)
{
	uint64_t found = 0, sum = 0;

	for (size_t q = 0; q < n; q++) {
		uint64_t key = keys[q], h = key & mask;

		while (slots[h].key && slots[h].key != key)
			h = (h + 1) & mask;
		if (slots[h].key == key) {
			found++;
			sum += slots[h].value;
		}
	}
	out->found = found;
	out->value_sum = sum;
}
