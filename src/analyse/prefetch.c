/*
 * The next-line prefetch model. Each line has one state per degree: not
 * delivered, delivered by demand, prefetched and not yet used, prefetched
 * and used. Only the first use of a prefetched line triggers more, as a
 * tagged prefetcher does, so a sequential walk keeps D lines ahead of
 * itself with one demand miss, and a scattered one drags D unused lines in
 * with every miss: the over-fetch the program's own accounting never sees.
 */
#include "analyse/prefetch.h"
#include "analyse/line_table.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { ABSENT, DEMANDED, PREFETCHED, PREFETCH_USED };

const unsigned prefetch_degrees[PREFETCH_NDEGREES] = {1, 2, 4};

struct prefetch_entry {
	uint64_t key;                      /* line + 1; 0 marks an empty slot */
	uint8_t state[PREFETCH_NDEGREES];
};

static size_t slot_of(const struct prefetch_model *m, uint64_t key)
{
	return line_table_slot(m->tab, sizeof(*m->tab), m->cap, key);
}

static int grow(struct prefetch_model *m)
{
	struct prefetch_entry *tab = line_table_grow(m->tab, &m->cap, sizeof(*m->tab));

	if (tab)
		m->tab = tab;
	return tab ? 0 : -ENOMEM;
}

/* The entry of line, made (every degree ABSENT) when new. NULL: -ENOMEM. */
static struct prefetch_entry *entry(struct prefetch_model *m, uint64_t line)
{
	size_t i;

	if (2 * (m->used + 1) > m->cap && grow(m))
		return NULL;
	i = slot_of(m, line + 1);
	if (!m->tab[i].key) {
		m->tab[i].key = line + 1;
		m->used++;
	}
	return &m->tab[i];
}

int prefetch_init(struct prefetch_model *m)
{
	memset(m, 0, sizeof(*m));
	for (int d = 0; d < PREFETCH_NDEGREES; d++)
		m->f[d].degree = prefetch_degrees[d];
	return grow(m);
}

void prefetch_free(struct prefetch_model *m)
{
	free(m->tab);
	m->tab = NULL;
	m->cap = m->used = 0;
}

/* Fetch the next `degree` lines after line that are not yet delivered. */
static int run_ahead(struct prefetch_model *m, int d, uint64_t line)
{
	for (unsigned k = 1; k <= m->f[d].degree; k++) {
		struct prefetch_entry *e = entry(m, line + k);

		if (!e)
			return -ENOMEM;
		if (e->state[d] == ABSENT) {
			e->state[d] = PREFETCHED;
			m->f[d].prefetched++;
		}
	}
	return 0;
}

int prefetch_touch(struct prefetch_model *m, uint64_t line)
{
	for (int d = 0; d < PREFETCH_NDEGREES; d++) {
		struct prefetch_entry *e = entry(m, line);
		bool trigger = false;
		int rc;

		if (!e)
			return -ENOMEM;
		if (e->state[d] == ABSENT) {
			e->state[d] = DEMANDED;
			m->f[d].demand_lines++;
			trigger = true;
		} else if (e->state[d] == PREFETCHED) {
			e->state[d] = PREFETCH_USED;
			m->f[d].used++;
			trigger = true;
		}
		if (trigger && (rc = run_ahead(m, d, line)))
			return rc;
	}
	return 0;
}

uint64_t prefetch_unused(const struct prefetch_figures *f)
{
	return f->prefetched - f->used;
}

uint64_t prefetch_delivered_lines(const struct prefetch_figures *f)
{
	return f->demand_lines + f->prefetched;
}

double prefetch_efficiency(const struct prefetch_figures *f, uint64_t used_bytes, uint64_t line_bytes)
{
	uint64_t lines = prefetch_delivered_lines(f);

	return lines ? (double)used_bytes / ((double)lines * (double)line_bytes) : NAN;
}

double prefetch_accuracy(const struct prefetch_figures *f)
{
	return f->prefetched ? (double)f->used / (double)f->prefetched : NAN;
}
