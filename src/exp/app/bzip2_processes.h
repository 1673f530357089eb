/*
 * `app bzip2`'s whole-process part: the decoder as a program (mlpbunzip2)
 * beside bzip2, lbzip2, 7zz and pbzip2, each run as its own fork/exec'd
 * process over the same .bz2 file, stdout to /dev/null, pinned (one CPU for
 * a one-thread command, N for an N-thread one), the commands alternated
 * round by round (A B C, A B C, ...) so a drift of the shared machine lands
 * on every command alike instead of on whichever ran last. What a process
 * costs beyond the decode (exec, the loader, page faults of its buffers,
 * its output's writes) is in these figures and in none of the stage ones.
 * The running is behind a seam (struct app_bzip2_proc_ops) so tests feed
 * synthetic runs; the live one is in bzip2_processes.c. Measures only;
 * never prints.
 */
#ifndef MLPSCOPE_EXP_APP_BZIP2_PROCESSES_H
#define MLPSCOPE_EXP_APP_BZIP2_PROCESSES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define APP_BZ2_PROC_PROBES 3    /* the other CPUs ours at one thread is run on, at most */
#define APP_BZ2_PROC_CMDS (10 + APP_BZ2_PROC_PROBES) /* 5 programs at 1 and N threads, and the probes */
#define APP_BZ2_PROC_RUNS 15     /* rounds at most */
#define APP_BZ2_PROC_CPUS 64     /* the most CPUs an N-thread command is pinned to */
#define APP_BZ2_PROC_ROUNDS 5    /* the default rounds */
#define APP_BZ2_PROC_ROUNDS_QUICK 3

/* One run of one command, as the seam reports it. */
struct app_bzip2_proc_run {
	double wall_seconds;         /* from before its fork to after its wait4 */
	double user_seconds, sys_seconds; /* wait4's rusage of that child */
	double peak_rss_bytes;       /* its ru_maxrss */
	size_t output_bytes;         /* a check run only: what it wrote */
	char output_sha256[65];      /* a check run only */
};

/* How one command's output compared with the expected bytes. */
enum app_bzip2_proc_check { APP_BZ2_PROC_UNCHECKED, APP_BZ2_PROC_CHECK_OK, APP_BZ2_PROC_CHECK_MISMATCH };

struct app_bzip2_proc_row {
	char name[16];               /* the program: "mlpbunzip2", "bzip2", ... */
	char label[32];              /* with its thread option: "lbzip2 -n2" */
	char command[160];           /* the argv as run, the input as FILE */
	char path[256];              /* the program found; empty: not installed */
	bool ours;                   /* mlpbunzip2 */
	bool cpu_probe;              /* ours at one thread on another of the N CPUs (cpus[0]) */
	bool installed;
	unsigned threads;            /* what its option asks for: 1 or N */
	unsigned ncpus;              /* pinned to cpus[0..ncpus) */
	int cpus[APP_BZ2_PROC_CPUS];
	enum app_bzip2_proc_check check;
	size_t output_bytes;         /* the check run's output */
	char failure[120];           /* why it has no figures (a nonzero exit, a mismatch); empty: none */
	unsigned nruns;
	double wall_seconds[APP_BZ2_PROC_RUNS], user_seconds[APP_BZ2_PROC_RUNS], sys_seconds[APP_BZ2_PROC_RUNS];
	double peak_rss_bytes[APP_BZ2_PROC_RUNS];
	double median_seconds, min_seconds, max_seconds;   /* of wall_seconds */
	double cpu_seconds_per_gb;   /* the median run's user+sys over the output's GB (1e9 B) */
	double peak_rss_max_bytes;   /* the largest of its runs' */
	bool peak_rss_at_floor;      /* within the fork's floor: its own peak is that or less */
	double peer_over_ours;       /* this median / ours at the same thread count; 0: none (ours, or no such row) */
};

