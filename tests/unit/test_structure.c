/*
 * The tree's shape, checked as code: no include cycle among src/ files, no
 * include pointing up the folders' layers (layers[] below), both read from
 * the dependency files the compiler wrote (-MMD, beside each object: what
 * the preprocessor really read, #if taken, each header list transitive),
 * every registry
 * row complete (help, writers, a documented JSON key, a view), every
 * measuring section with its table in the HTML report, every plot with
 * one file name and one place on the page, every fleet column with a
 * place and a figure some recorded result has, and no shared report/ file
 * naming a section's keys (they are its view's), and no section named by
 * the planner or the Prometheus writer. A module is a header together with
 * the .c files that implement it: a .c of the same stem, or a .c whose
 * first header read is one with no .c of its own (document_text.c and
 * document_json.c implement frame/document.h). A cycle between modules
 * is a cycle even when no header includes itself. Every header also has a
 * dependency file of its own (the Makefile preprocesses each alone, *.h.d),
 * so a cycle only through headers with no .c is seen too.
 */
#include "../harness.h"

#include "analyse/load.h"
#include "report/html.h"
#include "report/plots.h"
#include "report/summary.h"
#include "report/view.h"
#include "sections/fleet.h"
#include "frame/registry.h"
#include "run/run.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILES 512
#define MAX_INCLUDES 160

/* A file the compiler read: a .c with the headers its dependency file
 * lists (every header under src/ it read, directly or through another, as
 * the preprocessor saw them: #if taken), or a header (no list). */
struct src_file {
	char path[96];           /* relative to src/: "report/text.c" */
	char inc[MAX_INCLUDES][96];
	int ninc;
	int node;                /* module index */
};

struct tree {
	struct src_file f[MAX_FILES];
	int n;
	char node_name[MAX_FILES][96];
	int nnodes;
	int nsources;            /* dependency files read */
	unsigned char edge[MAX_FILES][MAX_FILES];
};

static int find_file(const struct tree *t, const char *path);

/* The file at path (relative to src/), added once. */
static struct src_file *add_file(struct tree *t, const char *path)
{
	int i = find_file(t, path);
	struct src_file *s;

	if (i >= 0)
		return &t->f[i];
	if (t->n >= MAX_FILES || strlen(path) >= sizeof(t->f[0].path))
		return NULL;
	s = &t->f[t->n++];
	memset(s, 0, sizeof(*s));
	memcpy(s->path, path, strlen(path) + 1);
	return s;
}

/* One dependency file (gcc -MMD: "OBJ: SRC.c HDR.h ... \" then -MP's
 * empty rules): its source and headers under src/ into t. A source that no
 * longer exists under src_root (a stale object) is skipped; src_root NULL:
 * none is. */
static void read_depfile(const char *path, const char *src_root, struct tree *t)
{
	char *text = NULL, *tok, *save = NULL;
	size_t cap = 0;
	ssize_t got;
	struct src_file *c = NULL;
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	/* The first rule ends at the first line without a continuation. */
	got = getdelim(&text, &cap, '\0', f);
	fclose(f);
	if (got <= 0) {
		free(text);
		return;
	}
	for (char *p = text; *p; p++)
		if (*p == '\n' && (p == text || p[-1] != '\\')) {
			*p = 0;
			break;
		}
	for (tok = strtok_r(text, " \t\n\\", &save); tok; tok = strtok_r(NULL, " \t\n\\", &save)) {
		char full[PATH_MAX];

		if (strncmp(tok, "src/", 4))
			continue;  /* the object, or a generated header under build/ */
		if (!c) {
			snprintf(full, sizeof(full), "%s/%s", src_root ? src_root : "", tok + 4);
			if ((src_root && access(full, R_OK)) || !(c = add_file(t, tok + 4)))
				break;
			t->nsources++;
			continue;
		}
		if (c->ninc < MAX_INCLUDES && add_file(t, tok + 4))
			snprintf(c->inc[c->ninc++], sizeof(c->inc[0]), "%s", tok + 4);
	}
	free(text);
}

/* Every dependency file under dir, into t. */
static int scan(const char *dir, const char *src_root, struct tree *t)
{
	DIR *d;
	struct dirent *e;

	if (!(d = opendir(dir)))
		return -errno;
	while ((e = readdir(d))) {
		char full[PATH_MAX];
		size_t len = strlen(e->d_name);
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(full, sizeof(full), "%s/%s", dir, e->d_name);
		if (stat(full, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			scan(full, src_root, t);
		else if (len > 2 && !strcmp(e->d_name + len - 2, ".d"))
			read_depfile(full, src_root, t);
	}
	closedir(d);
	return 0;
}

static int find_file(const struct tree *t, const char *path)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->f[i].path, path))
			return i;
	return -1;
}

static int node_of(struct tree *t, const char *name)
{
	for (int i = 0; i < t->nnodes; i++)
		if (!strcmp(t->node_name[i], name))
			return i;
	snprintf(t->node_name[t->nnodes], sizeof(t->node_name[0]), "%s", name);
	return t->nnodes++;
}

