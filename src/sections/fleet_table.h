/*
 * The fleet table: its layout (the views' columns and settings and the
 * document's own), and its rows as compare builds them (sections/fleet.c)
 * and its page draws them (sections/fleet_html.c): per result, what the
 * table shows and the outlier judgement, read once from its document, which
 * is then freed (a thousand parsed results would hold most of a gigabyte).
 */
#ifndef MLPSCOPE_SECTIONS_FLEET_TABLE_H
#define MLPSCOPE_SECTIONS_FLEET_TABLE_H

#include <stdbool.h>
#include <stddef.h>

struct view;
struct view_fleet_column;
struct view_fleet_setting;

/* Most results one fleet table reads (a directory may hold more: error). */
#define FLEET_MAX_RESULTS 1024
/* Most columns (and most settings) the table holds. */
#define FLEET_MAX_COLUMNS 32

/* The table's columns and the settings listed above it when the results
 * differ in them: every view's and the document's own (the warnings; the
 * version, schema_version and provenance.online_cpus), each list by its
 * order (ties in the views' order). */
struct fleet_layout {
	const struct view_fleet_column *col[FLEET_MAX_COLUMNS];
	size_t ncol;
	const struct view_fleet_setting *setting[FLEET_MAX_COLUMNS];
	size_t nsetting;
	/* per column: the figure its outlier tolerance is a share of (a
	 * view's fleet_scales), NULL: its own median */
	const char *scale[FLEET_MAX_COLUMNS];
};

/* Fill l from views (NULL-terminated, registry_views()). */
void fleet_layout(const struct view *const *views, struct fleet_layout *l);

/* Whether outliers are sought in column c: every headline figure but the
 * floor (the tolerance itself) and the document's own count of warnings. */
bool fleet_column_judged(const struct view_fleet_column *c);

/* The summary figure each run's tolerance is read from. */
#define FLEET_FLOOR_FIGURE "noise_floor_pct"

#define FLEET_TEXT 64

struct fleet_host {
	char path[4096];
	const char *label;  /* the file's name, inside path */
	size_t index;       /* in file order: rows equal by the sort figure keep it */
	size_t group;       /* results judged together: one CPU model, the same settings */
	char cpu[128];
	char setting[FLEET_MAX_COLUMNS][FLEET_TEXT];  /* per layout setting, "(absent)" */
	double value[FLEET_MAX_COLUMNS];              /* per column, NaN when absent */
	double uncertainty[FLEET_MAX_COLUMNS];        /* the +- it states, NaN: none */
	double scale[FLEET_MAX_COLUMNS];              /* the column's scale figure, NaN: none */
	int decimals[FLEET_MAX_COLUMNS];
	double tolerance[FLEET_MAX_COLUMNS];          /* NaN: not judged */
	signed char mark[FLEET_MAX_COLUMNS];          /* +1/-1: above/below the group's median by more */
	double floor_pct;                             /* its noise floor, NaN: none */
	bool outlier;                                 /* any mark */
};

struct fleet {
	struct fleet_host *h;
	size_t n, cap;
	struct fleet_layout l;
	const struct view_fleet_column *sort;
	bool judged[FLEET_MAX_COLUMNS];  /* columns outliers are sought in */
	size_t ngroups;
	size_t *group_size;              /* per group */
	size_t *group_first;             /* per group: its first host in table order */
	double *median;                  /* ngroups x FLEET_MAX_COLUMNS, NaN: not judged */
	size_t noutliers;
};

/* The column's figure for h as the table prints it ("-" when absent, a '*'
 * after an outlier when marks). */
void fleet_cell(char *out, size_t len, const struct fleet_host *h, size_t c, bool marks);

/* "mem ns 131.2, median 104.0 (+26.2%, tolerance 2.08)": each of h's
 * marked figures, "; " between. */
void fleet_marks(char *out, size_t len, const struct fleet *f, const struct fleet_host *h);

/* Group g's letters as the text and the page name it: A..Z, then AA... */
void fleet_group_name(char *out, size_t len, size_t g);

#endif