/* Ours at one thread on each of the N CPUs at once, a copy a CPU, each
 * timed from before the first fork to its own exit: CPUs timed alone may
 * each run faster than while all are busy (a shared cache or memory, the
 * host's power budget). */
struct app_bzip2_proc_together {
	unsigned ncpus, nruns;
	int cpus[APP_BZ2_PROC_CPUS];
	double wall_seconds[APP_BZ2_PROC_RUNS][APP_BZ2_PROC_CPUS];   /* [round][CPU] */
	double median_seconds[APP_BZ2_PROC_CPUS];   /* each CPU's over the rounds */
	char failure[120];                          /* why it has no figures; empty: none */
};

struct app_bzip2_processes {
	bool ran;                    /* false: not asked for, or no file to run on */
	bool budget_cut;             /* the budget's share ran out before the rounds asked for */
	unsigned rounds_asked, rounds;
	unsigned threads;            /* N: the CPUs the run may use, capped at --threads */
	size_t expected_bytes;
	char expected_sha256[65];
	/* A child's ru_maxrss starts at what it held when it called exec: the
	 * forked copy of its parent's anonymous pages (exec records the old
	 * mm's high-water mark); the most the runs' parents held (child_run.h:
	 * a fresh copy of this program). A peak within this floor says only
	 * "this or less". 0: not known. */
	double fork_floor_bytes;
	unsigned nrows;
	struct app_bzip2_proc_row rows[APP_BZ2_PROC_CMDS];
	/* What the N CPUs allowed: N threads can be at most 1 + (N - 1) times
	 * the mean of (ours -n1 on the first CPU / on a probed one) faster
	 * than ours -n1 (the CPUs of a guest are seldom alike: a neighbour on
	 * the host or an SMT sibling slows one for seconds), beside ours -nN's
	 * speed-up over ours -n1. 0: not measured. */
	double cpus_allow_speedup, ours_speedup;
	/* The input's blocks as N threads take them, in order, each to the
	 * first free thread: blocks - 1 full ones, then the last at
	 * last_block_share of a full one (by their compressed bits); and what
	 * the same CPUs allow over them (9 blocks on 2 like CPUs: 5 on one,
	 * 1.8x, not 2). 0 blocks: not known, and blocks_allow_speedup 0. */
	unsigned blocks;
	double last_block_share, blocks_allow_speedup;
	/* ours_speedup was above what the CPUs allow (past its own row's
	 * spread, 5% at least): retimed, ours' rows ran a round more; still
	 * above after it: above_cpus, marked wherever it is printed. */
	bool retimed, above_cpus;
	/* The same divided inside each round (ours -n1, -nN and the probes
	 * ran seconds apart in it, so a drift between rounds cancels), then
	 * the median over the rounds: -nN's speed-up over -n1, what that
	 * round's CPUs allowed (1 + (N - 1) x the mean of -n1 over each
	 * probe), and the share of it reached. paired_rounds 0: not known. */
	unsigned paired_rounds;
	double paired_speedup, paired_allow_speedup, paired_share;
	/* What N threads can reach with every CPU busy: the sum over the N
	 * CPUs of ours -n1's median alone on the first over that CPU's at
	 * once. 0: not measured (one thread, no together in the seam, or a
	 * copy failed). */
	struct app_bzip2_proc_together together;
	double together_allow_speedup;
};

/* The seam. find: the program's path into path, 0, or -1 when it is not
 * installed. run: argv (argv[0] the path) pinned to cpus, stdout to
 * /dev/null (check false) or, check true, its output's size and SHA-256
 * into out; 0, or -1 with why filled (a failed start, a nonzero exit, a
 * signal). together: argv n times at once, copy i pinned to cpus[i] alone,
 * stdout to /dev/null, each copy's wall seconds into walls[i]; 0, or -1
 * with why filled (NULL: not offered, and nothing is run at once). past:
 * whether the budget's share for this part is spent. */
