/*
 * docs/OUTPUT.md's option lists, written from the tables that drive
 * `help CMD` and the man page (cli_command_option), so the document and
 * the help cannot drift apart. The lists sit between two marker lines;
 * tools/gen_docs.c (`make docs`) rewrites them there, a test compares them.
 * Text only: it measures nothing and reads no file.
 */
#ifndef MLPSCOPE_OPTIONS_DOC_H
#define MLPSCOPE_OPTIONS_DOC_H

#include <stddef.h>
#include <stdio.h>

/* The lines that open and close the generated block, each a whole line. */
extern const char options_doc_begin[], options_doc_end[];

/* The block's body, in Markdown: the options every command takes, then
 * per command (in --help's order) the options of its own. */
void options_doc_write(FILE *f);

/* In doc (text, NUL-terminated): the body between the marker lines, its
 * start in *body and its length in *len. 0, or -ENOENT when a marker is
 * missing or they are out of order. */
int options_doc_find(const char *doc, const char **body, size_t *len);

#endif
