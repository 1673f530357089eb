/*
 * The bzip2 decoder experiment (see exp/app/bzip2.h). Order of a run: get
 * the input (a file, or generated text compressed by libbz2 at level 9,
 * untimed); decode it with libbz2 once to learn the reference hash; per
 * variant (K, layout, prefetch, output-buffer lifetime) decode once
 * untimed with a hashing sink and compare, then time `trials` whole
 * decodes in production order with a sink that does nothing (the stage
 * clocks are 7 reads a block, under 1 us against milliseconds). Then
 * libbz2 timed over the same bytes, the workers (block-parallel: the
 * boundaries come from a magic scan, chained by each block's end), and
 * bzip2 -d / lbzip2 -d when installed, through a temporary file for the
 * generated input. The first trial of a variant is labelled cold (its
 * buffers are first touched in it); the minimum of the rest is warm.
 */
#include "exp/app/bzip2.h"

#include "bzip2/libbz2_ref.h"
#include "exp/app/bzip2_tables.h"
#include "util/inputfile.h"
#include "util/sha256.h"
#include "core/bounds.h"
#include "core/team.h"
#include "exp/app/textgen.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define MB 1e6

/* The whole .bz2 file, or one line saying why not. */
static int read_file(const char *path, uint8_t **data, size_t *len, char *err, size_t errlen)
{
	int rc = inputfile_read_all(path, SIZE_MAX, data, len, err, errlen);

	if (rc == -EISDIR || rc == -EINVAL || rc == -ENODATA)
		snprintf(err, errlen, "%s: %s (expected a .bz2 file)", path, rc == -ENODATA ? "empty" : "not a regular file");
	else if (rc == -EIO)
		snprintf(err, errlen, "%s: short read", path);
	else if (rc && rc != -ENOMEM)
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(-rc));
	/* Empty or not a regular file: the argument's fault, one code for both. */
	return rc == -EISDIR || rc == -ENODATA ? -EINVAL : rc;
}

static void bad_input(const char *name, const struct bz2_error *e, char *err, size_t errlen)
{
	if (e->block)
		snprintf(err, errlen, "%s: block %u at byte %llu: %s", name, e->block, (unsigned long long)e->byte_offset,
			 e->what);
	else
		snprintf(err, errlen, "%s: at byte %llu: %s", name, (unsigned long long)e->byte_offset, e->what);
}

int app_bzip2_validate(const char *path, char *err, size_t errlen)
{
	struct bz2_decode_opts o = {.walk = {.lanes = 1}};
	struct bz2_error e;
	uint8_t *data;
	size_t len;
	int rc = read_file(path, &data, &len, err, errlen);

	if (rc)
		return rc;
	rc = bz2_decode(data, len, &o, NULL, NULL, NULL, &e);
	if (rc == -1) {
		bad_input(path, &e, err, errlen);
		rc = -EINVAL;
	}
	free(data);
	return rc;
}

/* ---- sinks ---- */
struct hash_sink {
	struct sha256 sha;
	size_t bytes;
	unsigned blocks;
	uint64_t rows;
};

static int hash_block(void *ctx, unsigned block, const uint8_t *out, size_t bytes, const struct bz2_stage_ticks *t)
{
	struct hash_sink *h = ctx;

	sha256_update(&h->sha, out, bytes);
	h->bytes += bytes;
	h->blocks = block;
	h->rows += t->rows;
	return 0;
}

static int hash_ref(void *ctx, const uint8_t *p, size_t n)
{
	struct hash_sink *h = ctx;

	sha256_update(&h->sha, p, n);
	h->bytes += n;
	return 0;
}

struct stage_sink {
	uint64_t t[7];
	volatile sig_atomic_t *stop;
};

static int sum_stages(void *ctx, unsigned block, const uint8_t *out, size_t bytes, const struct bz2_stage_ticks *t)
{
	struct stage_sink *s = ctx;

	(void)block, (void)out, (void)bytes;
	s->t[0] += t->decode;
	s->t[1] += t->table;
	s->t[2] += t->starts;
	s->t[3] += t->traversal;
	s->t[4] += t->assembly;
	s->t[5] += t->rle;
	s->t[6] += t->crc;
	return s->stop && *s->stop ? -EINTR : 0;
}

/* ---- the default input ---- */
static int make_default(size_t text_bytes, uint64_t seed, uint8_t **data, size_t *len, char *err, size_t errlen)
{
	uint8_t *text = malloc(text_bytes);
	size_t cap = text_bytes + text_bytes / 100 + 4096;
	int rc;

	*data = malloc(cap);
	if (!text || !*data) {
		free(text);
		free(*data);
		*data = NULL;
		return -ENOMEM;
	}
	textgen_fill(text, text_bytes, TEXTGEN_MARKOV, seed);
	rc = bz2_ref_compress(text, text_bytes, 9, *data, &cap, err, errlen);
	free(text);
	if (rc) {
		free(*data);
		*data = NULL;
		return rc;
	}
	*len = cap;
	return 0;
}

/* ---- one variant ---- */
static const char *layout_name(enum bz2_layout l)
{
	return l == BZ2_LAYOUT_REGISTERS ? "registers" : "state";
}

static const char *prefetch_name(enum bz2_prefetch p)
{
	return p == BZ2_PREFETCH_NEXT ? "next" : p == BZ2_PREFETCH_TWO ? "two" : "off";
}

/* The scout's CPU: an allowed one other than this thread's (which the
 * run pins to one); -1 when there is no other. */
static int scout_cpu(void)
{
	int cpus[APP_BZ2_WORKERS_MAX], n = team_allowed_cpus(cpus, APP_BZ2_WORKERS_MAX), me = sched_getcpu();

	for (int i = 0; i < n && i < APP_BZ2_WORKERS_MAX; i++)
		if (cpus[i] != me)
			return cpus[i];
	return -1;
}

/* The T-vector arenas' bytes and huge-page bytes into v, the scout's
 * second slot's included: the smaller of each read (a huge page split
 * during the trials is what they ran on). */
static void table_backing(const struct bz2_decoder *d, struct app_bzip2_variant *v, bool first)
{
	const struct arena *a[2] = {app_bz2_table(d, 0), app_bz2_table(d, 1)};
	size_t bytes = 0, huge = 0, now;
	bool read = true;

	for (int i = 0; i < 2; i++) {
		if (!a[i])
			continue;
		bytes += a[i]->bytes;
		if (first)
			huge += a[i]->huge_bytes_obtained;
		else if (!arena_backing_obtained(a[i], &now))
			huge += now;
		else
			read = false;
	}
	if (!bytes)
		return;
	if (first) {
		v->table_arena_bytes = bytes;
		v->table_huge_bytes = huge;
	} else if (read && huge < v->table_huge_bytes) {
		v->table_huge_bytes = huge;
	}
}

