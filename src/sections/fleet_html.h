/*
 * compare's fleet page (sections/fleet_html.c), written from the table
 * sections/fleet.c built.
 */
#ifndef MLPSCOPE_SECTIONS_FLEET_HTML_H
#define MLPSCOPE_SECTIONS_FLEET_HTML_H

#include <stddef.h>

struct fleet;

/* The page: the table with the outliers marked, each outlier's figures, and
 * one plot per judged column, its values against their rank with each
 * group's median and typical tolerance. 0 or 1 with err set. */
int fleet_html_write(const struct fleet *f, const char *path, char *err, size_t errlen);

#endif
