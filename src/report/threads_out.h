/*
 * What the threaded sections' writers (bandwidth, multicore, loaded) say
 * alike: where its threads ran (thread i ->
 * CPU, as pinned and as each thread observed it) and the close of its JSON
 * object. Reads a placement and writes; never measures.
 */
#ifndef MLPSCOPE_REPORT_THREADS_OUT_H
#define MLPSCOPE_REPORT_THREADS_OUT_H

#include <stddef.h>
#include <stdio.h>

#include "core/team.h"
#include "util/jsonw.h"

/* The text line naming each thread's CPU. */
void threads_write_placement_text(const struct team_placement *pl, FILE *f);

/* The end of a threaded section's JSON object: "placement" (one object per
 * thread), "seconds", then the object's close. */
void threads_write_json_close(struct jsonw *w, const struct team_placement *pl, double seconds);

#endif