static int run_variant(const struct app_bzip2_params *p, const uint8_t *in, size_t len, const char *want_hash,
		       size_t decoded, struct app_bzip2_variant *v, char *err, size_t errlen)
{
	struct bz2_decoder *d;
	struct bz2_decode_opts o = {
		.walk = {.lanes = v->k, .segments = v->segments, .layout = v->layout, .prefetch = v->prefetch,
			 .seed = p->seed},
		.fresh_output = v->fresh_output,
		.plain = v->plain,
		.overlap = v->overlap,
		.scout_cpu = scout_cpu(),
	};
	struct hash_sink h = {.bytes = 0};
	struct bz2_walk_ticks wt = {0};
	struct bz2_error e;
	char hex[65];
	double best = 0;
	int rc;

	sha256_init(&h.sha);
	if ((rc = bz2_decode(in, len, &o, hash_block, &h, &wt, &e)))
		return rc == -1 ? (bad_input("input", &e, err, errlen), -EINVAL) : rc;
	sha256_final_hex(&h.sha, hex);
	if (strcmp(hex, want_hash) || h.bytes != decoded) {
		snprintf(err, errlen, "K=%u %s %s: sha256 %s, libbz2 %s", v->k, layout_name(v->layout),
			 prefetch_name(v->prefetch), hex, want_hash);
		return -EPROTO;
	}
	v->checked = true;
	v->fallbacks = wt.fallbacks;
	o.timed = true;
	/* The timed decodes' own buffers: the T-vector at the variant's pages
	 * (pre-faulted), the rest first touched in the cold trial. */
	if (!(d = app_bz2_decoder_new_pages(v->pages)))
		return -ENOMEM;
	if (v->overlap == BZ2_OVERLAP_SCOUT && bz2_decoder_scout_ready(d)) {
		bz2_decoder_free(d);
		return -ENOMEM;
	}
	table_backing(d, v, true);
	for (unsigned t = 0; t < p->trials + 1; t++) {
		if (t >= 2 && app_bzip2_past(p, APP_BZ2_PHASE_VARIANTS))
			break;
		struct stage_sink s = {.stop = p->stop};
		uint64_t t0 = clock_now(), ticks;
		double sec;

		rc = bz2_decode_with(d, in, len, &o, sum_stages, &s, NULL, &e);
		ticks = clock_now() - t0;
		if (rc)
			break;
		sec = clock_ticks_to_ns(p->clock, ticks) * 1e-9;
		if (v->ntrials < APP_BZ2_TRIALS_MAX)
			v->trial_seconds[v->ntrials++] = sec;
		if (!t) {
			v->cold_seconds = sec;
			continue;
		}
		if (t == 1 || sec < best) {
			best = sec;
			v->stages.decode = clock_ticks_to_ns(p->clock, s.t[0]) * 1e-9;
			v->stages.table = clock_ticks_to_ns(p->clock, s.t[1]) * 1e-9;
			v->stages.starts = clock_ticks_to_ns(p->clock, s.t[2]) * 1e-9;
			v->stages.traversal = clock_ticks_to_ns(p->clock, s.t[3]) * 1e-9;
			v->stages.assembly = clock_ticks_to_ns(p->clock, s.t[4]) * 1e-9;
			v->stages.rle = clock_ticks_to_ns(p->clock, s.t[5]) * 1e-9;
			v->stages.crc = clock_ticks_to_ns(p->clock, s.t[6]) * 1e-9;
		}
	}
	table_backing(d, v, false);
	bz2_decoder_free(d);
	if (rc)
		return rc == -1 ? (bad_input("input", &e, err, errlen), -EINVAL) : rc;
	v->warm_seconds = best;
	v->mb_per_s = (double)decoded / MB / best;
	v->ns_per_byte = decoded ? best * 1e9 / (double)decoded : 0;
	v->ns_per_row = h.rows ? best * 1e9 / (double)h.rows : 0;
	v->walk_seconds = v->stages.starts + v->stages.traversal + v->stages.assembly;
	return 0;
}

/* ---- workers ---- */
struct work {
	const uint8_t *in;
	size_t len;
	uint64_t *cand;
	size_t ncand;
	atomic_size_t next;
	atomic_uint next_worker;
	int cpus[APP_BZ2_WORKERS_MAX];   /* one allowed CPU per worker */
	int ncpus;
	struct bz2_walk_opts walk;
	unsigned plain;                  /* BZ2_PLAIN_* of the best variant */
	enum page_request pages;         /* its T-vector's */
	const struct clock_info *clock;
	/* per candidate */
	int *rc;
	uint64_t *end_bit;
	uint32_t *crc, *nblock;
	size_t *bytes;
	double *seconds;
	double busy[APP_BZ2_WORKERS_MAX];  /* per worker: seconds inside its blocks */
	/* Per worker, made and warmed before any clock starts, kept across
	 * trials: mapped inside the wall, each worker's arena cost 6-10 ms a
	 * trial, and two workers faulting at once contended in the kernel. */
	struct bz2_decoder *dec[APP_BZ2_WORKERS_MAX];
};

static void *worker_main(void *arg)
{
	struct work *w = arg;
	unsigned me = atomic_fetch_add(&w->next_worker, 1) % APP_BZ2_WORKERS_MAX;
	struct bz2_decoder *d = w->dec[me];

	/* The main thread is pinned to one CPU and a new thread inherits its
	 * mask: unpinned, every worker would share that one CPU. */
	if (w->ncpus > 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(w->cpus[me % (unsigned)w->ncpus], &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	for (;;) {
		size_t i = atomic_fetch_add(&w->next, 1);
		struct bz2_block_result r;
		struct bz2_error e;
		uint64_t t0;

		if (i >= w->ncand)
			break;
		t0 = clock_now();
		w->rc[i] = bz2_decode_block_at(d, w->in, w->len, w->cand[i], (unsigned)i + 1, &w->walk, w->plain, &r, &e);
		w->seconds[i] = clock_ticks_to_ns(w->clock, clock_now() - t0) * 1e-9;
		w->busy[me] += w->seconds[i];
		if (!w->rc[i]) {
			w->end_bit[i] = r.end_bit;
			w->crc[i] = r.crc;
			w->nblock[i] = r.nblock;
			w->bytes[i] = r.bytes;
		}
	}
	return NULL;
}

static size_t cand_find(const uint64_t *c, size_t n, uint64_t bit)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c[mid] < bit)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && c[lo] == bit ? lo : SIZE_MAX;
}

/* Follow the streams from byte 0 through the decoded candidates: the
 * decoded bytes on the chain, or 0 when it breaks (then nothing counts). */
static size_t chain_check(const struct work *w, unsigned *blocks)
{
	size_t pos = 0, total = 0;

	*blocks = 0;
	while (pos < w->len) {
		uint64_t bit;
		uint32_t combined = 0, max_block;

		if (w->len - pos < 4 || memcmp(w->in + pos, "BZh", 3) || w->in[pos + 3] < '1' || w->in[pos + 3] > '9')
			return 0;
		max_block = 100000u * (uint32_t)(w->in[pos + 3] - '0');
		bit = (uint64_t)(pos + 4) * 8;
		for (;;) {
			size_t i = cand_find(w->cand, w->ncand, bit);
			struct bz2_bits b;

			if (i == SIZE_MAX) {
				uint64_t m;

				bz2_bits_init(&b, w->in, w->len, bit);
				m = (uint64_t)bz2_bits_get(&b, 24) << 24;
				m |= bz2_bits_get(&b, 24);
				if (m != 0x177245385090ull || bz2_bits_get(&b, 32) != combined || bz2_bits_truncated(&b))
					return 0;
				pos = (size_t)((bz2_bits_pos(&b) + 7) / 8);
				break;
			}
			if (w->rc[i] || w->nblock[i] > max_block)
				return 0;
			combined = bz2_crc_combine(combined, w->crc[i]);
			total += w->bytes[i];
			(*blocks)++;
			bit = w->end_bit[i];
		}
	}
	return total;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
	       ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) * 1e-6;
}

/* Where n workers lose against n x one worker, in seconds of wall time:
 * the scan (serial), blocks that take longer when workers run together
 * (the shared L3 and memory, or a neighbour on the host), and uneven
 * work (the busiest worker against the mean: few blocks, or blocks of
 * unequal size); the largest names the cause. */
static void workers_shortfall(const struct app_bzip2_workers *one, struct app_bzip2_workers *x)
{
	double ideal = one->wall_seconds / x->n, lost = x->wall_seconds - ideal, slow;

	x->block_slowdown = one->blocks_seconds > 0 ? x->blocks_seconds / one->blocks_seconds : 1;
	x->shortfall_cause = "none";
	if (x->n < 2 || lost <= 0)
		return;
	slow = (x->blocks_seconds - one->blocks_seconds) / x->n;
	x->shortfall_cause = "blocks slower together (shared cache and memory, or a host neighbour)";
	if (x->imbalance_seconds >= slow && x->imbalance_seconds >= x->scan_seconds)
		x->shortfall_cause = "uneven work (the busiest worker against the mean)";
	else if (x->scan_seconds > slow)
		x->shortfall_cause = "the serial magic scan";
}

static void workers_release(struct work *w)
{
	for (unsigned i = 0; i < APP_BZ2_WORKERS_MAX; i++) {
		bz2_decoder_free(w->dec[i]);
		w->dec[i] = NULL;
	}
}

/* n decoders, their T-vectors mapped and pre-faulted at the best variant's
 * pages and the rest of their buffers first touched by one untimed block,
 * so no trial's wall holds a map or a fault. 0 or -ENOMEM. */
static int workers_ready(struct work *w, unsigned n)
{
	size_t ncand = 0;
	uint64_t *cand = bz2_scan_blocks(w->in, w->len, &ncand);

	if (!cand)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		struct bz2_block_result r;
		struct bz2_error e;

		if (!(w->dec[i] = app_bz2_decoder_new_pages(w->pages))) {
			free(cand);
			workers_release(w);
			return -ENOMEM;
		}
		/* A false magic fails here harmlessly: the trials check every block. */
		if (ncand)
			(void)bz2_decode_block_at(w->dec[i], w->in, w->len, cand[0], 1, &w->walk, w->plain, &r, &e);
	}
	free(cand);
	return 0;
}

