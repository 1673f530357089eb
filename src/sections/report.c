/*
 * The `report` section: its descriptor (sections/list.h names it) and the glue
 * from the options and the plan to its experiment's parameters.
 * In --help: the full report (default): every section below, in order.
 */
#include "frame/registry.h"

static const char report_help[] =
	"Runs every measuring section in order and writes one text report (and, with\n"
	"--json, one JSON document): machine, noise, tlb, latency, mlp, bandwidth,\n"
	"multicore, loaded, c2c, a closing block where the sections that time one\n"
	"dependent load from memory agree or say why not, app bwt on one block of\n"
	"generated text, and app bzip2's short form: 2 MB of generated text compressed\n"
	"at run time, decoded by our own decoder and checked against libbz2 (one trial,\n"
	"K up to 8; not with --quick, nor without libbz2). window runs on its own\n"
	"(budget 20 s). The run is sized to\n"
	"--budget (45 s; 10 s with --quick): rates measured in the first half second\n"
	"price each section, the plan is printed before the work and set against the\n"
	"time taken at the end, and what had to shrink to fit is listed; the latency\n"
	"curve and the MLP headline shrink last. Without --budget nothing is refused:\n"
	"a smallest plan over the default runs and says by how much. --quick keeps\n"
	"a useful report short: one mlp sweep, a coarser latency curve, fewer trials.\n";

const struct section section_report = {
	.name = "report", .summary = "the full report (default): every section below, in order",
	.help = report_help, .kind = SECTION_REPORT, .outputs = SECTION_OUT_ALL,
};