/* "a/b.c" -> "a/b.h" */
static void sibling(const char *path, char ext, char *out, size_t len)
{
	snprintf(out, len, "%s", path);
	out[strlen(out) - 1] = ext;
}

static void build_graph(struct tree *t)
{
	char h[96], c[96];

	t->nnodes = 0;
	memset(t->edge, 0, sizeof(t->edge));
	for (int i = 0; i < t->n; i++) {
		struct src_file *s = &t->f[i];
		size_t len = strlen(s->path);

		if (s->path[len - 1] == 'h') {
			s->node = node_of(t, s->path);
			continue;
		}
		sibling(s->path, 'h', h, sizeof(h));
		if (find_file(t, h) >= 0) {
			s->node = node_of(t, h);
			continue;
		}
		/* No header of its own: it implements its first include's, when
		 * that header has no .c of its own either. */
		if (s->ninc && find_file(t, s->inc[0]) >= 0) {
			sibling(s->inc[0], 'c', c, sizeof(c));
			if (find_file(t, c) < 0) {
				s->node = node_of(t, s->inc[0]);
				continue;
			}
		}
		s->node = node_of(t, s->path);
	}
	for (int i = 0; i < t->n; i++)
		for (int k = 0; k < t->f[i].ninc; k++) {
			int j = find_file(t, t->f[i].inc[k]);

			if (j >= 0 && t->f[j].node != t->f[i].node)
				t->edge[t->f[i].node][t->f[j].node] = 1;
		}
}

/* Depth-first search; 1 with the cycle written into out when one is found. */
static int dfs(const struct tree *t, int v, unsigned char *state, int *stack, int depth, char *out, size_t len)
{
	state[v] = 1;
	stack[depth] = v;
	for (int w = 0; w < t->nnodes; w++) {
		if (!t->edge[v][w])
			continue;
		if (state[w] == 1) {
			size_t used = 0;
			int k = depth;

			while (k > 0 && stack[k] != w)
				k--;
			for (; k <= depth && used < len; k++)
				used += (size_t)snprintf(out + used, len - used, "%s -> ", t->node_name[stack[k]]);
			if (used < len)
				snprintf(out + used, len - used, "%s", t->node_name[w]);
			return 1;
		}
		if (!state[w] && dfs(t, w, state, stack, depth + 1, out, len))
			return 1;
	}
	state[v] = 2;
	return 0;
}

/* Over the dependency files under deps (sources checked under src_root,
 * NULL: not checked): 0, no cycle; 1, a cycle, described in out; -errno:
 * deps unreadable. */
static int find_include_cycle(const char *deps, const char *src_root, char *out, size_t len)
{
	static struct tree t;
	static unsigned char state[MAX_FILES];
	static int stack[MAX_FILES];
	int rc;

	memset(&t, 0, sizeof(t));
	if ((rc = scan(deps, src_root, &t)))
		return rc;
	build_graph(&t);
	memset(state, 0, sizeof(state));
	for (int v = 0; v < t.nnodes; v++)
		if (!state[v] && dfs(&t, v, state, stack, 0, out, len))
			return 1;
	return 0;
}

/* A repository path: beside the build directory, else from the current
 * directory (a BUILD=elsewhere run from the repository root). */
static void repo_file(char *out, size_t len, const char *rel)
{
	snprintf(out, len, "%s/../%s", test_bin_dir(), rel);
	if (access(out, R_OK))
		snprintf(out, len, "%s", rel);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "w"))) {
		fputs(text, f);
		fclose(f);
	}
}

/* The check fires on the shape the tree once had: a writer whose helper is
 * declared in a header implemented by the file that includes the writer
 * (dependency files as gcc -MMD -MP writes them). */
TEST(include_check_finds_a_planted_cycle)
{
	char dir[] = "/tmp/mlpscope-inc-XXXXXX", cycle[1024] = "", sub[PATH_MAX];
	int rc;

	CHECK(mkdtemp(dir), "mkdtemp");
	put(dir, "text.d", "build/obj/src/report/text.o: src/report/text.c src/report/report.h \\\n"
			   " src/report/lat_out.h\nsrc/report/report.h:\nsrc/report/lat_out.h:\n");
	put(dir, "lat_out.d", "build/obj/src/report/lat_out.o: src/report/lat_out.c \\\n"
			      " src/report/lat_out.h src/report/report.h\nsrc/report/lat_out.h:\n");
	rc = find_include_cycle(dir, NULL, cycle, sizeof(cycle));
	CHECK(rc == 1 && strstr(cycle, "report/report.h") && strstr(cycle, "report/lat_out.h"),
	      "rc %d, cycle '%s'", rc, cycle);
	/* Break it as the tree does (the helper in a leaf of its own): clean. */
	put(dir, "lat_out.d", "build/obj/src/report/lat_out.o: src/report/lat_out.c src/report/lat_out.h \\\n"
			      " src/report/format.h build/gen/buildinfo.h\n");
	rc = find_include_cycle(dir, NULL, cycle, sizeof(cycle));
	CHECK(rc == 0, "rc %d after breaking it: %s", rc, cycle);
	for (const char *const *p = (const char *const[]){"text.d", "lat_out.d", NULL}; *p; p++) {
		snprintf(sub, sizeof(sub), "%s/%s", dir, *p);
		unlink(sub);
	}
	rmdir(dir);
}