/* One trial's per-candidate results, zeroed, and the workers' shared
 * counters reset. 0 or -ENOMEM. */
static int trial_alloc(struct work *w)
{
	memset(w->busy, 0, sizeof(w->busy));
	w->rc = calloc(w->ncand + 1, sizeof(*w->rc));
	w->end_bit = calloc(w->ncand + 1, sizeof(*w->end_bit));
	w->crc = calloc(w->ncand + 1, sizeof(*w->crc));
	w->nblock = calloc(w->ncand + 1, sizeof(*w->nblock));
	w->bytes = calloc(w->ncand + 1, sizeof(*w->bytes));
	w->seconds = calloc(w->ncand + 1, sizeof(*w->seconds));
	atomic_store(&w->next, 0);
	atomic_store(&w->next_worker, 0);
	if (!w->rc || !w->end_bit || !w->crc || !w->nblock || !w->bytes || !w->seconds)
		return -ENOMEM;
	return 0;
}

static void trial_free(struct work *w)
{
	free(w->cand);
	free(w->rc);
	free(w->end_bit);
	free(w->crc);
	free(w->nblock);
	free(w->bytes);
	free(w->seconds);
}

/* n workers over the candidates; the calling thread alone when no
 * thread starts. */
static void workers_decode(struct work *w, unsigned n)
{
	pthread_t th[APP_BZ2_WORKERS_MAX];
	unsigned started = 0;

	for (unsigned i = 0; i < n; i++)
		if (!pthread_create(&th[i], NULL, worker_main, w))
			started++;
	if (!started)
		worker_main(w);
	for (unsigned i = 0; i < started; i++)
		pthread_join(th[i], NULL);
}

/* Each decoded block's rate in the trial: the least, median and most,
 * in MB/s (kept from an earlier trial where there is no memory for them). */
static void block_rates(const struct work *w, struct app_bzip2_workers *x)
{
	double *rates = malloc(w->ncand * sizeof(*rates));
	size_t k = 0;

	if (!rates)
		return;
	for (size_t i = 0; i < w->ncand; i++)
		if (!w->rc[i] && w->seconds[i] > 0)
			rates[k++] = (double)w->bytes[i] / MB / w->seconds[i];
	qsort(rates, k, sizeof(*rates), cmp_double);
	x->block_mb_per_s_min = k ? rates[0] : 0;
	x->block_mb_per_s_median = k ? rates[k / 2] : 0;
	x->block_mb_per_s_max = k ? rates[k - 1] : 0;
	free(rates);
}

/* The fastest trial's breakdown: the scan, the seconds inside blocks and
 * the busiest worker's excess over the mean. */
static void trial_keep(const struct work *w, unsigned n, double scan, struct app_bzip2_workers *x)
{
	double sum = 0, most = 0;

	for (unsigned i = 0; i < n; i++) {
		sum += w->busy[i];
		most = w->busy[i] > most ? w->busy[i] : most;
	}
	x->scan_seconds = scan;
	x->blocks_seconds = sum;
	x->imbalance_seconds = most - sum / n;
	block_rates(w, x);
}

/* Where one trial's figures go: the fastest wall and its CPU time. */
struct trial_best {
	double wall_seconds, cpu_seconds;
};

/* One timed trial of n workers: the scan, the blocks, the chain check.
 * 0; 1 when the chain broke (r falls back to the sequential figure);
 * -ENOMEM; -EINTR when *p->stop was raised. */
static int workers_trial(const struct app_bzip2_params *p, struct work *w, unsigned n, size_t decoded, bool first,
			 struct trial_best *best, struct app_bzip2_result *r, struct app_bzip2_workers *x)
{
	uint64_t t0 = clock_now();
	double c0 = cpu_seconds(), sec, cpu, scan;
	unsigned blocks = 0;
	int rc;

	/* The scan is part of the parallel decoder's work. */
	if (!(w->cand = bz2_scan_blocks(w->in, w->len, &w->ncand)))
		return -ENOMEM;
	scan = clock_ticks_to_ns(p->clock, clock_now() - t0) * 1e-9;
	if (!(rc = trial_alloc(w))) {
		workers_decode(w, n);
		sec = clock_ticks_to_ns(p->clock, clock_now() - t0) * 1e-9;
		cpu = cpu_seconds() - c0;
		if (chain_check(w, &blocks) != decoded) {
			r->workers_sequential_fallback = true;
			rc = 1;
		} else if (first || sec < best->wall_seconds) {
			*best = (struct trial_best){sec, cpu};
			trial_keep(w, n, scan, x);
		}
	}
	trial_free(w);
	if (p->stop && *p->stop)
		rc = -EINTR;
	return rc;
}

/* n workers' figures from its fastest trial, against one worker's row
 * (x itself when x is that row). */
static void workers_fill(const struct app_bzip2_workers *one, struct app_bzip2_workers *x, unsigned n,
			 const struct trial_best *best, size_t decoded)
{
	x->n = n;
	x->wall_seconds = best->wall_seconds;
	x->mb_per_s = (double)decoded / MB / best->wall_seconds;
	x->cpu_seconds_per_gb = best->cpu_seconds / ((double)decoded / 1e9);
	x->speedup = one->wall_seconds / best->wall_seconds;
	workers_shortfall(one, x);
}

/* n workers' row from its fastest trial, against one worker's. */
static void workers_row(struct app_bzip2_result *r, struct app_bzip2_workers *x, unsigned n,
			const struct trial_best *best, size_t decoded)
{
	struct rusage ru;

	workers_fill(r->nworkers ? &r->workers[0] : x, x, n, best, decoded);
	getrusage(RUSAGE_SELF, &ru);
	x->peak_rss_kib = ru.ru_maxrss;
	r->nworkers++;
}

/* The row's trials once more, its figures from the fastest of all. */
static int workers_again(const struct app_bzip2_params *p, struct work *w, size_t decoded, struct app_bzip2_result *r,
			 struct app_bzip2_workers *x)
{
	struct trial_best best = {x->wall_seconds, x->cpu_seconds_per_gb * ((double)decoded / 1e9)};
	int rc = 0;

	for (unsigned t = 0; t < p->trials && !rc; t++)
		rc = workers_trial(p, w, x->n, decoded, false, &best, r, x);
	if (!rc)
		workers_fill(&r->workers[0], x, x->n, &best, decoded);
	return rc;
}

struct real_again {
	const struct app_bzip2_params *p;
	struct work *w;
	size_t decoded;
	struct app_bzip2_result *r;
};

static int real_again(void *ctx, struct app_bzip2_workers *row)
{
	struct real_again *c = ctx;

	return workers_again(c->p, c->w, c->decoded, c->r, row);
}

/* n workers cannot decode more than n times faster than one: a speedup
 * above n beyond the ratio's floor means one worker's row ran slow (a
 * cold first trial, a busy moment). */
int app_bzip2_workers_recheck(struct app_bzip2_result *r, app_bzip2_workers_again_fn again, void *ctx)
{
	double floor = bounds_ratio_floor_pct(r->baseline.checked ? r->baseline.floor_pct : NAN);

	for (unsigned i = 1; i < r->nworkers; i++) {
		struct app_bzip2_workers *x = &r->workers[i];
		int rc;

		if (!bounds_exceeded(x->speedup, x->n, floor))
			continue;
		if ((rc = again(ctx, &r->workers[0])) || (rc = again(ctx, x)))
			return rc;
		for (unsigned j = 1; j < r->nworkers; j++) {
			r->workers[j].speedup = r->workers[0].wall_seconds / r->workers[j].wall_seconds;
			workers_shortfall(&r->workers[0], &r->workers[j]);
		}
		x->retimed = true;
		x->above_workers = bounds_exceeded(x->speedup, x->n, floor);
	}
	return 0;
}

