/*
 * The sections, in report order: the order --help lists the command words
 * and the full report runs and writes them (what the machine permits, how
 * noisy the instrument is, then the measurements that use that noise).
 * Adding a section is its file, sections/NAME.c, exporting
 * `const struct section section_NAME`, and one line here. Included with
 * SECTION(name) defined (sections/list.c, twice); no guard.
 */
SECTION(report)
SECTION(machine)
SECTION(noise)
SECTION(tlb)
SECTION(latency)
SECTION(mlp)
SECTION(bandwidth)
SECTION(multicore)
SECTION(loaded)
SECTION(c2c)
SECTION(window)
SECTION(app)
SECTION(agreement)
SECTION(model)
SECTION(qmodel)
SECTION(plan)
SECTION(trace)
SECTION(compare)
SECTION(help)
