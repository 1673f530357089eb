/* Writers into memory (memout.h). */
#include "memout.h"

#include <string.h>

FILE *memout_open(struct memout *m)
{
	memset(m, 0, sizeof(*m));
	m->f = open_memstream(&m->buf, &m->len);
	return m->f;
}

char *memout_close(struct memout *m)
{
	if (m->f)
		fclose(m->f);
	m->f = NULL;
	return m->buf;
}

struct jsonw *memout_json_open(struct memout *m)
{
	memout_open(m);
	jsonw_init(&m->w, m->f);
	jsonw_object_begin(&m->w, NULL);
	return &m->w;
}

char *memout_json_close(struct memout *m)
{
	jsonw_object_end(&m->w);
	jsonw_finish(&m->w);
	return memout_close(m);
}