/* A cycle only through headers with no .c of their own (each a module of
 * its own): no source's list can show it, the headers' own dependency
 * files (*.h.d, as the Makefile writes them) do. */
TEST(include_check_finds_a_cycle_through_headers_alone)
{
	char dir[] = "/tmp/mlpscope-inc-XXXXXX", cycle[1024] = "", sub[PATH_MAX];
	int rc;

	CHECK(mkdtemp(dir), "mkdtemp");
	put(dir, "page.d", "build/obj/src/report/page.o: src/report/page.c src/report/view.h \\\n"
			   " src/report/table.h\nsrc/report/view.h:\nsrc/report/table.h:\n");
	rc = find_include_cycle(dir, NULL, cycle, sizeof(cycle));
	CHECK(rc == 0, "rc %d from the source's list alone: %s", rc, cycle);
	put(dir, "view.h.d", "build/obj/src/report/view.h.d: src/report/view.h src/report/table.h\n"
			     "src/report/table.h:\n");
	put(dir, "table.h.d", "build/obj/src/report/table.h.d: src/report/table.h src/report/view.h\n"
			      "src/report/view.h:\n");
	rc = find_include_cycle(dir, NULL, cycle, sizeof(cycle));
	CHECK(rc == 1 && strstr(cycle, "report/view.h") && strstr(cycle, "report/table.h"), "rc %d, cycle '%s'",
	      rc, cycle);
	for (const char *const *p = (const char *const[]){"page.d", "view.h.d", "table.h.d", NULL}; *p; p++) {
		snprintf(sub, sizeof(sub), "%s/%s", dir, *p);
		unlink(sub);
	}
	rmdir(dir);
}

/* The folders by layer, top first (docs/METHODOLOGY.md, "How the code is
 * wired"): the front doors (src/ itself, and bunzip2/ for the second
 * binary, which reads only the decoder and the host seam) read the sections; the sections (one row per
 * command, and the list that fills registry[]) sit on the framework that
 * runs them (frame/: the registry's loops, options, plan, budget, the
 * whole-document writers), which names no row; both fill the run object
 * (run/) and drive experiments, analyses and writers, which never see the
 * run; those use the JIT, the instrument's primitives, the per-ISA
 * contract and the hot loops; everything may use util/. An include may
 * point to any lower layer; within a layer only along across[]. A folder
 * missing here fails the check, so a new one is placed on purpose. */
static const struct {
	const char *folder;
	int layer;
} layers[] = {
	{"", 0}, {"bunzip2", 0},
	{"sections", 1},
	{"frame", 2},
	{"run", 3},
	{"report", 4}, {"analyse", 4}, {"exp", 4}, {"exp/app", 4},
	{"jit", 5}, {"bzip2", 5},
	{"core", 6}, {"arch", 6}, {"kern", 6},
	{"util", 7},
};

/* Includes within a layer, each for a reason: writers and the compare views
 * read the experiments' result types and the analyses' conclusions; the
 * analyses read result shapes; the app walks reuse the mlp chase; the clock,
 * the host seam and the PMU use the ISA's instructions (one way: arch/ holds
 * the instructions and includes nothing of core/, whose cpu_id decoders
 * read their answers through the seam); the ISA's stream kernels implement
 * kern/stream.h. The bzip2 decoder
 * (bzip2/) is a library the app walks use, timed by the clock they hand it. */
static const struct {
	const char *from, *to;
} across[] = {
	{"report", "analyse"}, {"report", "exp"}, {"report", "exp/app"},
	{"analyse", "exp"}, {"exp/app", "exp"},
	{"core", "arch"}, {"arch", "kern"},
};

static void folder_of(const char *path, char *out, size_t len)
{
	const char *slash = strrchr(path, '/');

	snprintf(out, len, "%.*s", slash ? (int)(slash - path) : 0, path);
}

static int layer_of(const char *folder)
{
	for (size_t i = 0; i < sizeof(layers) / sizeof(layers[0]); i++)
		if (!strcmp(layers[i].folder, folder))
			return layers[i].layer;
	return -1;
}

static bool edge_allowed(const char *from, const char *to)
{
	int a = layer_of(from), b = layer_of(to);

	if (!strcmp(from, to) || b > a)
		return true;
	for (size_t i = 0; b == a && i < sizeof(across) / sizeof(across[0]); i++)
		if (!strcmp(across[i].from, from) && !strcmp(across[i].to, to))
			return true;
	return false;
}

/* How many of the headers the dependency files under deps list point up
 * from their source (or across, unlisted), or come from or go to a folder
 * with no layer; the first is described in out. The lists are transitive,
 * so a header that includes upward is caught in each source that reads it.
 * -errno when deps is unreadable. */
