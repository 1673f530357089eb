/*
 * Writers for the window experiment: an aligned text section, the JSON
 * `window` object (keys documented with the experiment; extend, never
 * rename), and --dump-code, the raw bytes of one generated probe for a
 * disassembler. Writers never measure.
 */
#ifndef MLPSCOPE_REPORT_WINDOW_OUT_H
#define MLPSCOPE_REPORT_WINDOW_OUT_H

#include <stdio.h>

#include "exp/window.h"
#include "report/writers.h"
#include "util/jsonw.h"

/* The text, the "window" object, and window_fillers.csv and
 * window_points.csv (with a filler column). */
REPORT_SECTION_WRITERS(window_write_text, window_write_json, window_write_csv);

/* Write the host's probe for filler f with n fillers per miss, as raw
 * machine code (disassemble with objdump -D -b binary -m i386:x86-64 or
 * -m aarch64). Returns 0, -ENOTSUP where the host has no encoder, -EIO
 * on a short write, or a jit_code error. */
int window_dump_code(enum probe_filler f, unsigned n, FILE *out);

/* Its view (report/window_view.c): the HTML tables, headline figures and plots. */
struct view;
extern const struct view view_window;

#endif
