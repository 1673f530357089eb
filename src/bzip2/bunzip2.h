/*
 * The decoder as a library: a bzip2 file (one stream or several back to
 * back, as pbzip2 and `cat a.bz2 b.bz2` write) from memory or a read
 * callback, decoded by N threads and handed to a write callback in file
 * order. Input is read in chunks; blocks are found by their 48-bit magic,
 * decoded ahead by the workers and written as each one's turn comes, so
 * memory is bounded by the blocks in flight, not by the file or its ratio.
 * This header needs nothing of the instrument (no clock, no page backing):
 * it is what a program that decodes files includes. bz2.h is the decoder's
 * inside, with the stage switches and ticks the experiment times.
 */
#ifndef MLPSCOPE_BZIP2_BUNZIP2_H
#define MLPSCOPE_BZIP2_BUNZIP2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Returns of bunzip2_decode: 0, or one of these (each fills the error). */
enum bunzip2_status {
	BUNZIP2_OK = 0,
	BUNZIP2_CORRUPT = -1,  /* not bzip2, corrupt or truncated input */
	BUNZIP2_READ = -2,     /* the read callback failed (error.sys_errno) */
	BUNZIP2_WRITE = -3,    /* the write callback stopped (error.sys_errno) */
	BUNZIP2_NOMEM = -4,    /* memory or a thread could not be had */
	BUNZIP2_LIMIT = -5,    /* the output or memory limit would be passed */
};

/* Where and why decoding stopped. block counts blocks from the file's
 * start, 1-based, across streams (0: a stream header or end marker);
 * byte_offset is the input byte where the bad field starts. */
struct bunzip2_error {
	unsigned stream;       /* 1-based */
	unsigned block;
	uint64_t byte_offset;
	int sys_errno;         /* BUNZIP2_READ, BUNZIP2_WRITE, BUNZIP2_NOMEM */
	char what[200];
};

/* A decoder kept from one decode to the next on the caller's thread,
 * with the input window, the workers' decoders and their spare outputs:
 * files decoded in turn make them once (6 MiB of huge pages made resident
 * a decoder, 0.5 ms when the machine has them ready, over ten times that
 * on a guest whose host must back them again: most of a small file's
 * decode). For one decode at a time; a decode that fails leaves it empty. */
struct bunzip2_keep;

/* NULL when memory ran out. */
struct bunzip2_keep *bunzip2_keep_new(void);
/* k and the decoder it holds; NULL does nothing. */
void bunzip2_keep_free(struct bunzip2_keep *k);

struct bunzip2_opts {
	unsigned threads;          /* blocks decoded at once; 0 or 1: on the caller's thread */
	struct bunzip2_keep *keep; /* NULL: each decode makes and frees its own */
	uint64_t max_output_bytes; /* 0: none; else BUNZIP2_LIMIT before a block would pass it */
	/* 0: none; else the threads are lowered until the decoders and the
	 * blocks in flight fit (bunzip2_memory_bytes), BUNZIP2_LIMIT when not
	 * even one does. */
	size_t max_memory_bytes;
	size_t chunk_bytes;        /* the read size (0: 1 MiB, 256 KiB with workers) */
	/* The CPUs the caller may run on, or NULL. With as many workers as
	 * these (Linux), worker i starts bound to bind_cpus[i], so that other
	 * work on a CPU takes that CPU's share from one worker (left to
	 * itself, Linux may keep two workers on one CPU while the other runs
	 * a busy neighbour). They are let go if the block whose turn it is
	 * keeps the writing waiting 100 ms: its CPU may be held by other work. */
	const int *bind_cpus;
	unsigned nbind_cpus;
};

/* Up to cap bytes into buf: how many (0 only at the end of the input), or
 * -errno. */
typedef long (*bunzip2_read_fn)(void *ctx, uint8_t *buf, size_t cap);
/* len decoded bytes, in file order: 0, or -errno to stop (BUNZIP2_WRITE). */
typedef int (*bunzip2_write_fn)(void *ctx, const uint8_t *buf, size_t len);

#define BUNZIP2_TIMED_THREADS 9

/* What a decode read and wrote. Bytes after the last stream that do not
 * start another ("BZh1".."BZh9") are trailing garbage: bzip2 ignores them
 * with a warning and so does this (garbage_bytes > 0 says there were). */
struct bunzip2_summary {
	uint64_t in_bytes, out_bytes;
	unsigned streams, blocks;
	uint64_t garbage_offset, garbage_bytes;
	unsigned threads;          /* the workers used (after max_memory_bytes) */
	bool workers_bound;        /* one to a CPU (opts.bind_cpus) */
	bool workers_let_go;       /* ... and let go: a block kept the writing waiting */
	/* The largest buffer that held a block's output, in bytes: at most
	 * BUNZIP2_BUFFER_MAX_BYTES whatever the blocks expand to (one of long
	 * runs is held before its run-length stage and written in pieces). */
	size_t max_buffer_bytes;
	/* Where each thread's time went, for a caller that reports it: [0] the
	 * coordinating thread (reads, finds block starts, writes in order),
	 * [1..] the workers, the first BUNZIP2_TIMED_THREADS in all. cpu_ns:
	 * the thread's CPU time (CLOCK_THREAD_CPUTIME_ID, page faults taken
	 * included); wait_ns: the wall time it slept, a worker for a block to
	 * decode, the coordinator for the block whose turn it is; warm_ns:
	 * the wall time its decoder's buffers took to be made resident (their
	 * huge pages zeroed by the kernel: 0 for a thread that made no
	 * decoder); blocks: the blocks it decoded. */
	struct bunzip2_thread_ns {
		uint64_t cpu_ns, wait_ns, warm_ns;
		unsigned blocks;
	} thread_ns[BUNZIP2_TIMED_THREADS];
};

/* The bound on a block's output buffer: ordinary blocks (900 kB before the
 * run-length stage, a few percent more after) fit whole. */
#define BUNZIP2_BUFFER_MAX_BYTES ((size_t)1 << 20)

/* Decode everything rd gives into wr. sum may be NULL; e is always filled
 * on failure. Nothing is written for a block that fails its checks; the
 * blocks before it have been written. */
int bunzip2_decode(bunzip2_read_fn rd, void *rctx, bunzip2_write_fn wr, void *wctx,
		   const struct bunzip2_opts *o, struct bunzip2_summary *sum, struct bunzip2_error *e);

/* The same from in[0..len). */
int bunzip2_decode_memory(const uint8_t *in, size_t len, bunzip2_write_fn wr, void *wctx,
			  const struct bunzip2_opts *o, struct bunzip2_summary *sum, struct bunzip2_error *e);

/* The memory a decode with this many threads may hold at most, in bytes,
 * whatever the blocks expand to (a block of one long run, 46 MB decoded,
 * holds no more than any other while it is in flight). */
size_t bunzip2_memory_bytes(unsigned threads);

/* "corrupt input", "read error", ... for a status. */
const char *bunzip2_status_name(int status);

#endif
