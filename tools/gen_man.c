/*
 * Writes mlpscope(1) to stdout from the tables that drive --help (src/man.c);
 * `make` runs it into build/mlpscope.1, so the page is never edited by hand
 * and cannot disagree with --help. Linked with the same objects as mlpscope.
 */
#include "man.h"

#include <stdio.h>

int main(void)
{
	man_write(stdout);
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
