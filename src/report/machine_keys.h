/*
 * The keys of the machine section's caches_reported[] objects, each spelled
 * once: the machine writer (report/machine_out.c) and view write and show
 * them, and the latency view reads them to set its plateaus beside the
 * caches the OS reports, so a key renamed here is renamed for every reader.
 * Only these: the rest of the machine object is read by its own files alone.
 */
#ifndef MLPSCOPE_REPORT_MACHINE_KEYS_H
#define MLPSCOPE_REPORT_MACHINE_KEYS_H

#define MACHINE_KEY_CACHES_REPORTED "caches_reported"

/* Each of machine.caches_reported[]: one cache as the OS or the CPU states it. */
#define MACHINE_CACHE_KEY_LEVEL      "level"
#define MACHINE_CACHE_KEY_TYPE       "type"
#define MACHINE_CACHE_KEY_SIZE_BYTES "size_bytes"
#define MACHINE_CACHE_KEY_LINE_BYTES "line_bytes"
#define MACHINE_CACHE_KEY_WAYS       "ways"
#define MACHINE_CACHE_KEY_SOURCE     "source"

#endif