static int run_workers(const struct app_bzip2_params *p, const uint8_t *in, size_t len, size_t decoded,
		       const struct bz2_walk_opts *walk, unsigned plain, struct app_bzip2_result *r)
{
	struct work w = {.in = in, .len = len, .walk = *walk, .plain = plain, .pages = r->variants[r->best].pages,
			 .clock = p->clock};
	struct app_bzip2_footprint fp;
	int rc = 0;

	w.walk.seed = p->seed;
	w.ncpus = team_allowed_cpus(w.cpus, APP_BZ2_WORKERS_MAX);
	if (w.ncpus > APP_BZ2_WORKERS_MAX)
		w.ncpus = APP_BZ2_WORKERS_MAX;
	app_bzip2_footprint_begin(&fp);
	if ((rc = workers_ready(&w, p->max_workers < APP_BZ2_WORKERS_MAX ? p->max_workers : APP_BZ2_WORKERS_MAX)))
		return rc;
	app_bzip2_footprint_ready(&fp, w.dec, p->max_workers < APP_BZ2_WORKERS_MAX ? p->max_workers : APP_BZ2_WORKERS_MAX,
				  r);
	for (unsigned n = 1; n <= p->max_workers && !rc; n++) {
		struct app_bzip2_workers *x = &r->workers[r->nworkers];
		struct trial_best best = {0, 0};

		for (unsigned t = 0; t < p->trials && !rc; t++) {
			if (t >= 1 && app_bzip2_past(p, APP_BZ2_PHASE_WORKERS))
				break;
			rc = workers_trial(p, &w, n, decoded, t == 0, &best, r, x);
		}
		if (rc)
			break;
		x->decoder_bytes = app_bzip2_footprint_at(&fp, n, w.ncand);
		workers_row(r, x, n, &best, decoded);
	}
	if (!rc)
		rc = app_bzip2_workers_recheck(r, real_again, &(struct real_again){p, &w, decoded, r});
	workers_release(&w);
	return rc > 0 ? 0 : rc;
}

/* ---- the peers: bzip2, lbzip2, 7-Zip ---- */
/* Each run on one thread by its own option where it has one, and pinned:
 * the child inherits this thread's one-CPU mask. lbzip2 unrestricted
 * starts a thread per CPU of the machine on that one CPU (30 MB/s where
 * pinned with -n 1 gives 45-52 on one recorded guest): how a peer is run
 * decides its figure, so each is named with its command. */
static const struct tool_spec {
	const char *name, *version_cmd, *version_key;
	const char *argv[6];             /* the file's path is appended */
} tool_specs[APP_BZ2_TOOLS_MAX] = {
	{"bzip2", "bzip2 --version", "ersion", {"bzip2", "-dc", NULL}},
	{"lbzip2", "lbzip2 --version", "ersion", {"lbzip2", "-n", "1", "-dc", NULL}},
	{"7zz", "7zz", "7-Zip", {"7zz", "e", "-so", "-mmt1", NULL}},
};

static int tool_version(const struct tool_spec *t, char *out, size_t len)
{
	char cmd[128];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "%s 2>&1 </dev/null", t->version_cmd);
	if (!(f = popen(cmd, "r")))
		return -1;
	out[0] = 0;
	while (fgets(out, (int)len, f))
		if (strstr(out, t->version_key))
			break;
	pclose(f);
	if (!strstr(out, t->version_key))
		return -1;
	out[strcspn(out, "\n")] = 0;
	return out[0] ? 0 : -1;
}

static double tool_seconds(const struct app_bzip2_params *p, const struct tool_spec *spec, const char *path,
			   struct app_bzip2_tool *t)
{
	const char *argv[8];
	double best = -1;
	size_t n = 0;

	while (spec->argv[n])
		n++;
	memcpy(argv, spec->argv, n * sizeof(*argv));
	argv[n] = path;
	argv[n + 1] = NULL;
	for (size_t i = 0; i < n; i++)
		snprintf(t->command + strlen(t->command), sizeof(t->command) - strlen(t->command), "%s ", argv[i]);
	snprintf(t->command + strlen(t->command), sizeof(t->command) - strlen(t->command), "FILE >/dev/null");
	for (unsigned k = 0; k < p->trials; k++) {
		if (k >= 1 && app_bzip2_past(p, APP_BZ2_PHASE_TOOLS))
			break;
		uint64_t t0 = clock_now();
		pid_t pid = fork();
		int status;

		if (pid < 0)
			return -1;
		if (!pid) {
			int fd = open("/dev/null", O_WRONLY);

			if (fd >= 0) {
				dup2(fd, 1);
				dup2(fd, 2);
			}
			execvp(argv[0], (char *const *)argv);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			return -1;
		{
			double sec = clock_ticks_to_ns(p->clock, clock_now() - t0) * 1e-9;

			if (k < APP_BZ2_TRIALS_MAX)
				t->trial_seconds[t->ntrials++] = sec;
			if (best < 0 || sec < best)
				best = sec;
		}
	}
	return best;
}

static void run_tools(const struct app_bzip2_params *p, const uint8_t *in, size_t len, const char *path,
		      struct app_bzip2_result *r)
{
	char tmp[] = "/tmp/mlpscope-bzip2-XXXXXX";
	int fd = -1;

	if (!path) {
		fd = mkstemp(tmp);
		if (fd < 0)
			return;
		if (write(fd, in, len) != (ssize_t)len) {
			close(fd);
			unlink(tmp);
			return;
		}
		close(fd);
		path = tmp;
	}
	for (size_t i = 0; i < APP_BZ2_TOOLS_MAX; i++) {
		struct app_bzip2_tool *t = &r->tools[r->ntools];
		double sec;

		if (app_bzip2_past(p, APP_BZ2_PHASE_TOOLS)) {
			r->tools_skipped = true;
			break;
		}
		memset(t, 0, sizeof(*t));
		if (tool_version(&tool_specs[i], t->version, sizeof(t->version)))
			continue;
		sec = tool_seconds(p, &tool_specs[i], path, t);
		if (sec <= 0)
			continue;
		snprintf(t->name, sizeof(t->name), "%s", tool_specs[i].name);
		t->seconds = sec;
		t->mb_per_s = (double)r->decoded_bytes / MB / sec;
		r->ntools++;
	}
	if (fd >= 0)
		unlink(tmp);
}

int app_bzip2_parse_layout(const char *s)
{
	return !strcmp(s, "registers") ? BZ2_LAYOUT_REGISTERS : !strcmp(s, "state") ? BZ2_LAYOUT_STATE : -1;
}

int app_bzip2_parse_prefetch(const char *s)
{
	return !strcmp(s, "off") ? BZ2_PREFETCH_OFF : !strcmp(s, "next") ? BZ2_PREFETCH_NEXT :
	       !strcmp(s, "two") ? BZ2_PREFETCH_TWO : -1;
}

int app_bzip2_parse_output(const char *s)
{
	return !strcmp(s, "reused") ? 0 : !strcmp(s, "fresh") ? 1 : -1;
}

bool app_bzip2_registers_k(unsigned k)
{
	return k == 1 || k == 2 || k == 4 || k == 8 || k == 12 || k == 16 || k == 24 || k == 32;
}

/* ---- the run ---- */
static struct app_bzip2_variant *add_variant(struct app_bzip2_result *r, unsigned k, enum bz2_layout l,
					     enum bz2_prefetch pf, bool fresh, unsigned plain)
{
	struct app_bzip2_variant *v;