static int find_upward_include(const char *deps, const char *src_root, char *out, size_t len, int *sources)
{
	static struct tree t;
	int bad = 0, rc;

	memset(&t, 0, sizeof(t));
	if ((rc = scan(deps, src_root, &t)))
		return rc;
	if (sources)
		*sources = t.nsources;
	for (int i = 0; i < t.n; i++)
		for (int k = 0; k < t.f[i].ninc; k++) {
			char from[96], to[96];

			if (find_file(&t, t.f[i].inc[k]) < 0)
				continue;
			folder_of(t.f[i].path, from, sizeof(from));
			folder_of(t.f[i].inc[k], to, sizeof(to));
			if (layer_of(from) >= 0 && layer_of(to) >= 0 && edge_allowed(from, to))
				continue;
			if (!bad++)
				snprintf(out, len, "%s reads %s (%s/ -> %s/%s)", t.f[i].path, t.f[i].inc[k], from, to,
					 layer_of(from) < 0 || layer_of(to) < 0 ? ": a folder with no layer" : "");
		}
	return bad;
}

/* Both rules over src/ as this build compiled it (the dependency files
 * -MMD wrote beside the objects): no include cycle among modules, and no
 * include up the folders' layers. */
TEST(include_graph_of_src_has_no_cycle_and_points_only_down)
{
	char deps[PATH_MAX], src[PATH_MAX], cycle[1024] = "", why[512] = "";
	int rc, sources = 0;

	snprintf(deps, sizeof(deps), "%s/obj/src", test_bin_dir());
	repo_file(src, sizeof(src), "src");
	rc = find_include_cycle(deps, src, cycle, sizeof(cycle));
	CHECK(rc == 0, "rc %d: include cycle %s", rc, cycle);
	rc = find_upward_include(deps, src, why, sizeof(why), &sources);
	CHECK(rc == 0, "%d include(s) against the layers, first: %s", rc, why);
	CHECK(sources >= 100, "only %d dependency files of src/ read under %s (built with -MMD?)", sources, deps);
}

/* The check fires: a primitive that includes the registry points up
 * several layers, caught in the source that reads it; the same include
 * from the front door is fine; the framework reading the rows' list (the
 * registry filling its own table from sections/list.h) points up one; an
 * unlisted folder is refused until it has a layer. */
TEST(include_check_finds_a_planted_upward_include)
{
	char dir[] = "/tmp/mlpscope-layer-XXXXXX", why[512] = "", sub[PATH_MAX];
	const char *const files[] = {"main.d", "clock.d", "registry.d", "x.d"};
	int rc;

	CHECK(mkdtemp(dir), "mkdtemp");
	put(dir, "main.d", "build/obj/src/main.o: src/main.c src/frame/registry.h src/core/clock.h\n");
	put(dir, "clock.d", "build/obj/src/core/clock.o: src/core/clock.c src/core/clock.h\n");
	rc = find_upward_include(dir, NULL, why, sizeof(why), NULL);
	CHECK(rc == 0, "a tree that points down failed: %d, %s", rc, why);
	put(dir, "clock.d", "build/obj/src/core/clock.o: src/core/clock.c src/core/clock.h \\\n"
			    " src/frame/registry.h\nsrc/core/clock.h:\n");
	rc = find_upward_include(dir, NULL, why, sizeof(why), NULL);
	CHECK(rc == 1 && strstr(why, "core/clock.c reads frame/registry.h"), "rc %d, '%s'", rc, why);
	put(dir, "clock.d", "build/obj/src/core/clock.o: src/core/clock.c src/core/clock.h\n");
	put(dir, "registry.d", "build/obj/src/frame/registry.o: src/frame/registry.c src/frame/registry.h \\\n"
			       " src/sections/list.h\nsrc/frame/registry.h:\n");
	rc = find_upward_include(dir, NULL, why, sizeof(why), NULL);
	CHECK(rc == 1 && strstr(why, "frame/registry.c reads sections/list.h"), "rc %d, '%s'", rc, why);
	put(dir, "registry.d", "build/obj/src/frame/registry.o: src/frame/registry.c src/frame/registry.h\n");
	put(dir, "x.d", "build/obj/src/newfolder/x.o: src/newfolder/x.c src/core/clock.h\n");
	rc = find_upward_include(dir, NULL, why, sizeof(why), NULL);
	CHECK(rc == 1 && strstr(why, "no layer"), "an unplaced folder passed: rc %d, '%s'", rc, why);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(sub, sizeof(sub), "%s/%s", dir, files[i]);
		unlink(sub);
	}
	rmdir(dir);
}

/* A repository file (rel from its root), whole, or NULL. */
static char *read_repo_text(const char *rel)
{
	char path[PATH_MAX];

	repo_file(path, sizeof(path), rel);
	return test_read_text(path);
}

/* Why row r is incomplete, or NULL. */
static bool summary_has_line(const char *line)
{
	const char *lines[64];
	size_t n = summary_lines(lines, 64);

	for (size_t i = 0; i < n && i < 64; i++)
		if (!strcmp(lines[i], line))
			return true;
	return false;
}

