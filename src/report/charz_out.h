/*
 * The characteriser's flags, properties and covers as text and JSON, for
 * every command that shows what it saw (trace, qmodel). A property reads
 * "held" only beside how often it was armed: one never armed has not been
 * tested, and the caller may say why it could not be (why(ctx, p)).
 */
#ifndef MLPSCOPE_REPORT_CHARZ_OUT_H
#define MLPSCOPE_REPORT_CHARZ_OUT_H

#include <stdio.h>

#include "analyse/charz.h"

struct jsonw;

/* Why a property or flag cannot fire in the caller's mode, or NULL. */
typedef const char *(*charz_prop_why_fn)(const void *ctx, enum charz_prop p);
typedef const char *(*charz_flag_why_fn)(const void *ctx, unsigned flag);

#define CHARZ_NFLAGS 4

/* The i-th flag (0..CHARZ_NFLAGS-1): its bit and its name ("overflow" ...). */
unsigned charz_flag_bit(unsigned i);
const char *charz_flag_name(unsigned i);

/* "held", "FAILED" or "not armed". */
const char *charz_prop_verdict(const struct charz_check *c);

/* Text: one line per flag (raised or not, or why it cannot be), then one
 * per property (verdict, armed count, words), then the covers on one line;
 * each line starts with indent. why may be NULL. */
void charz_write_checks_text(FILE *out, const char *indent, const struct charz_summary *s, charz_flag_why_fn fwhy,
			     charz_prop_why_fn pwhy, const void *ctx);

/* JSON, into the object open in w: "flags" {name: raised}, "flag_checks"
 * [{flag, raised, armable, why}], "properties" [{id, key, text, armed,
 * failed, verdict, why}] and "covers" {key: count}. why may be NULL. */
void charz_write_checks_json(struct jsonw *w, const struct charz_summary *s, charz_flag_why_fn fwhy,
			     charz_prop_why_fn pwhy, const void *ctx);

#endif
