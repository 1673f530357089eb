/*
 * Scalar bandwidth kernels and the run-time kernel table. The scalar loops
 * must stay scalar and stay loops: GCC at -O2 vectorizes simple reductions
 * and turns fill and copy loops into memset/memcpy calls, and glibc's
 * memset/memcpy switch to non-temporal stores past a size threshold, which
 * would silently make "scalar write" a different experiment. An empty asm
 * that claims to change a register (or memory) each line forbids all three;
 * it emits no instruction on any target. Also the read:write mixes.
 */
#include "kern/stream.h"

#include <stddef.h>

#define WORDS_PER_LINE 8

/* One variable per asm: a 32-bit target holds a uint64_t in a register
 * pair, and several pairs in one statement can run out of registers. */
#define OPAQUE(x) __asm__("" : "+r"(x))

/* One line of stores, each 8 bytes through volatile: never merged into
 * vector stores (the SLP vectorizer does that even with an opaque value)
 * nor into a memset. */
static inline __attribute__((always_inline)) void store_line(volatile uint64_t *p, uint64_t v)
{
	p[0] = v;
	p[1] = v;
	p[2] = v;
	p[3] = v;
	p[4] = v;
	p[5] = v;
	p[6] = v;
	p[7] = v;
}

uint64_t stream_read_scalar(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	const uint64_t *p = src, *end = p + bytes / sizeof(uint64_t);
	uint64_t a = seed, b = 0, c = 0, d = 0;

	(void)dst;
	/* Four accumulators: one add chain would cap the loop at one load per
	 * add latency, well under what a core can issue. */
	for (; p < end; p += WORDS_PER_LINE) {
		a += p[0] + p[4];
		b += p[1] + p[5];
		c += p[2] + p[6];
		d += p[3] + p[7];
		OPAQUE(a);
		OPAQUE(b);
		OPAQUE(c);
		OPAQUE(d);
	}
	return a + b + c + d;
}

uint64_t stream_write_scalar(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	volatile uint64_t *p = dst, *end = p + bytes / sizeof(uint64_t);

	(void)src;
	for (; p < end; p += WORDS_PER_LINE)
		store_line(p, seed);
	return 0;
}

uint64_t stream_copy_scalar(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	uint64_t *d = dst;
	const uint64_t *s = src, *end = s + bytes / sizeof(uint64_t);

	(void)seed;
	for (; s < end; s += WORDS_PER_LINE, d += WORDS_PER_LINE) {
		uint64_t w0 = s[0], w1 = s[1], w2 = s[2], w3 = s[3], w4 = s[4], w5 = s[5], w6 = s[6], w7 = s[7];

		/* Values pass through registers the compiler may not see through:
		 * no memcpy, no vector moves. */
		OPAQUE(w0);
		OPAQUE(w1);
		OPAQUE(w2);
		OPAQUE(w3);
		OPAQUE(w4);
		OPAQUE(w5);
		OPAQUE(w6);
		OPAQUE(w7);
		d[0] = w0;
		d[1] = w1;
		d[2] = w2;
		d[3] = w3;
		d[4] = w4;
		d[5] = w5;
		d[6] = w6;
		d[7] = w7;
	}
	return 0;
}

/* r lines read, then w lines written, repeating; constant r and w in each
 * caller, so every ratio gets its own loop (`make disasm`). Its stores are
 * write_scalar's, store_line. */
static inline __attribute__((always_inline)) uint64_t mix_lines(uint64_t *p, size_t bytes, unsigned r, unsigned w,
								 uint64_t seed)
{
	uint64_t *end = p + bytes / sizeof(uint64_t), a = seed, b = 0;

	while (p < end) {
		for (unsigned i = 0; i < r && p < end; i++, p += WORDS_PER_LINE) {
			a += p[0] + p[2] + p[4] + p[6];
			b += p[1] + p[3] + p[5] + p[7];
			OPAQUE(a);
			OPAQUE(b);
		}
		for (unsigned i = 0; i < w && p < end; i++, p += WORDS_PER_LINE)
			store_line(p, seed);
	}
	return a + b;
}

uint64_t stream_mix31_scalar(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	(void)src;
	return mix_lines(dst, bytes, 3, 1, seed);
}

uint64_t stream_mix21_scalar(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	(void)src;
	return mix_lines(dst, bytes, 2, 1, seed);
}

uint64_t stream_mix11_scalar(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	(void)src;
	return mix_lines(dst, bytes, 1, 1, seed);
}

static int always(void)
{
	return 1;
}

static const struct stream_kernel scalar_kernels[] = {
	{"read_scalar", STREAM_READ, 8, false, "c", stream_read_scalar, always, 0, 0},
	{"write_scalar", STREAM_WRITE, 8, false, "c", stream_write_scalar, always, 0, 0},
	{"copy_scalar", STREAM_COPY, 8, false, "c", stream_copy_scalar, always, 0, 0},
};

static const struct stream_kernel mix_kernels[] = {
	{"mix_3_1_scalar", STREAM_MIX, 8, false, "c", stream_mix31_scalar, always, 3, 1},
	{"mix_2_1_scalar", STREAM_MIX, 8, false, "c", stream_mix21_scalar, always, 2, 1},
	{"mix_1_1_scalar", STREAM_MIX, 8, false, "c", stream_mix11_scalar, always, 1, 1},
};

size_t stream_mix_kernels(const struct stream_kernel **out, size_t max)
{
	size_t n = 0, narch = 0;
	const struct stream_kernel *arch = stream_arch_mix_kernels(&narch);

	for (size_t i = 0; i < sizeof(mix_kernels) / sizeof(mix_kernels[0]) && n < max; i++)
		out[n++] = &mix_kernels[i];
	for (size_t i = 0; i < narch && n < max; i++)
		if (arch[i].usable())
			out[n++] = &arch[i];
	return n;
}

size_t stream_kernels(const struct stream_kernel **out, size_t max)
{
	size_t n = 0, narch = 0;
	const struct stream_kernel *arch = stream_arch_kernels(&narch);

	for (size_t i = 0; i < sizeof(scalar_kernels) / sizeof(scalar_kernels[0]); i++, n++)
		if (n < max)
			out[n] = &scalar_kernels[i];
	for (size_t i = 0; i < narch; i++)
		if (arch[i].usable()) {
			if (n < max)
				out[n] = &arch[i];
			n++;
		}
	return n;
}

const struct stream_kernel *stream_kernel_widest(enum stream_op op, bool nontemporal)
{
	const struct stream_kernel *all[64], *best = NULL;
	size_t n = stream_kernels(all, 64);

	for (size_t i = 0; i < n && i < 64; i++)
		if (all[i]->op == op && all[i]->nontemporal == nontemporal &&
		    (!best || all[i]->width_bytes > best->width_bytes))
			best = all[i];
	return best;
}

unsigned stream_bytes_factor(enum stream_op op)
{
	return op == STREAM_COPY ? 2 : 1;
}

const char *stream_op_name(enum stream_op op)
{
	static const char *const names[] = {
		[STREAM_READ] = "read", [STREAM_WRITE] = "write", [STREAM_COPY] = "copy", [STREAM_MIX] = "mix",
	};

	return (unsigned)op < sizeof(names) / sizeof(names[0]) ? names[op] : "?";
}
