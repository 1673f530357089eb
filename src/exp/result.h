/*
 * The result document's model: the provenance that ties a result to a
 * binary, a machine and a layout, and the schema version every reader
 * checks. Each section's result is its own type in its own exp/ header;
 * the run that holds them all is run/run.h.
 */
#ifndef MLPSCOPE_EXP_RESULT_H
#define MLPSCOPE_EXP_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/coretype.h"
#include "util/build_id.h"

/* The archived copy's path: a directory given by the user plus the copy's
 * own name, so it is bounded like any path. */
#define PROVENANCE_PATH_LEN 4096

struct provenance {
	char binary_sha256[65];
	/* The linker's build id as hex, "" when the link wrote none. */
	char build_id[BUILD_ID_HEX_LEN];
	/* The git commit the binary was built from, "unknown" outside git. */
	const char *source_revision;
	int source_dirty;        /* 1: files differed from that commit, 0: clean, -1: unknown */
	/* Where --archive copied the executable, "" when not asked. */
	char archived_binary[PROVENANCE_PATH_LEN];
	char compiler[128];
	const char *cflags;
	char kernel[256];
	char timestamp_utc[32];
	char arch[16];
	uint64_t seed;
	/* The pinned CPU's kind (core/coretype.h), "" when unpinned or unstated:
	 * on a hybrid or big.LITTLE part the figures are that core's. */
	char cpu_pinned_type[CORETYPE_NAME_LEN];
	int core_type_count;     /* kinds the host states; the header names one only when > 1 */
};

/* The JSON document's schema: only ever extended, never renamed; a reader
 * refuses a newer one. */
#define RESULT_SCHEMA_VERSION 1

#endif