static const char *row_incomplete(const struct section *r, const char *output_md)
{
	static char why[200];

	if (!r->name || !r->name[0] || !r->summary || !r->summary[0])
		return "no name or summary";
	if (r->kind != SECTION_HELP && (!r->help || !r->help[0]))
		return "no help text";
	if (r->kind == SECTION_FILE_COMMAND && !r->command)
		return "a file command without its function";
	if (r->kind != SECTION_MEASURE)
		return NULL;
	if (!r->run || !r->write_text || !r->write_json || !r->result_bytes)
		return "a section without run, text writer, JSON writer or result size";
	if (!r->view || (!r->view->html && !r->view->html_title) || !r->view->section ||
	    strcmp(r->view->section, r->name))
		return "a section without its view (report/NAME_view.c: its JSON key and an HTML hook)";
	if (!r->view->summary != !r->view->summary_line ||
	    (r->view->summary_line && !summary_has_line(r->view->summary_line)))
		return "a view whose headline figures have no row of the summary (summary_lines())";
	snprintf(why, sizeof(why), "\n## `%s`", r->name);
	if (!output_md || !strstr(output_md, why)) {
		snprintf(why, sizeof(why), "its JSON key has no \"## `%s`\" heading in docs/OUTPUT.md", r->name);
		return why;
	}
	return NULL;
}

TEST(registry_rows_have_help_writers_and_documented_keys)
{
	char *md = read_repo_text("docs/OUTPUT.md");
	size_t sections = 0;

	CHECK(md, "docs/OUTPUT.md unreadable");
	CHECK(registry_count <= REPORT_MAX_SECTIONS, "%zu rows, the report holds %d", registry_count,
	      REPORT_MAX_SECTIONS);
	for (size_t i = 0; i < registry_count; i++) {
		const char *why = row_incomplete(registry[i], md);

		CHECK(!why, "row '%s': %s", registry[i]->name, why ? why : "");
		CHECK(registry_find(registry[i]->name) == registry[i], "row '%s' is named twice", registry[i]->name);
		sections += registry[i]->kind == SECTION_MEASURE;
	}
	CHECK(sections >= 1 && registry_find("report") && registry_find("help"), "no sections, report or help row");
	/* The check itself: a row missing its JSON writer, or undocumented, fails. */
	if (md && sections) {
		struct section broken = *registry_find("noise");

		broken.write_json = NULL;
		CHECK(row_incomplete(&broken, md), "a row without a JSON writer passed");
		broken = *registry_find("noise");
		broken.view = NULL;
		CHECK(row_incomplete(&broken, md), "a row without a view passed");
		broken.view = registry_find("tlb")->view;
		CHECK(row_incomplete(&broken, md), "a row with another section's view passed");
		{
			struct view v = *registry_find("noise")->view;

			broken.view = &v;
			v.summary_line = "no such row";
			CHECK(row_incomplete(&broken, md), "a view with headline figures on no summary row passed");
		}
		broken = *registry_find("noise");
		broken.name = "no_such_section";
		CHECK(row_incomplete(&broken, md), "an undocumented row passed");
	}
	free(md);
}

/* A document with every measuring section present (each as small as its
 * view accepts), as the HTML report reads it. */
static const char every_section_doc[] =
	"{\"tool\": \"mlpscope\", \"version\": \"0.1.0\", \"schema_version\": 1, \"provenance\": {},"
	" \"machine\": {\"cpu_model\": \"x\"}, \"noise\": {\"floor_pct\": 1}, \"tlb\": {\"huge_reach_effective\": true},"
	" \"latency\": {\"max_bytes\": 1048576},"
	" \"mlp\": {\"sweep\": [{\"lanes\": 1, \"ns_per_access\": 100}],"
	"  \"levels\": [{\"level\": \"L2\", \"working_set_bytes\": 655360}],"
	"  \"read_size\": [{\"case\": \"8 B per node\", \"payload_bytes\": 8}]},"
	" \"bandwidth\": {\"working_set_bytes\": 1}, \"multicore\": {\"per_thread_bytes\": 1},"
	" \"loaded\": {\"generators\": 1}, \"c2c\": {\"quantity\": \"x\"},"
	" \"agreement\": {\"lines\": [{\"set_bytes\": 1048576, \"pages\": \"huge\","
	"  \"figures\": [{\"section\": \"latency\", \"ns_per_load\": 90}]}]},"
	" \"window\": {\"isa\": \"x\"}, \"app\": {\"bwt\": {\"variants\": [{\"name\": \"lanes_state\","
	"  \"points\": [{\"k\": 1, \"ns_per_item\": 10}]}]}}, \"warnings\": []}";

/* Whether the page has a section heading for name, and a table after it
 * before the next heading of that level. */
static bool html_has_table(const char *html, const char *name)
{
	char id[64];
	const char *at, *next;

	snprintf(id, sizeof(id), "id=\"run1-%s\"", name);
	if (!(at = strstr(html, id)))
		return false;
	next = strstr(at + 1, "<h3");
	at = strstr(at, "<table");
	return at && (!next || at < next);
}

