/*
 * Bandwidth kernels: sequential read (summed, so no load is dead), write
 * and copy over whole cache lines, in scalar C (kern/stream.c) and in the
 * vector widths of the ISA (arch/stream_<isa>.c, chosen at run time from
 * what the CPU reports, never from the build host). Names are the symbols
 * (stream_read_avx2 ...), so `objdump -d` of the object shows each loop.
 * Buffers are 64-byte aligned and a multiple of STREAM_CHUNK_BYTES long.
 */
#ifndef MLPSCOPE_KERN_STREAM_H
#define MLPSCOPE_KERN_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Every kernel moves whole 256-byte chunks: four 64-byte lines, one loop
 * trip of the widest (AVX-512) unroll. */
#define STREAM_CHUNK_BYTES 256u

/* STREAM_MIX: one buffer (dst == src) walked line by line, read_lines
 * lines loaded then write_lines lines stored, repeating: a read:write ratio
 * over one sequential stream. */
enum stream_op { STREAM_READ, STREAM_WRITE, STREAM_COPY, STREAM_MIX };

/* read: returns a sum of src (dst unused); write: fills dst with a pattern
 * derived from seed and returns 0; copy: dst[0..bytes) = src[0..bytes),
 * returns 0. bytes is a multiple of STREAM_CHUNK_BYTES. */
typedef uint64_t (*stream_fn)(void *dst, const void *src, size_t bytes, uint64_t seed);

struct stream_kernel {
	const char *name;         /* "read_scalar", "read_avx2", "ntwrite_avx2", ... */
	enum stream_op op;
	unsigned width_bytes;     /* register width: 8 scalar, 16, 32, 64 */
	bool nontemporal;         /* stores bypass the caches (no read-for-ownership) */
	const char *isa;          /* "c", "sse2", "avx2", "avx512f", "neon" */
	stream_fn fn;
	int (*usable)(void);      /* 1 when this CPU (and OS) can run it */
	unsigned read_lines, write_lines; /* STREAM_MIX only: the ratio, lines per period */
};

/* Every kernel this CPU can run: scalar first, then the ISA's in ascending
 * width. Writes at most max, returns how many exist. */
size_t stream_kernels(const struct stream_kernel **out, size_t max);

/* The widest usable kernel for op (nontemporal stores or not); NULL when
 * none (no non-temporal kernels on the generic build). */
const struct stream_kernel *stream_kernel_widest(enum stream_op op, bool nontemporal);

/* Bytes the kernel moves to or from memory per byte of `bytes`: 1 for read
 * and write, 2 for copy (read + write). Read-for-ownership is not counted. */
unsigned stream_bytes_factor(enum stream_op op);

const char *stream_op_name(enum stream_op op);

/* The ISA's vector kernels (arch/stream_<isa>.c; the generic build has
 * none). Includes ones this CPU cannot run: filter with usable(). */
const struct stream_kernel *stream_arch_kernels(size_t *n);

/* The read:write mix kernels, all 8-byte scalar so the ratios compare like
 * with like: 3:1, 2:1, 1:1 with normal stores, then the ISA's 1:1 with
 * non-temporal stores where it has one (x86-64: MOVNTI). Not among
 * stream_kernels(). A mix returns seed plus the sum of the words it read,
 * and stores seed in every word of each line it writes. Writes at most max
 * usable ones, returns how many. */
size_t stream_mix_kernels(const struct stream_kernel **out, size_t max);

/* The ISA's non-temporal mixes (arch/stream_<isa>.c; none on the others). */
const struct stream_kernel *stream_arch_mix_kernels(size_t *n);

/* Scalar reference kernels (kern/stream.c). */
uint64_t stream_read_scalar(void *dst, const void *src, size_t bytes, uint64_t seed);
uint64_t stream_write_scalar(void *dst, const void *src, size_t bytes, uint64_t seed);
uint64_t stream_copy_scalar(void *dst, const void *src, size_t bytes, uint64_t seed);
uint64_t stream_mix31_scalar(void *dst, const void *src, size_t bytes, uint64_t seed);
uint64_t stream_mix21_scalar(void *dst, const void *src, size_t bytes, uint64_t seed);
uint64_t stream_mix11_scalar(void *dst, const void *src, size_t bytes, uint64_t seed);

#endif
