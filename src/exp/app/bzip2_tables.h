/*
 * The measured decoders' T-vectors in arenas of a requested page backing
 * (core/arena.h: mapped 2 MiB aligned, advised, pre-faulted, the backing
 * obtained read back from smaps), handed to the decoder through its
 * mapper (bzip2/bz2.h), so translation is an axis of `app bzip2` and the
 * decoder itself needs nothing of core/.
 */
#ifndef MLPSCOPE_EXP_APP_BZIP2_TABLES_H
#define MLPSCOPE_EXP_APP_BZIP2_TABLES_H

#include "bzip2/bz2.h"
#include "core/arena.h"

/* A decoder whose T-vectors are in arenas of the requested backing, NULL
 * when memory ran out. */
struct bz2_decoder *app_bz2_decoder_new_pages(enum page_request req);

/* T-vector which's arena (0 the decoder's, 1 the scout's second), NULL
 * until mapped or for a decoder not made here: arena_backing_obtained
 * re-reads what backs it now. */
const struct arena *app_bz2_table(const struct bz2_decoder *d, unsigned which);

#endif
