/*
 * The inverse-BWT walk as a runtime-K loop over a lane-state array: the row
 * and output pointer of every lane live in memory (L1), as they must when K
 * is a run-time value, so each step adds a state load and store per lane to
 * the walk's one dependent table load and one output store. The generated
 * register-lane kernels (app.gen.c) remove exactly that bookkeeping.
 */
#include "kern/app_walks.h"

/* The runtime-K walk over table words of type word, written once for both
 * widths; the state array holds rows in that type, as the table does. */
#define BWT_STATE_WALK(fn, word)                                                                         \
	void fn(const void *table, uint8_t *out, uint64_t *pos, const size_t *seg_begin, unsigned k,        \
		size_t steps)                                                                               \
	{                                                                                                   \
		const word *tt = table;                                                                     \
		word p[APP_K_MAX];                                                                          \
		uint8_t *o[APP_K_MAX];                                                                      \
                                                                                                            \
		for (unsigned i = 0; i < k; i++) {                                                          \
			p[i] = (word)pos[i];                                                                \
			o[i] = out + seg_begin[i];                                                          \
		}                                                                                           \
		for (size_t s = 0; s < steps; s++)                                                          \
			for (unsigned i = 0; i < k; i++) {                                                  \
				word t = tt[p[i]];                                                          \
                                                                                                            \
				o[i][s] = (uint8_t)t;                                                       \
				p[i] = t >> 8;                                                              \
			}                                                                                   \
		for (unsigned i = 0; i < k; i++)                                                            \
			pos[i] = p[i];                                                                      \
	}

BWT_STATE_WALK(app_bwt_walk_state32, uint32_t)
BWT_STATE_WALK(app_bwt_walk_state64, uint64_t)

void app_bwt_walk_tail(const void *table, int wide, uint8_t *out, uint64_t *pos, const size_t *seg_begin,
		       unsigned k, size_t done)
{
	for (unsigned i = 0; i < k; i++)
		for (size_t s = seg_begin[i] + done; s < seg_begin[i + 1]; s++) {
			uint64_t t = wide ? ((const uint64_t *)table)[pos[i]] : ((const uint32_t *)table)[pos[i]];

			out[s] = (uint8_t)t;
			pos[i] = t >> 8;
		}
}

/* One lane of the ring: its segment, row, and where it writes. */
struct ring_lane {
	unsigned seg;
	uint64_t row;
	uint8_t *w, *end;
	uint32_t chunk;
	uint64_t bytes;
};

static int ring_start(const struct app_bwt_ring *g, struct ring_lane *l, unsigned seg, size_t *next_chunk)
{
	if (*next_chunk >= g->nchunks)
		return -1;
	l->seg = seg;
	l->row = g->start_row[seg];
	l->chunk = (uint32_t)(*next_chunk)++;
	l->w = g->pool + (size_t)l->chunk * g->chunk_bytes;
	l->end = l->w + g->chunk_bytes;
	l->bytes = 0;
	g->seg_first_chunk[seg] = l->chunk;
	g->chunk_next[l->chunk] = UINT32_MAX;
	return 0;
}

int app_bwt_walk_ring(const struct app_bwt_ring *g, unsigned k)
{
	struct ring_lane lane[APP_K_MAX];
	unsigned next_seg = 0, live = 0;
	size_t next_chunk = 0;
	unsigned char on[APP_K_MAX];

	for (unsigned i = 0; i < k; i++) {
		on[i] = next_seg < g->nsegs;
		if (on[i] && ring_start(g, &lane[i], next_seg++, &next_chunk))
			return -1;
		live += on[i];
	}
	while (live)
		for (unsigned i = 0; i < k; i++) {
			struct ring_lane *l = &lane[i];
			uint64_t t;

			if (!on[i])
				continue;
			t = g->wide ? ((const uint64_t *)g->table)[l->row] : ((const uint32_t *)g->table)[l->row];
			*l->w++ = (uint8_t)t;
			l->bytes++;
			l->row = t >> 8;
			if (l->w == l->end) {
				uint32_t c;

				if (next_chunk >= g->nchunks)
					return -1;
				c = (uint32_t)next_chunk++;
				g->chunk_next[l->chunk] = c;
				g->chunk_next[c] = UINT32_MAX;
				l->chunk = c;
				l->w = g->pool + (size_t)c * g->chunk_bytes;
				l->end = l->w + g->chunk_bytes;
			}
			if (g->stop_bits[l->row / 64] >> (l->row % 64) & 1) {
				g->seg_bytes[l->seg] = l->bytes;
				g->seg_end_row[l->seg] = l->row;
				on[i] = next_seg < g->nsegs;
				if (on[i] && ring_start(g, l, next_seg++, &next_chunk))
					return -1;
				live -= !on[i];
			}
		}
	return 0;
}
