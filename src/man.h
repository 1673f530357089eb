/*
 * The manual page mlpscope(1), generated from the same command and option
 * tables that drive --help (see man.c).
 */
#ifndef MLPSCOPE_MAN_H
#define MLPSCOPE_MAN_H

#include <stdio.h>

/* Write the whole page in man(7) macros to f. */
void man_write(FILE *f);

#endif