TEST(every_measuring_section_has_an_html_table)
{
	struct jsonr_doc doc;
	char err[128], *html = NULL;
	size_t len = 0;
	FILE *f;
	const char *label = "run";

	CHECK(!jsonr_parse(every_section_doc, strlen(every_section_doc), 32, &doc, err, sizeof(err)), "%s", err);
	CHECK((f = open_memstream(&html, &len)), "open_memstream");
	if (!f)
		return;
	CHECK(html_write(f, registry_views(), (const struct jsonr_value *const[]){doc.root}, &label, 1) == 0,
	      "html_write failed");
	fclose(f);
	for (size_t i = 0; i < registry_count; i++)
		if (registry[i]->kind == SECTION_MEASURE)
			CHECK(html_has_table(html, registry[i]->name), "section '%s' has no table in the HTML report",
			      registry[i]->name);
	CHECK(strstr(html, "levels: the same sweep") && strstr(html, "read size: bytes read per node"),
	      "mlp's levels or read-size table is missing");
	/* The check itself: a section the page does not show fails it, and a
	 * section left out of the views handed down is not shown. */
	CHECK(!html_has_table(html, "no_such_section"), "a section with no view passed");
	free(html);
	html = NULL;
	{
		const struct view *const *all = registry_views();
		const struct view *some[REPORT_MAX_SECTIONS + 1] = {0};
		size_t n = 0;

		for (size_t i = 0; all[i]; i++)
			if (strcmp(all[i]->section, "window"))
				some[n++] = all[i];
		CHECK((f = open_memstream(&html, &len)), "open_memstream");
		if (f) {
			html_write(f, some, (const struct jsonr_value *const[]){doc.root}, &label, 1);
			fclose(f);
			CHECK(!html_has_table(html, "window") && html_has_table(html, "noise"),
			      "a page drawn without window's view still shows it");
		}
	}
	free(html);
	jsonr_free(&doc);
}

/* Why a page's plots (plots_of_views over views) are not each named once,
 * with a builder and a place of its own; NULL when they are. */
static const char *plots_ambiguous(const struct view *const *views)
{
	const struct view_plot *p[PLOTS_MAX + 1];
	size_t n = plots_of_views(views, p, PLOTS_MAX + 1);

	if (n > PLOTS_MAX)
		return "more plots than a page holds (PLOTS_MAX)";
	for (size_t i = 0; i < n; i++) {
		if (!p[i]->name || !p[i]->build)
			return "a plot without a name or builder";
		for (size_t j = 0; j < i; j++)
			if (!strcmp(p[i]->name, p[j]->name) || p[i]->page_order == p[j]->page_order)
				return "two plots share a file name or a place on the page";
	}
	return NULL;
}

TEST(every_plot_has_one_name_and_one_place)
{
	const struct view *const *all = registry_views();
	const struct view *twice[2 * REPORT_MAX_SECTIONS + 1] = {0};
	const char *why = plots_ambiguous(all);
	size_t n = 0;

	CHECK(!why, "%s", why ? why : "");
	/* The check itself: a view listed twice puts each of its plots twice. */
	for (size_t i = 0; all[i]; i++)
		twice[n++] = all[i];
	for (size_t i = 0; all[i]; i++)
		twice[n++] = all[i];
	CHECK(plots_ambiguous(twice), "every plot listed twice passed");
}

/* Why the fleet table's columns and settings (fleet_layout over views) are
 * not each placed once, named in `help compare` (columns), and found in one
 * of docs (a summary figure, a value() or a settings key some recorded
 * result has); NULL when they are. */
static const char *fleet_unfounded(const struct view *const *views, const struct jsonr_value *const *docs, size_t ndocs)
{
	static struct fleet_layout l;
	static struct summary sum[4];
	const char *help = registry_find("compare")->help;

	fleet_layout(views, &l);
	if (l.ncol >= FLEET_MAX_COLUMNS || l.nsetting >= FLEET_MAX_COLUMNS)
		return "more columns or settings than the table holds (FLEET_MAX_COLUMNS)";
	for (size_t d = 0; d < ndocs; d++)
		summary_build(views, docs[d], &sum[d]);
	for (size_t i = 0; i < l.ncol; i++) {
		const struct view_fleet_column *c = l.col[i];
		bool found = false;

		if (!c->figure || !c->head || strlen(c->head) > 9 || !strstr(help, c->figure))
			return "a column without a figure `help compare` names, or a head of more than 9 characters";
		for (size_t j = 0; j < i; j++)
			if (!strcmp(c->figure, l.col[j]->figure) || c->order == l.col[j]->order)
				return "two columns share a figure or a place";
		for (size_t d = 0; d < ndocs && !found; d++)
			found = c->value ? isfinite(c->value(docs[d], c->figure)) : summary_find(&sum[d], c->figure) != NULL;
		if (!found)
			return "a column whose figure no recorded result has";
	}
	for (size_t i = 0; i < l.nsetting; i++) {
		bool found = false;

		for (size_t j = 0; j < i; j++)
			if (!strcmp(l.setting[i]->key, l.setting[j]->key) || l.setting[i]->order == l.setting[j]->order)
				return "two settings share a key or a place";
		for (size_t d = 0; d < ndocs && !found; d++)
			found = jsonr_get(docs[d], l.setting[i]->key) != NULL;
		if (!found)
			return "a setting no recorded result has";
	}
	return NULL;
}