	if (r->nvariants >= APP_BZ2_VARIANTS_MAX)
		return NULL;
	v = &r->variants[r->nvariants++];
	memset(v, 0, sizeof(*v));
	v->k = k;
	v->segments = k == 1 ? 1 : r->segments_override ? r->segments_override : 4 * k;
	v->layout = l;
	v->prefetch = pf;
	v->fresh_output = fresh;
	v->plain = plain;
	v->pages = r->pages;
	return v;
}

/* The decode-stage axes: which path each names, its fast form and the
 * stage it changes. */
static const unsigned axis_bits[APP_BZ2_PLAIN_AXES] = {BZ2_PLAIN_HUFFMAN, BZ2_PLAIN_MTF, BZ2_PLAIN_CRC,
							BZ2_PLAIN_RLE};
static const char *const axis_names[APP_BZ2_PLAIN_AXES] = {"huffman", "mtf", "crc", "rle"};
/* The CRC's fast form is the CPU's (bz2_crc_form). */
static const char *const axis_fast[APP_BZ2_PLAIN_AXES] = {"pair table, unchecked groups", "packed words", NULL,
							  "word search"};
static const char *const axis_stage[APP_BZ2_PLAIN_AXES] = {"decode", "decode", "crc", "rle"};

static double stage_of(const struct app_bzip2_stages *s, const char *name)
{
	return !strcmp(name, "decode") ? s->decode : !strcmp(name, "crc") ? s->crc : s->rle;
}

/* The variant with these decode paths at like's walk (the sweep's pages,
 * reused output, no overlap), or -1. */
static int find_paths(const struct app_bzip2_result *r, unsigned plain, const struct app_bzip2_variant *like)
{
	for (unsigned i = 0; i < r->nvariants; i++) {
		const struct app_bzip2_variant *v = &r->variants[i];

		if (v->plain == plain && v->k == like->k && v->layout == like->layout && v->prefetch == like->prefetch &&
		    !v->fresh_output && v->overlap == BZ2_OVERLAP_OFF && v->pages == r->pages)
			return (int)i;
	}
	return -1;
}

/* One axis from its base and its variant: f the stage's share of the
 * base whole, s the stage's own speedup, the prediction from them and the
 * whole's measured speedup. */
static void axis_fill(struct app_bzip2_result *r, struct app_bzip2_axis *x, int base, int one)
{
	const struct app_bzip2_variant *vp = &r->variants[base], *vf = &r->variants[one];
	double f, s;

	x->plain_variant = (unsigned)base;
	x->fast_variant = (unsigned)one;
	x->stage_plain_seconds = stage_of(&vp->stages, x->stage);
	x->stage_fast_seconds = stage_of(&vf->stages, x->stage);
	f = vp->warm_seconds > 0 ? x->stage_plain_seconds / vp->warm_seconds : 0;
	s = x->stage_fast_seconds > 0 ? x->stage_plain_seconds / x->stage_fast_seconds : 0;
	x->stage_fraction = f;
	x->stage_speedup = s;
	x->predicted_speedup = s > 0 ? 1.0 / ((1 - f) + f / s) : 0;
	x->measured_speedup = vf->warm_seconds > 0 ? vp->warm_seconds / vf->warm_seconds : 0;
	r->naxes++;
}

/* Each path's axis: the all-plain variant against the one with only it
 * fast; then the lane axis at the same walk: every path fast in two
 * passes against the lane form. */
static void derive_axes(struct app_bzip2_result *r)
{
	int all = -1, fast, lane;

	for (unsigned i = 0; i < r->nvariants && all < 0; i++)
		if (r->variants[i].plain == BZ2_PLAIN_ALL)
			all = (int)i;
	r->naxes = 0;
	if (all < 0)
		return;
	for (unsigned a = 0; a < APP_BZ2_PLAIN_AXES; a++) {
		int one = find_paths(r, BZ2_PLAIN_ALL & ~axis_bits[a], &r->variants[all]);
		struct app_bzip2_axis *x = &r->axes[r->naxes];

		if (one < 0)
			continue;
		x->name = axis_names[a];
		x->fast_path = axis_fast[a] ? axis_fast[a] : bz2_crc_form();
		x->stage = axis_stage[a];
		axis_fill(r, x, all, one);
	}
	fast = find_paths(r, 0, &r->variants[all]);
	lane = find_paths(r, BZ2_DECODE_LANE, &r->variants[all]);
	if (fast >= 0 && lane >= 0) {
		struct app_bzip2_axis *x = &r->axes[r->naxes];

		x->name = "lane";
		x->fast_path = "Huffman lane beside MTF";
		x->stage = "decode";
		axis_fill(r, x, fast, lane);
	}
}

/* Each overlap variant against the same walk in turn (fast paths). */
static void derive_overlaps(struct app_bzip2_result *r)
{
	r->noverlaps = 0;
	for (unsigned i = 0; i < r->nvariants && r->noverlaps < APP_BZ2_OVERLAPS; i++) {
		const struct app_bzip2_variant *v = &r->variants[i], *b = NULL;
		struct app_bzip2_overlap_axis *x = &r->overlaps[r->noverlaps];
		const struct app_bzip2_stages *s;
		double whole, walk, front, back;

		if (v->overlap == BZ2_OVERLAP_OFF)
			continue;
		for (unsigned j = 0; j < r->nvariants && !b; j++) {
			const struct app_bzip2_variant *c = &r->variants[j];

			if (c->overlap == BZ2_OVERLAP_OFF && !c->plain && !c->fresh_output && c->k == v->k && c->pages == v->pages &&
			    c->layout == v->layout && c->prefetch == v->prefetch) {
				b = c;
				x->base_variant = j;
			}
		}
		if (!b || b->warm_seconds <= 0 || v->warm_seconds <= 0)
			continue;
		s = &b->stages;
		whole = b->warm_seconds;
		walk = s->starts + s->traversal + s->assembly;
		front = s->decode + s->table;
		back = walk + s->rle + s->crc;
		x->variant = i;
		x->base_seconds = whole;
		x->seconds = v->warm_seconds;
		x->measured_speedup = whole / v->warm_seconds;
		if (v->overlap == BZ2_OVERLAP_INTERLEAVE) {
			/* One core: at best the walk's waiting hides under the
			 * decode, and the walk costs nothing more. */
			x->name = "interleave";
			x->how = "one core: block b's walk in slices inside block b+1's decode";
			x->threads = 1;
			x->fraction = whole > 0 ? (walk < s->decode ? walk : s->decode) / whole : 0;
		} else {
			/* Two cores: a pipeline of decode+table (the scout) and
			 * walk+rle+crc (this thread); the slower one sets the pace. */
			x->name = "scout";
			x->how = "two cores: a scout thread decodes block b+1 and its T-vector while block b is walked";
			x->threads = 2;
			x->fraction = whole > 0 ? (front < back ? front : back) / whole : 0;
		}
		x->bound_speedup = x->fraction < 1 ? 1.0 / (1 - x->fraction) : 0;
		r->noverlaps++;
	}
}

static const struct app_bzip2_variant *find_k1(const struct app_bzip2_result *r)
{
	for (unsigned i = 0; i < r->nvariants; i++)
		if (r->variants[i].k == 1 && !r->variants[i].fresh_output && !r->variants[i].plain &&
		    r->variants[i].pages == r->pages)
			return &r->variants[i];
	return NULL;
}

static void derive(struct app_bzip2_result *r)
{
	const struct app_bzip2_variant *one = find_k1(r), *b;
	double whole1, walk1;
	struct {
		const char *name;
		double s;
	} st[7];

	if (!one)
		return;
	whole1 = one->warm_seconds;
	walk1 = one->walk_seconds;
	r->best = 0;
	for (unsigned i = 0; i < r->nvariants; i++) {
		struct app_bzip2_variant *v = &r->variants[i];

		v->walk_fraction = whole1 > 0 ? walk1 / whole1 : 0;
		v->walk_speedup = v->walk_seconds > 0 ? walk1 / v->walk_seconds : 0;
		v->predicted_speedup = v->walk_speedup > 0 ?
			1.0 / ((1 - v->walk_fraction) + v->walk_fraction / v->walk_speedup) : 0;
		v->measured_speedup = v->warm_seconds > 0 ? whole1 / v->warm_seconds : 0;
		/* The best single thread: the scout runs two. */
		if (v->overlap != BZ2_OVERLAP_SCOUT &&
		    (r->variants[r->best].overlap == BZ2_OVERLAP_SCOUT || v->mb_per_s > r->variants[r->best].mb_per_s))
			r->best = i;
	}
	b = &r->variants[r->best];
	r->best_vs_libbz2 = r->libbz2_mb_per_s > 0 ? b->mb_per_s / r->libbz2_mb_per_s : 0;
	st[0].name = "decode", st[0].s = b->stages.decode;
	st[1].name = "table", st[1].s = b->stages.table;
	st[2].name = "starts", st[2].s = b->stages.starts;
	st[3].name = "traversal", st[3].s = b->stages.traversal;
	st[4].name = "assembly", st[4].s = b->stages.assembly;
	st[5].name = "rle", st[5].s = b->stages.rle;
	st[6].name = "crc", st[6].s = b->stages.crc;
	r->bound_stage = st[0].name;
	r->bound_fraction = 0;
	for (int i = 0; i < 7; i++)
		if (b->warm_seconds > 0 && st[i].s / b->warm_seconds > r->bound_fraction) {
			r->bound_fraction = st[i].s / b->warm_seconds;
			r->bound_stage = st[i].name;
		}
	for (unsigned i = 0; i < r->ntools; i++)
		r->tools[i].ratio = r->tools[i].mb_per_s > 0 ? b->mb_per_s / r->tools[i].mb_per_s : 0;
	derive_axes(r);
	derive_overlaps(r);
	app_bzip2_translation_derive(r);
}

void app_bzip2_derive(struct app_bzip2_result *r)
{
	derive(r);
}

int app_bzip2_time_variant(const struct app_bzip2_params *p, const struct app_bzip2_result *r, const uint8_t *in,
			   size_t len, struct app_bzip2_variant *v, char *err, size_t errlen)
{
	return run_variant(p, in, len, r->hash, r->decoded_bytes, v, err, errlen);
}

/* The overlap axes at the fastest walk planned in turn (K=16 prefetch
 * next where swept: the best on the text files here), each beside it:
 * interleaved on one core, and the scout on two. */
static void plan_overlaps(struct app_bzip2_result *r)
{
	int at = -1;

	for (unsigned i = 0; i < r->nvariants; i++) {
		const struct app_bzip2_variant *v = &r->variants[i];

		if (!v->plain && !v->fresh_output && v->pages == r->pages && !v->overlap && v->k > 1 && v->k <= 16 &&
		    v->layout == BZ2_LAYOUT_REGISTERS && v->prefetch == BZ2_PREFETCH_NEXT &&
		    (at < 0 || v->k > r->variants[at].k))
			at = (int)i;
	}
	if (at < 0)
		return;
	for (int ov = BZ2_OVERLAP_INTERLEAVE; ov <= BZ2_OVERLAP_SCOUT; ov++) {
		struct app_bzip2_variant base = r->variants[at], *v;

		if ((v = add_variant(r, base.k, base.layout, base.prefetch, false, 0)))
			v->overlap = (enum bz2_overlap)ov;
	}
}

/* The translation axis (--pages both): K=1 and the decode-stage axes'
 * walk again with the T-vector at the other page kind. */
static void plan_translation(const struct app_bzip2_params *p, struct app_bzip2_result *r,
			     const struct app_bzip2_variant *at)
{
	const struct app_bzip2_variant *one = find_k1(r);

	if (p->npages < 2 || !one)
		return;
	add_variant(r, 1, one->layout, one->prefetch, false, 0);
	r->variants[r->nvariants - 1].pages = p->pages[0];
	if (at->k == 1 && at->prefetch == one->prefetch && at->layout == one->layout)
		return;
	add_variant(r, at->k, at->layout, at->prefetch, false, 0);
	r->variants[r->nvariants - 1].pages = p->pages[0];
}

/* The variants to sweep: the default set (K = 1..max_k by powers of two in
 * both layouts, then at K = min(max_k, 8) prefetch next and two and a fresh
 * output buffer, K=1 fresh, and prefetch next at K = 16 and 32), or
 * reduced (K=1, K=8, K=8 and K=16 prefetch next: what a budget-shrunk run
 * keeps), or the narrowed axes; then the
 * decode-stage axes at one walk. */
static void plan_variants(const struct app_bzip2_params *p, struct app_bzip2_result *r, bool reduced)
{
	static const unsigned ks[] = {1, 2, 4, 8, 16, 32};
	unsigned axis_at = UINT32_MAX;

	r->nvariants = 0;
	if (p->only_k || p->layout >= 0 || p->prefetch >= 0 || p->output_fresh >= 0) {
		add_variant(r, 1, BZ2_LAYOUT_REGISTERS, BZ2_PREFETCH_OFF, false, 0);
		for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
			unsigned k = p->only_k ? p->only_k : ks[i];

			if (k > p->max_k || (i && p->only_k))
				break;
			for (int l = 0; l < 2; l++) {
				enum bz2_layout lay = l ? BZ2_LAYOUT_STATE : BZ2_LAYOUT_REGISTERS;

				if ((p->layout >= 0 && (int)lay != p->layout) || (k == 1 && l))
					continue;
				if (k == 1 && p->prefetch <= 0 && p->output_fresh <= 0)
					continue;  /* the baseline is already there */
				add_variant(r, k, lay, p->prefetch >= 0 ? (enum bz2_prefetch)p->prefetch : BZ2_PREFETCH_OFF,
					    p->output_fresh > 0, 0);
			}
		}
	} else if (reduced) {
		unsigned kmax = 1;

		for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]) && ks[i] <= p->max_k; i++)
			kmax = ks[i];
		kmax = kmax > 8 ? 8 : kmax;
		add_variant(r, 1, BZ2_LAYOUT_REGISTERS, BZ2_PREFETCH_OFF, false, 0);
		if (kmax > 1)
			add_variant(r, kmax, BZ2_LAYOUT_REGISTERS, BZ2_PREFETCH_OFF, false, 0);
		add_variant(r, kmax, BZ2_LAYOUT_REGISTERS, BZ2_PREFETCH_NEXT, false, 0);
		axis_at = r->nvariants - 1;
		if (p->max_k >= 16)
			add_variant(r, 16, BZ2_LAYOUT_REGISTERS, BZ2_PREFETCH_NEXT, false, 0);
	} else {
	for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		if (ks[i] > p->max_k)
			break;
		add_variant(r, ks[i], BZ2_LAYOUT_REGISTERS, BZ2_PREFETCH_OFF, false, 0);
		if (ks[i] > 1)
			add_variant(r, ks[i], BZ2_LAYOUT_STATE, BZ2_PREFETCH_OFF, false, 0);
	}
	{
		unsigned kmax = 1;

		for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]) && ks[i] <= p->max_k; i++)
			kmax = ks[i];
		kmax = kmax > 8 ? 8 : kmax;
		add_variant(r, kmax, BZ2_LAYOUT_REGISTERS, BZ2_PREFETCH_NEXT, false, 0);
		add_variant(r, kmax, BZ2_LAYOUT_REGISTERS, BZ2_PREFETCH_TWO, false, 0);
		add_variant(r, kmax, BZ2_LAYOUT_REGISTERS, BZ2_PREFETCH_OFF, true, 0);
		add_variant(r, 1, BZ2_LAYOUT_REGISTERS, BZ2_PREFETCH_OFF, true, 0);
		axis_at = r->nvariants - 4;
		/* More lanes with prefetch next: 8 lanes reached half the
		 * chase's S at 3.6 MB on a third recorded guest, 24 went 12% faster. */
		for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++)
			if (ks[i] > 8 && ks[i] <= p->max_k)
				add_variant(r, ks[i], BZ2_LAYOUT_REGISTERS, BZ2_PREFETCH_NEXT, false, 0);
	}
	}
	/* The decode-stage axes at one walk (the default sweep's prefetch-next
	 * one, else the last narrowed): all paths plain, then each alone fast;
	 * the all-fast one is that walk's own variant, and the lane axis its
	 * lane form. */
	if (r->nvariants) {
		struct app_bzip2_variant at = r->variants[axis_at < r->nvariants ? axis_at : r->nvariants - 1];

		add_variant(r, at.k, at.layout, at.prefetch, false, BZ2_PLAIN_ALL);
		for (unsigned a = 0; a < APP_BZ2_PLAIN_AXES; a++)
			add_variant(r, at.k, at.layout, at.prefetch, false, BZ2_PLAIN_ALL & ~axis_bits[a]);
		add_variant(r, at.k, at.layout, at.prefetch, false, BZ2_DECODE_LANE);
		plan_translation(p, r, &at);
	}
	plan_overlaps(r);
}

