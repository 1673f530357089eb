/*
 * The decoder's mapper for page-backed T-vectors (bzip2_tables.h): one
 * arena a T-vector, the pair freed with the decoder.
 */
#include "exp/app/bzip2_tables.h"

#include <stdlib.h>

struct tables {
	enum page_request req;
	struct arena a[2];
};

static uint32_t *tables_map(void *ctx, unsigned which, size_t bytes)
{
	struct tables *t = ctx;

	/* A failed map leaves the arena's base NULL: release skips it. */
	if (which > 1 || arena_map(&t->a[which], bytes, t->req))
		return NULL;
	return (uint32_t *)(void *)t->a[which].base;
}

static void tables_release(void *ctx)
{
	struct tables *t = ctx;

	for (unsigned i = 0; i < 2; i++)
		if (t->a[i].base)
			arena_unmap(&t->a[i]);
	free(t);
}

struct bz2_decoder *app_bz2_decoder_new_pages(enum page_request req)
{
	struct tables *t = calloc(1, sizeof(*t));
	struct bz2_table_mapper m = {.map = tables_map, .release = tables_release, .ctx = t};

	if (!t)
		return NULL;
	t->req = req;
	return bz2_decoder_new_mapped(&m);
}

const struct arena *app_bz2_table(const struct bz2_decoder *d, unsigned which)
{
	const struct tables *t = bz2_decoder_mapper_ctx(d);

	return t && which < 2 && t->a[which].base ? &t->a[which] : NULL;
}