TEST(every_fleet_column_has_a_place_and_a_figure)
{
	const char *const files[] = {"tests/data/cpus/intel-xeon-f6-m207/report.json", "tests/data/app_bzip2.json"};
	struct jsonr_doc doc[2];
	const struct jsonr_value *roots[2];
	const struct view *const *all = registry_views();
	const struct view *twice[2 * REPORT_MAX_SECTIONS + 1] = {0}, *planted[REPORT_MAX_SECTIONS + 2] = {0};
	struct view bogus = *registry_find("noise")->view;
	/* Named in the help (a name cut short), but no summary figure. */
	static const struct view_fleet_column nowhere[] = { { "bzip2_workers", "bz2N", 99, false, NULL } };
	char path[PATH_MAX], err[256];
	const char *why;
	size_t n = 0;

	for (size_t d = 0; d < 2; d++) {
		repo_file(path, sizeof(path), files[d]);
		if (result_load(path, &doc[d], err, sizeof(err))) {
			CHECK(false, "%s: %s", files[d], err);
			for (size_t e = 0; e < d; e++)
				jsonr_free(&doc[e]);
			return;
		}
		roots[d] = doc[d].root;
	}
	why = fleet_unfounded(all, roots, 2);
	CHECK(!why, "%s", why ? why : "");
	/* The check itself: a view listed twice puts its columns twice, and a
	 * column naming a figure no view produces is found out. */
	for (size_t i = 0; all[i]; i++)
		twice[n++] = all[i];
	for (size_t i = 0; all[i]; i++)
		twice[n++] = all[i];
	CHECK(fleet_unfounded(twice, roots, 2), "every column listed twice passed");
	bogus.section = "bogus";
	bogus.summary = NULL;
	bogus.summary_line = NULL;
	bogus.fleet = nowhere;
	bogus.nfleet = 1;
	bogus.nfleet_settings = 0;
	for (n = 0; all[n]; n++)
		planted[n] = all[n];
	planted[n] = &bogus;
	why = fleet_unfounded(planted, roots, 2);
	CHECK(why && strstr(why, "no recorded result"), "a column no result has passed: %s", why ? why : "");
	for (size_t d = 0; d < 2; d++)
		jsonr_free(&doc[d]);
}

/* A key path into a section ("mlp.sweep") that a report/ file names, in
 * code: comments are examples. Only the section's own files (NAME_*.c,
 * NAME_*.h for a section NAME) read its keys; shared files (plots, html,
 * summary, svg...) loop over views. */

static bool section_owns(const char *file)
{
	for (size_t i = 0; i < registry_count; i++) {
		size_t len = strlen(registry[i]->name);

		if (!strncmp(file, registry[i]->name, len) && file[len] == '_')
			return true;
	}
	return false;
}

/* Whether text names a section key path outside comments (allowed ones
 * aside); the first as file: "key" in out. */
static bool names_section_key(const char *file, const char *text, char *out, size_t len)
{
	bool comment = false;

	for (const char *p = text; *p; p++) {
		if (comment) {
			comment = strncmp(p, "*/", 2) != 0;
			continue;
		}
		if ((comment = !strncmp(p, "/*", 2)) || *p != '"')
			continue;
		for (size_t i = 0; i < registry_count; i++) {
			size_t n = strlen(registry[i]->name);
			const char *end = strchr(p + 1, '"');

			if (strncmp(p + 1, registry[i]->name, n) || p[1 + n] != '.')
				continue;
			snprintf(out, len, "%s: %.*s", file, end ? (int)(end - p + 1) : 40, p);
			return true;
		}
	}
	return false;
}

TEST(only_a_sections_own_report_files_name_its_keys)
{
	char dir[PATH_MAX], why[128];
	struct dirent *e;
	DIR *d;
	size_t checked = 0;

	repo_file(dir, sizeof(dir), "src/report");
	CHECK((d = opendir(dir)), "%s: %s", dir, strerror(errno));
	if (!d)
		return;
	while ((e = readdir(d))) {
		char rel[300], *text;
		size_t len = strlen(e->d_name);

		if (len < 3 || e->d_name[len - 2] != '.' || (e->d_name[len - 1] != 'c' && e->d_name[len - 1] != 'h') ||
		    section_owns(e->d_name))
			continue;
		snprintf(rel, sizeof(rel), "src/report/%s", e->d_name);
		if (!(text = read_repo_text(rel)))
			continue;
		checked++;
		CHECK(!names_section_key(e->d_name, text, why, sizeof(why)), "a shared report file names a section's key: %s",
		      why);
		free(text);
	}
	closedir(d);
	CHECK(checked >= 5, "only %zu shared report files read", checked);
	/* The check itself: a planted key in a shared file, a key in a comment. */
	CHECK(names_section_key("plots.c", "x = jsonr_get(d, \"mlp.sweep\");", why, sizeof(why)), "a planted key passed");
	CHECK(!names_section_key("plots.c", "/* \"mlp.sweep\" */ x = 1;", why, sizeof(why)), "a key in a comment fired");
	CHECK(section_owns("mlp_view.c") && !section_owns("plots.c"), "the owner of a file");
}