/* ---- the budget (a user's file) ---- */

static void put_bits(uint8_t *out, uint64_t *bit, unsigned n, uint64_t v)
{
	for (unsigned i = n; i-- > 0; (*bit)++)
		if ((v >> i) & 1)
			out[*bit / 8] |= (uint8_t)(0x80 >> (*bit % 8));
}

/* The end marker and the combined CRC are written after the last kept
 * block's bits, not byte-aligned: a block ends at any bit. */
uint8_t *app_bzip2_prefix_stream(const uint8_t *in, size_t len, const uint64_t *cand, size_t ncand, size_t blocks,
				 size_t *out_len)
{
	uint32_t combined = 0;
	uint64_t bit;
	uint8_t *out;

	if (!blocks || blocks >= ncand || cand[0] != 32)
		return NULL;
	bit = cand[blocks];
	for (size_t i = 0; i < blocks; i++) {
		struct bz2_bits b;

		bz2_bits_init(&b, in, len, cand[i] + 48);
		combined = bz2_crc_combine(combined, bz2_bits_get(&b, 32));
	}
	if (!(out = calloc((size_t)(bit / 8) + 16, 1)))
		return NULL;
	memcpy(out, in, (size_t)(bit / 8));
	if (bit % 8)
		out[bit / 8] = (uint8_t)(in[bit / 8] & (0xff00u >> (bit % 8)));
	put_bits(out, &bit, 48, 0x177245385090ull);
	put_bits(out, &bit, 32, combined);
	*out_len = (size_t)((bit + 7) / 8);
	return out;
}