struct app_bzip2_proc_ops {
	int (*find)(void *ctx, const char *prog, char *path, size_t len);
	int (*run)(void *ctx, const char *const *argv, const int *cpus, unsigned ncpus, bool check,
		   struct app_bzip2_proc_run *out, char *why, size_t whylen);
	int (*together)(void *ctx, const char *const *argv, const int *cpus, unsigned n, double *walls, char *why,
			size_t whylen);
	bool (*past)(void *ctx);
	void *ctx;
};

/* The commands, ours first, at one thread then at threads (none at
 * threads below 2), then ours at one thread on up to APP_BZ2_PROC_PROBES
 * other CPUs of the N, spread over them, each with its program looked up
 * through ops->find: a one-thread command pinned to cpus[0] (a probe to
 * its own), an N-thread one to cpus[0..N).
 * threads is capped at ncpus and APP_BZ2_PROC_CPUS. Pure but for find. */
void app_bzip2_processes_plan(struct app_bzip2_processes *x, const struct app_bzip2_proc_ops *ops, const int *cpus,
			      unsigned ncpus, unsigned threads);

/* Each installed command once, untimed, its output checked against
 * expected_bytes/expected_sha256 (a warm-up too: the program and the file
 * in the page cache); then `rounds` rounds of every command still
 * standing, in plan order, stopping before a round once ops->past says
 * so (one round always runs). file: the .bz2 path appended to each argv.
 * Fills rows' runs and failures, then derives. 0, or -ENOMEM. */
int app_bzip2_processes_measure(struct app_bzip2_processes *x, const struct app_bzip2_proc_ops *ops, const char *file,
				unsigned rounds, size_t expected_bytes, const char *expected_sha256);

/* From the rows' runs (pure): median, min and max wall, CPU-s per GB, peak
 * RSS (marked at x->fork_floor_bytes when within 5% + 1 MiB of it), each
 * peer's median over ours at its thread count, and what the CPUs allowed
 * alone (cpus_allow_speedup) and at once (together_allow_speedup) beside
 * ours_speedup. */
void app_bzip2_processes_derive(struct app_bzip2_processes *x);

/* x->blocks and x->last_block_share from the input's block magics (cand:
 * their bit offsets, bz2_scan_blocks; len: the input's bytes). Pure. */
void app_bzip2_processes_set_blocks(struct app_bzip2_processes *x, const uint64_t *cand, size_t ncand, size_t len);

/* Whether ours -nN's speed-up is above what the CPUs allow, past the
 * -nN row's own spread (5% at least). Pure. */
bool app_bzip2_processes_above_cpus(const struct app_bzip2_processes *x);

/* The row of ours at `threads` on the first CPUs (not a probe), NULL when
 * there is none with runs. */
const struct app_bzip2_proc_row *app_bzip2_processes_ours(const struct app_bzip2_processes *x, unsigned threads);

/* The live part: write in[0..len) to a temporary file, look up the
 * programs (mlpbunzip2 beside the running binary, then PATH; the peers on
 * PATH), and measure. cpus: the CPUs the run may use. past(pctx): the
 * budget's word. 0, -ENOMEM, or -errno from the temporary file. */
int app_bzip2_processes_run(struct app_bzip2_processes *x, const uint8_t *in, size_t len, const int *cpus,
			    unsigned ncpus, unsigned threads, unsigned rounds, size_t expected_bytes,
			    const char *expected_sha256, bool (*past)(void *pctx), void *pctx);

/* For other parts that run programs (the instruction counts): a program
 * found as the rows find theirs (0, or -1 when not installed), and argv
 * run as a row's run is, pinned to cpu, stdout to /dev/null (0, or -1
 * with why filled); *seconds its wall time. */
int app_bzip2_program_find(const char *prog, char *path, size_t len);
int app_bzip2_program_run(const char *const *argv, int cpu, double *seconds, char *why, size_t whylen);

#endif