/* The measuring section whose name starts p and ends where end says. */
static const char *section_at(const char *p, bool (*end)(char c))
{
	for (size_t i = 0; i < registry_count; i++) {
		size_t n = strlen(registry[i]->name);

		if (registry[i]->kind == SECTION_MEASURE && !strncmp(p, registry[i]->name, n) && end(p[n]))
			return registry[i]->name;
	}
	return NULL;
}

static bool word_ends(char c)
{
	return !isalnum((unsigned char)c) && c != '_';
}

static bool key_ends(char c)
{
	return c == '"' || c == '.' || c == '_';
}

/* The first measuring section text names outside comments: as a word of
 * code (letters, digits and '_' join a word), or as a string that is its
 * name or a key of it ("mlp", "mlp.sweep", "latency_trials"); prose in a
 * message ("a machine with 2 CPUs") is no name. NULL when none. */
static const char *names_a_section(const char *text)
{
	bool comment = false;
	const char *name;

	for (const char *p = text; *p; p++) {
		if (comment) {
			comment = strncmp(p, "*/", 2) != 0;
			continue;
		}
		if ((comment = !strncmp(p, "/*", 2)))
			continue;
		if (*p == '"') {
			if ((name = section_at(p + 1, key_ends)))
				return name;
			for (p++; *p && *p != '"'; p++)
				p += *p == '\\' && p[1];
			if (!*p)
				break;
			continue;
		}
		if ((p == text || word_ends(p[-1])) && (name = section_at(p, word_ends)))
			return name;
	}
	return NULL;
}

/* Adding a section is its own files and one line in sections/list.h
 * (docs/METHODOLOGY.md, "How the code is wired"): the loops every section
 * takes part in name none of them. The framework (frame/: the planner
 * prices each through its budget hooks, the registry's loops, the
 * document walk) and the shared writers (--prom writes each view's
 * families, the page, the plots, the CSV tables) walk the registry or its
 * views; each measuring row has its file and a view under its own key. */
/* How many .c and .h files under src/frame/ (the framework: the
 * registry's loops, options, plan, budget, the whole-document writers)
 * were read; the first that names a section, as "FILE: NAME", in out
 * (left empty when none does). */
static size_t frame_names_a_section(char *out, size_t len)
{
	char dir[PATH_MAX];
	struct dirent *e;
	size_t read = 0;
	DIR *d;

	repo_file(dir, sizeof(dir), "src/frame");
	if (!(d = opendir(dir)))
		return 0;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char rel[300], *text;
		const char *name;

		if (n < 3 || e->d_name[n - 2] != '.' || (e->d_name[n - 1] != 'c' && e->d_name[n - 1] != 'h'))
			continue;
		snprintf(rel, sizeof(rel), "src/frame/%s", e->d_name);
		if (!(text = read_repo_text(rel)))
			continue;
		read++;
		if ((name = names_a_section(text)) && !out[0])
			snprintf(out, len, "%s: %s", rel, name);
		free(text);
	}
	closedir(d);
	return read;
}

TEST(adding_a_section_touches_only_its_own_files)
{
	static const char *const shared[] = {
		"src/report/prom.c", "src/report/html.c", "src/report/plots.c", "src/report/csv.c", "src/report/svg.c",
	};
	char why[400] = "";
	size_t framework;

	for (size_t i = 0; i < sizeof(shared) / sizeof(shared[0]); i++) {
		char *text = read_repo_text(shared[i]);
		const char *name = text ? names_a_section(text) : NULL;

		CHECK(text && !name, "%s names the section '%s' outside comments", shared[i], name ? name : "(unread)");
		free(text);
	}
	framework = frame_names_a_section(why, sizeof(why));
	CHECK(!why[0], "%s outside comments (the framework names no section)", why);
	CHECK(framework >= 8, "only %zu files of src/frame/ read", framework);
	for (size_t i = 0; i < registry_count; i++) {
		char rel[96], *text;

		if (registry[i]->kind != SECTION_MEASURE)
			continue;
		snprintf(rel, sizeof(rel), "src/sections/%s.c", registry[i]->name);
		CHECK((text = read_repo_text(rel)) != NULL, "%s: no file of its own", rel);
		free(text);
		CHECK(registry[i]->view && !strcmp(registry[i]->view->section, registry[i]->name),
		      "%s: no view under its own key", registry[i]->name);
	}
	/* The check itself: a name in code fires, one in a comment or inside a
	 * longer word does not. */
	CHECK(names_a_section("x = strcmp(n, \"mlp\");"), "a planted name passed");
	CHECK(names_a_section("f = \"latency_trials\";") && names_a_section("if (latency) x();"), "a key or word passed");
	CHECK(!names_a_section("/* mlp */ x = mlpscope_info; y = full_report; m = \"a machine \\\"mlp\\\"\";"),
	      "a name in a comment, a longer word or prose fired");
}