void app_bzip2_fit(const struct app_bzip2_params *q, struct app_bzip2_result *r, const struct app_bzip2_rates *rt,
		   size_t file_blocks, struct app_bzip2_shrink *sh)
{
	double budget = q->budget_seconds * 0.9, cost;
	int n = 0;

	*sh = (struct app_bzip2_shrink){.trials = q->trials, .rounds = q->process_rounds};
	r->shrunk[0] = 0;
	r->pages = q->npages ? q->pages[q->npages - 1] : PAGES_SMALL;
	plan_variants(q, r, false);
	cost = app_bzip2_cost(q, r, sh->trials, rt);
	r->budget_seconds = q->budget_seconds;
	sh->whole_seconds = r->estimated_seconds = cost;
	if (rt->k1 <= 0 || q->budget_seconds <= 0 || cost <= budget)
		return;
	{
		unsigned before = r->nvariants;

		sh->reduced = true;
		plan_variants(q, r, true);
		n += snprintf(r->shrunk + n, sizeof(r->shrunk) - (size_t)n, "%u of %u variants", r->nvariants, before);
		cost = app_bzip2_cost(q, r, sh->trials, rt);
	}
	/* Two warm trials at least: one is no minimum on a shared machine. */
	if (cost > budget && sh->trials > 2) {
		n += snprintf(r->shrunk + n, sizeof(r->shrunk) - (size_t)n, "%strials %u -> 2", n ? ", " : "", sh->trials);
		sh->trials = 2;
		cost = app_bzip2_cost(q, r, 2, rt);
	}
	/* Three whole-process rounds: a median of three still drops the one a
	 * neighbour's burst hit. */
	if (cost > budget && q->process_rounds > APP_BZ2_PROC_ROUNDS_QUICK) {
		struct app_bzip2_params fewer = *q;

		fewer.process_rounds = sh->rounds = APP_BZ2_PROC_ROUNDS_QUICK;
		n += snprintf(r->shrunk + n, sizeof(r->shrunk) - (size_t)n, "%swhole-process rounds %u -> %u",
			      n ? ", " : "", q->process_rounds, sh->rounds);
		cost = app_bzip2_cost(&fewer, r, sh->trials, rt);
	}
	sh->whole_seconds = r->estimated_seconds = cost;
	if (cost > budget && file_blocks > 1) {
		size_t blocks = (size_t)((double)file_blocks * budget / cost);

		sh->blocks = blocks < 1 ? 1 : blocks;
		r->estimated_seconds = cost * (double)sh->blocks / (double)file_blocks;
	}
}

/* Build the prefix of sh->blocks blocks and keep it, saying so in
 * r->shrunk, when it decodes (the first stream may end before): true when
 * *in and *len were replaced by it (the old buffer freed). */
static bool use_prefix(struct app_bzip2_result *r, const struct app_bzip2_shrink *sh, const uint64_t *cand,
		       size_t ncand, uint8_t **in, size_t *len)
{
	struct bz2_decode_opts o = {.walk = {.lanes = 1}};
	struct bz2_error e;
	size_t plen = 0, used = strlen(r->shrunk);
	uint8_t *pre = app_bzip2_prefix_stream(*in, *len, cand, ncand, sh->blocks, &plen);

	if (!pre)
		return false;
	if (bz2_decode(pre, plen, &o, NULL, NULL, NULL, &e)) {
		free(pre);
		return false;
	}
	snprintf(r->shrunk + used, sizeof(r->shrunk) - used, "%sthe first %zu of %zu blocks (%zu of %zu compressed bytes)",
		 used ? ", " : "", sh->blocks, ncand, plen, *len);
	free(*in);
	*in = pre;
	*len = plen;
	return true;
}

/* Fit the run to q->budget_seconds (0: no budget): probe the decode rate,
 * then app_bzip2_fit, and the prefix it asks for when it decodes (else
 * the whole file's estimate stands). 0 or -ENOMEM. */
static int fit_budget(struct app_bzip2_params *q, struct app_bzip2_result *r, struct app_bzip2_shrink *sh,
		      uint8_t **in, size_t *len)
{
	struct app_bzip2_rates rt;
	size_t ncand = 0;
	uint64_t *cand;

	sh->trials = q->trials;
	sh->rounds = q->process_rounds;
	if (q->budget_seconds <= 0 || !q->path)
		return 0;
	if (!(cand = bz2_scan_blocks(*in, *len, &ncand)))
		return -ENOMEM;
	if (!ncand) {
		/* Nothing to time (app_bzip2_run stops after the check). */
		r->budget_seconds = q->budget_seconds;
		r->estimated_seconds = APP_BZ2_EMPTY_S;
		free(cand);
		return 0;
	}
	app_bzip2_probe(q, *in, *len, cand, ncand, &rt);
	r->rates = rt;
	app_bzip2_fit(q, r, &rt, ncand, sh);
	if (sh->blocks && !use_prefix(r, sh, cand, ncand, in, len)) {
		sh->blocks = 0;
		r->estimated_seconds = sh->whole_seconds;
	}
	free(cand);
	q->trials = sh->trials;
	q->process_rounds = sh->rounds;
	return 0;
}

int app_bzip2_estimate(const struct app_bzip2_params *p, struct app_bzip2_estimate *e, char *err, size_t errlen)
{
	struct app_bzip2_result *r = calloc(1, sizeof(*r));
	struct app_bzip2_shrink sh;
	struct app_bzip2_rates rt;
	size_t len = 0, ncand = 0, sample = p->default_text_bytes;
	double scale = 1, gen = 0;
	uint8_t *in = NULL;
	uint64_t *cand = NULL;
	int rc = -ENOMEM;

	*e = (struct app_bzip2_estimate){0};
	if (!r)
		return -ENOMEM;
	if (p->path) {
		rc = read_file(p->path, &in, &len, err, errlen);
	} else {
		/* One block of the generated text: markov text decodes at one
		 * rate throughout, so the whole is that block's times scaled. */
		uint64_t t0 = clock_wall_ns();

		sample = sample < 890000 ? sample : 890000;
		scale = (double)p->default_text_bytes / (double)sample;
		rc = make_default(sample, p->seed, &in, &len, err, errlen);
		gen = (double)(clock_wall_ns() - t0) * 1e-9 * scale;
	}
	if (rc)
		goto out;
	rc = -ENOMEM;
	if (!(cand = bz2_scan_blocks(in, len, &ncand)))
		goto out;
	rc = 0;
	/* No block (empty streams): nothing to probe and nothing to time
	 * (app_bzip2_run stops after the check), not the fallback's guess of
	 * a full block nor the fixed costs of parts that do not run. */
	if (!ncand) {
		e->seconds = APP_BZ2_EMPTY_S;
		e->empty = true;
		goto out;
	}
	if (app_bzip2_probe(p, in, len, cand, ncand, &rt))
		goto out;
	rt.k1 *= scale;
	rt.lanes *= scale;
	rt.hash *= scale;
	app_bzip2_fit(p, r, &rt, ncand, &sh);
	e->seconds = r->estimated_seconds + gen;
	e->round_seconds = app_bzip2_process_round_seconds(p, &rt) *
			   (sh.blocks && ncand ? (double)sh.blocks / (double)ncand : 1);
out:
	free(in);
	free(cand);
	free(r);
	return rc;
}

/* The input: the file, or generated text compressed by libbz2 (untimed
 * setup, its seconds kept apart). */
static int load_input(const struct app_bzip2_params *p, struct app_bzip2_result *r, uint8_t **in, size_t *len,
		      char *err, size_t errlen)
{
	uint64_t t0 = clock_wall_ns();
	int rc;

	if (p->path) {
		if ((rc = read_file(p->path, in, len, err, errlen)))
			return rc;
		snprintf(r->path, sizeof(r->path), "%s", p->path);
		return 0;
	}
	if ((rc = make_default(p->default_text_bytes, p->seed, in, len, err, errlen)))
		return rc;
	r->generated = true;
	r->generate_seconds = (double)(clock_wall_ns() - t0) * 1e-9;
	return 0;
}

/* The references every variant is held to: libbz2's bytes (their sha256
 * and count), then ours with one lane, which must equal them. A stream
 * either decoder refuses is the input's fault (-EINVAL, err says where). */
