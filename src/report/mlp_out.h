/*
 * Writers for the lanes (mlp) section: text and JSON (keys in
 * docs/OUTPUT.md). They read the result and write; they never measure.
 */
#ifndef MLPSCOPE_REPORT_MLP_OUT_H
#define MLPSCOPE_REPORT_MLP_OUT_H

#include "exp/mlp.h"
#include "report/writers.h"
#include "util/jsonw.h"

/* The text, the "mlp" object, and mlp_sweep.csv, mlp_control.csv and
 * mlp_estimate.csv (each with a pages column). */
REPORT_SECTION_WRITERS(mlp_write_text, mlp_write_json, mlp_write_csv);

/* "; a load's latency falls after traffic here (WHOSE control ran 1.12x
 * its K = 1 speed after K = 4)" into buf and returned: the clause a
 * warning of speed-ups above K appends where a control arm showed that
 * state (mlp_latency_falls_after_traffic); whose: "the", "mlp's" ... */
const char *mlp_fall_clause(char *buf, size_t len, const char *whose, double speedup, unsigned lanes);

/* Its view (report/mlp_view.c): the HTML tables, headline figures and plots. */
struct view;
extern const struct view view_mlp;

/* The lanes experiment's arms in a document: mlp itself, or mlp.small and
 * mlp.huge after --pages both. Returns how many (0..2); pages[i] is the arm's
 * pages.requested ("small", "huge", or "?" when absent). In mlp_view.c. */
size_t mlp_arms_of(const struct jsonr_value *doc, const struct jsonr_value *arms[2], const char *pages[2]);

#endif
