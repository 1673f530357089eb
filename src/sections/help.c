/*
 * The `help` section: its descriptor (sections/list.h names it) and the glue
 * from the options and the plan to its experiment's parameters.
 * In --help: what a command measures and how (help CMD).
 */
#include "frame/registry.h"

const struct section section_help = {
	.name = "help", .summary = "what a command measures and how (help CMD)",
	.kind = SECTION_HELP, .operands = SECTION_ARGS_TOPIC,
};