static int check_references(const struct app_bzip2_params *p, struct app_bzip2_result *r, const uint8_t *in,
			    size_t len, uint8_t *buf, char *err, size_t errlen)
{
	struct hash_sink ref = {.bytes = 0}, ours = {.bytes = 0};
	struct bz2_decode_opts o1 = {.walk = {.lanes = 1}};
	struct bz2_error e;
	char hex[65];
	int rc;

	sha256_init(&ref.sha);
	if ((rc = bz2_ref_decode(in, len, hash_ref, &ref, buf, 1 << 20, err, errlen))) {
		if (rc == -1) {
			char why[200];

			snprintf(why, sizeof(why), "%s", err);
			snprintf(err, errlen, "%s: %s", p->path ? p->path : "generated input", why);
			rc = -EINVAL;
		}
		return rc;
	}
	sha256_final_hex(&ref.sha, r->hash);
	r->decoded_bytes = ref.bytes;
	sha256_init(&ours.sha);
	if ((rc = bz2_decode(in, len, &o1, hash_block, &ours, NULL, &e))) {
		if (rc == -1) {
			bad_input(p->path ? p->path : "generated input", &e, err, errlen);
			rc = -EINVAL;
		}
		return rc;
	}
	sha256_final_hex(&ours.sha, hex);
	if (strcmp(hex, r->hash) || ours.bytes != ref.bytes) {
		snprintf(err, errlen, "K=1: sha256 %s, libbz2 %s", hex, r->hash);
		return -EPROTO;
	}
	r->blocks = ours.blocks;
	r->rows = ours.rows;
	return 0;
}

/* The next stream header after byte i (a "BZh" level, then a block magic
 * or an empty stream's end-of-stream magic), or len. */
static size_t next_stream(const uint8_t *in, size_t len, size_t i)
{
	for (size_t j = i + 4; j + 4 <= len; j++)
		if (in[j] == 'B' && !memcmp(in + j, "BZh", 3) && in[j + 3] >= '1' && in[j + 3] <= '9' && j + 10 <= len &&
		    (!memcmp(in + j + 4, "\x31\x41\x59\x26\x53\x59", 6) ||
		     !memcmp(in + j + 4, "\x17\x72\x45\x38\x50\x90", 6)))
			return j;
	return len;
}

/* Streams: count the headers the decoder walked through. The header's
 * level bounds every block of the stream: the table the walk follows
 * holds that many 4-byte rows. */
static void count_streams(struct app_bzip2_result *r, const uint8_t *in, size_t len)
{
	for (size_t i = 0; i < len; i = next_stream(in, len, i)) {
		r->streams++;
		if (i + 3 < len && in[i + 3] >= '1' && in[i + 3] <= '9' && 100000u * (size_t)(in[i + 3] - '0') > r->block_rows)
			r->block_rows = 100000u * (size_t)(in[i + 3] - '0');
	}
	r->table_bytes = 4 * r->block_rows;
}

/* The input's line: the file (or the prefix the budget kept) or the
 * generated text and how it was compressed. */
static void describe_input(const struct app_bzip2_params *p, struct app_bzip2_result *r, size_t len)
{
	if (p->path && r->prefix_blocks)
		snprintf(r->input, sizeof(r->input), "%s: %zu bytes; its first %zu blocks as one stream (the budget): "
			 "%zu bytes, %zu bytes decoded", p->path, r->file_compressed_bytes, r->prefix_blocks, len,
			 r->decoded_bytes);
	else if (p->path)
		snprintf(r->input, sizeof(r->input), "%s: %zu bytes, %u blocks, %u stream%s, %zu bytes decoded", p->path, len,
			 r->blocks, r->streams, r->streams == 1 ? "" : "s", r->decoded_bytes);
	else
		snprintf(r->input, sizeof(r->input), "generated text (markov, seed %llu), %zu bytes, compressed at run time "
			 "by libbz2 %s at level 9 (untimed, %.1f s): %zu bytes, %u blocks",
			 (unsigned long long)p->seed, p->default_text_bytes, r->libbz2_version, r->generate_seconds, len,
			 r->blocks);
}

/* libbz2 on one thread over the same bytes, no sink: the fastest trial. */
static int time_libbz2(const struct app_bzip2_params *q, struct app_bzip2_result *r, const uint8_t *in, size_t len,
		       uint8_t *buf, char *err, size_t errlen)
{
	int rc;

	for (unsigned t = 0; t < q->trials; t++) {
		if (t >= 1 && app_bzip2_past(q, APP_BZ2_PHASE_LIBBZ2))
			break;
		uint64_t t0 = clock_now();
		double sec;

		if ((rc = bz2_ref_decode(in, len, NULL, NULL, buf, 1 << 20, err, errlen)))
			return rc;
		sec = clock_ticks_to_ns(q->clock, clock_now() - t0) * 1e-9;
		if (r->libbz2_ntrials < APP_BZ2_TRIALS_MAX)
			r->libbz2_trial_seconds[r->libbz2_ntrials++] = sec;
		if (!t || sec < r->libbz2_seconds)
			r->libbz2_seconds = sec;
	}
	r->libbz2_mb_per_s = (double)r->decoded_bytes / MB / r->libbz2_seconds;
	return 0;
}

/* Every planned variant, then the translation figures they feed. */
static int run_variants(const struct app_bzip2_params *q, struct app_bzip2_result *r, const uint8_t *in,
			size_t len, char *err, size_t errlen)
{
	int rc;

	for (unsigned i = 0; i < r->nvariants; i++) {
		if (q->stop && *q->stop)
			return -EINTR;
		if ((rc = run_variant(q, in, len, r->hash, r->decoded_bytes, &r->variants[i], err, errlen)))
			return rc;
	}
	app_bzip2_translation_derive(r);
	return app_bzip2_translation_paired(q, in, len, r);
}

/* The workers run the best variant's walk. */
static int run_best_workers(const struct app_bzip2_params *q, struct app_bzip2_result *r, const uint8_t *in,
			    size_t len)
{
	const struct app_bzip2_variant *b = &r->variants[r->best];
	struct bz2_walk_opts w = {
		.lanes = b->k, .segments = b->segments, .layout = b->layout, .prefetch = b->prefetch,
	};

	return run_workers(q, in, len, r->decoded_bytes, &w, b->plain, r);
}

int app_bzip2_run(const struct app_bzip2_params *p, struct app_bzip2_result *r, char *err, size_t errlen)
{
	struct app_bzip2_params q = *p;
	struct app_bzip2_shrink shrink = {.reduced = false};
	uint64_t t_start = clock_wall_ns();
	uint8_t *in = NULL, *buf = NULL;
	size_t len = 0;
	int rc;

	q.start_ns = app_bzip2_now(p);
	memset(r, 0, sizeof(*r));
	/* The stage and walk ticks in the calibrated counter's units, as
	 * clock_ticks_to_ns converts them. */
	bz2_set_clock(clock_now);
	if (!bz2_ref_available()) {
		bz2_ref_decode(NULL, 0, NULL, NULL, NULL, 0, err, errlen);
		return -ENOTSUP;
	}
	snprintf(r->libbz2_version, sizeof(r->libbz2_version), "%s", bz2_ref_version());
	if ((rc = load_input(p, r, &in, &len, err, errlen)))
		return rc;
	r->file_compressed_bytes = len;
	r->segments_override = p->segments;
	r->pages = p->npages ? p->pages[p->npages - 1] : PAGES_SMALL;
	if ((rc = fit_budget(&q, r, &shrink, &in, &len)))
		goto out;
	r->prefix_blocks = shrink.blocks;
	r->compressed_bytes = len;
	if (!(buf = malloc(1 << 20))) {
		rc = -ENOMEM;
		goto out;
	}
	if ((rc = check_references(p, r, in, len, buf, err, errlen)))
		goto out;
	count_streams(r, in, len);
	describe_input(p, r, len);
	/* No block (empty streams): both decoders give 0 bytes, checked above,
	 * and there is nothing to time; every rate would be a ratio of zeros
	 * or of two process starts. */
	if (!r->blocks) {
		r->nvariants = 0;
		goto out;
	}

	plan_variants(&q, r, shrink.reduced);
	if ((rc = run_variants(&q, r, in, len, err, errlen)) || (rc = time_libbz2(&q, r, in, len, buf, err, errlen)))
		goto out;
	derive(r);
	if ((rc = run_best_workers(&q, r, in, len)))
		goto out;
	if (p->tools)
		run_tools(&q, in, len, shrink.blocks ? NULL : p->path, r);
	if ((rc = app_bzip2_whole_process(&q, in, len, r)))
		goto out;
	if ((rc = app_bzip2_count_instructions(&q, r)))
		goto out;
	derive(r);
	rc = 0;
out:
	r->seconds = (double)(clock_wall_ns() - t_start) * 1e-9;
	if (!rc && p->keep_input) {
		r->kept_input = in;
		r->kept_input_bytes = len;
	} else {
		free(in);
	}
	free(buf);
	return rc;
}
