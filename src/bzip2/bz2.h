/*
 * Our own bzip2 decoder, written from the format: a stream is "BZh" and a
 * level digit, then blocks (48-bit magic 0x314159265359, the block's CRC,
 * Huffman-coded MTF symbols of the BWT's last column), then an end marker
 * (0x177245385090) and the combined CRC; files may hold several streams
 * back to back. Each stage is its own function and file (bits, huffman,
 * mtf, ibwt, rle, crc, stream) so the experiment can time each alone.
 * Randomised blocks (bzip2 0.9.0's legacy option) are decoded as libbz2
 * decodes them (rand.c).
 * Nothing here prints: every failure fills a struct bz2_error.
 */
#ifndef MLPSCOPE_BZIP2_BZ2_H
#define MLPSCOPE_BZIP2_BZ2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BZ2_MAX_BLOCK_BYTES 900000u
#define BZ2_MAX_GROUPS 6
#define BZ2_MAX_ALPHA 258
#define BZ2_MAX_CODE_BITS 20
#define BZ2_MAX_SELECTORS 18002
#define BZ2_GROUP_SYMBOLS 50
/* A group's worst case, 50 codes of 20 bits, plus the 8-byte load past
 * the last refill and a margin: a group that starts this far from the
 * input's end is read with whole-word refills and no bounds test. */
#define BZ2_GROUP_SAFE_BYTES (BZ2_GROUP_SYMBOLS * BZ2_MAX_CODE_BITS / 8 + 32)
/* Bytes past a block's last column that the decode may write and not
 * keep (symbols_split.c's whole-word stores). */
#define BZ2_BWT_SLACK 16
/* Bit 31 of a table word marks a segment's start row (rows < 2^20). */
#define BZ2_ROW_MARK 0x80000000u

/* Where and why decoding stopped: block is 1-based (0: stream header or
 * trailer), byte_offset the input byte where the bad field starts. */
struct bz2_error {
	unsigned block;
	uint64_t byte_offset;
	char what[160];
};

/* ---- bits.c: an MSB-first reader over the whole input ---- */
struct bz2_bits {
	const uint8_t *base, *p, *end;
	uint64_t buf;      /* next bits, left-aligned */
	unsigned count;    /* valid bits in buf */
	uint64_t overrun;  /* zero bits supplied past the end */
};

void bz2_bits_init(struct bz2_bits *b, const uint8_t *data, size_t len, uint64_t bit_offset);
/* Bits consumed from the start of data. */
uint64_t bz2_bits_pos(const struct bz2_bits *b);
/* True when a read went past the end of the input. */
bool bz2_bits_truncated(const struct bz2_bits *b);

static inline void bz2_bits_fill(struct bz2_bits *b)
{
	while (b->count <= 56) {
		uint64_t byte = 0;

		if (b->p < b->end)
			byte = *b->p++;
		else
			b->overrun += 8;
		b->buf |= byte << (56 - b->count);
		b->count += 8;
	}
}

/* n in 1..32 */
static inline uint32_t bz2_bits_get(struct bz2_bits *b, unsigned n)
{
	uint32_t v;

	if (b->count < n)
		bz2_bits_fill(b);
	v = (uint32_t)(b->buf >> (64 - n));
	b->buf <<= n;
	b->count -= n;
	return v;
}

/* Written as shifts, not a bswap builtin: compilers emit one load and one
 * byte swap for it on either byte order. */
static inline uint64_t bz2_load_be64(const uint8_t *p)
{
	return (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 | (uint64_t)p[2] << 40 | (uint64_t)p[3] << 32 |
	       (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 | (uint64_t)p[6] << 8 | p[7];
}

/* ---- huffman.c: one coding table (canonical, lengths 1..20) ---- */
#define BZ2_FAST_BITS 10
/* A pair entry: bits 0-4 the bits both codes take, 5-8 the first's length,
 * bit 9 set when a second symbol follows in the same 10 bits, 10-18 the
 * first symbol, 19-27 the second; 0 when the first code is longer than 10
 * bits or no code. Never pairs after EOB (the block ends there) nor with EOB second. */
#define BZ2_PAIR_TWO (1u << 9)
struct bz2_huffman {
	uint16_t fast[1u << BZ2_FAST_BITS];  /* sym << 5 | len, 0 when longer */
	uint32_t pair[1u << BZ2_FAST_BITS];  /* one or two symbols per lookup (the table path) */
	uint32_t limit[BZ2_MAX_CODE_BITS + 2];/* first code past length l, left-aligned to 20 bits */
	uint32_t offset[BZ2_MAX_CODE_BITS + 1];/* perm index minus first code, per length */
	uint16_t perm[BZ2_MAX_ALPHA];        /* symbols ordered by (length, symbol) */
};

/* Build from lengths[0..alpha): 0, or -1 when the code is oversubscribed
 * (more codes than the lengths allow). Incomplete codes are accepted; a
 * bit pattern with no code is refused when met. */
int bz2_huffman_build(struct bz2_huffman *h, const uint8_t *lengths, unsigned alpha);

/* The next symbol, or -1 for a bit pattern that is no code. */
static inline int bz2_huffman_decode(const struct bz2_huffman *h, struct bz2_bits *b)
{
	uint32_t v, e;
	unsigned len;

	if (b->count < BZ2_MAX_CODE_BITS)
		bz2_bits_fill(b);
	e = h->fast[b->buf >> (64 - BZ2_FAST_BITS)];
	if (e) {
		len = e & 31;
		b->buf <<= len;
		b->count -= len;
		return (int)(e >> 5);
	}
	v = (uint32_t)(b->buf >> (64 - BZ2_MAX_CODE_BITS));
	for (len = BZ2_FAST_BITS + 1; len <= BZ2_MAX_CODE_BITS; len++)
		if (v < h->limit[len]) {
			b->buf <<= len;
			b->count -= len;
			return h->perm[h->offset[len] + (v >> (BZ2_MAX_CODE_BITS - len))];
		}
	return -1;
}

/* A code longer than BZ2_FAST_BITS from the next 20 bits v (left-aligned):
 * its symbol with *len set, or -1 when v starts with no code. */
static inline int bz2_huffman_long(const struct bz2_huffman *h, uint32_t v, unsigned *len)
{
	for (unsigned l = BZ2_FAST_BITS + 1; l <= BZ2_MAX_CODE_BITS; l++)
		if (v < h->limit[l]) {
			*len = l;
			return h->perm[h->offset[l] + (v >> (BZ2_MAX_CODE_BITS - l))];
		}
	return -1;
}

/* Which paths of the decode stage a block keeps plain (0: every fast one;
 * each is an axis of the experiment, symbols.c and crc.c say what each is). */
#define BZ2_PLAIN_HUFFMAN 1u  /* one symbol per lookup, bounds tested per symbol */
#define BZ2_PLAIN_MTF 2u      /* a byte array and memmove, not packed words */
#define BZ2_PLAIN_CRC 4u      /* slicing by 4, not bz2_crc's form */
#define BZ2_PLAIN_RLE 8u      /* the run-length stage a byte at a time, not by word search */
#define BZ2_PLAIN_ALL 15u
/* Not a plain path but a form of the fast one, off unless asked for (an
 * axis of the experiment): the next group's Huffman lookups taken as a
 * lane between the steps of this group's zero-run and MTF loop
 * (symbols_split.c), two chains on one core instead of two passes. */
#define BZ2_DECODE_LANE 16u
/* The longest run one entry of bz2_block.runs holds. */
#define BZ2_RUN_MAX 255u

/* ---- mtf.c: headers of one block through MTF and the zero-run code ---- */
struct bz2_walk_job;
struct bz2_block {
	uint32_t stored_crc;
	uint32_t orig_ptr;
	uint32_t nblock;                  /* bytes of the BWT's last column */
	uint32_t counts[256];             /* how often each byte occurs in it */
	uint8_t *bwt;                     /* caller's buffer, max_block + BZ2_BWT_SLACK bytes */
	/* NULL, or the caller's buffer of max_block + 1 entries, where the
	 * split decode writes the column as its runs instead (run << 8 |
	 * byte, at most BZ2_RUN_MAX bytes an entry) and leaves bwt alone. */
	uint16_t *runs;
	uint32_t nruns;                   /* entries in runs; 0: the column is in bwt */
	/* Scratch of the decode itself, kept here so a block needs no allocation. */
	uint8_t selectors[BZ2_MAX_SELECTORS];
	struct bz2_huffman tables[BZ2_MAX_GROUPS];
	/* Bit t: table t's lengths are oversubscribed. libbz2 builds every
	 * table without a check and fails only on the codes it reads, so such
	 * a table is refused when a group names it, not when it is read. */
	uint8_t bad_tables;
	bool randomised;                  /* the header's bit: rand.c undoes it after the walk */
};

/* Read one block's body (after its magic) from b into blk: the CRC field,
 * the randomised bit, the origin pointer, the symbol map, the selectors,
 * the code tables and the symbols. max_block = 100000 x the level; plain:
 * BZ2_PLAIN_* bits; pace: the previous block's walk, stepped from inside
 * this decode to the bytes it has emitted (the one-core overlap), or NULL.
 * 0, or -1 with e->what and e->byte_offset filled (the block number is
 * the caller's). */
int bz2_block_decode(struct bz2_bits *b, uint32_t max_block, struct bz2_block *blk, unsigned plain,
		     struct bz2_walk_job *pace, struct bz2_error *e);

/* ---- symbols.c: the symbols after the headers (mtf.c's last part) ---- */
/* Decode into blk->bwt (or, by the split decode, blk->runs where set),
 * blk->counts and blk->nblock with blk's selectors and tables;
 * seq_to_byte[0..used) the symbol map. 0, or -1 with e filled. */
int bz2_symbols_decode(struct bz2_bits *b, struct bz2_block *blk, const uint8_t *seq_to_byte, unsigned used,
		       uint32_t nselectors, uint32_t max_block, unsigned plain, struct bz2_walk_job *pace,
		       struct bz2_error *e);

/* ---- symbols_split.c: the same, both paths fast, in two passes a group ---- */
/* The forms of the MTF list, narrowest first: two words and memmove
 * (every CPU), 16-byte vectors and a byte shuffle (x86-64 with SSSE3),
 * four 64-byte registers and byte permutes (x86-64 with AVX-512 VBMI). */
enum bz2_list_form { BZ2_LIST_WORDS, BZ2_LIST_SHUFFLE, BZ2_LIST_VBMI };
/* For tests: the widest form the decode may take (BZ2_LIST_VBMI unless
 * set); it takes the widest the CPU also has, bz2_split_list_form(). */
extern enum bz2_list_form bz2_split_list_max;
enum bz2_list_form bz2_split_list_form(void);
/* lane: the BZ2_DECODE_LANE form. */
int bz2_symbols_split(struct bz2_bits *b, struct bz2_block *blk, const uint8_t *seq_to_byte, unsigned used,
		      uint32_t nselectors, uint32_t max_block, bool lane, struct bz2_walk_job *pace,
		      struct bz2_error *e);

/* ---- ibwt.c: the inverse BWT ---- */
/* bzip2's T-vector: tt[j] = (next row << 8) | the byte row j starts with
 * (its first column's; the walk starts at the origin row). */
void bz2_ibwt_table(const struct bz2_block *blk, uint32_t *tt);
/* For tests: false builds it from runs with SSE2 stores where the CPU
 * also has AVX-512's masked ones (true unless set). */
extern bool bz2_table_masked;

enum bz2_layout { BZ2_LAYOUT_STATE, BZ2_LAYOUT_REGISTERS };
enum bz2_prefetch { BZ2_PREFETCH_OFF, BZ2_PREFETCH_NEXT, BZ2_PREFETCH_TWO };
#define BZ2_LANES_MAX 32
#define BZ2_SEGMENTS_MAX 4096

struct bz2_walk_opts {
	unsigned lanes;                  /* K: 1 is the plain walk */
	unsigned segments;               /* S >= K start rows (0: 4K) */
	enum bz2_layout layout;
	enum bz2_prefetch prefetch;
	uint64_t seed;                   /* where the random start rows fall */
	bool by_rows;                    /* lanes and segments by the block's rows (ibwt.c) */
};

/* Scratch the K-lane walk reuses across blocks (chunks and segment lists).
 * The pool is the walk's own (malloc'd) or lent (bz2_walk_scratch_lend). */
struct bz2_walk_scratch {
	uint8_t *pool;
	size_t pool_chunks;
	bool pool_lent;
	uint32_t *chunk_next, *chunk_used;
	size_t chunk_cap;
};

/* The clock every tick below is read from: the instrument hands in its
 * own (core/clock.h's clock_now) before a timed decode; until then
 * CLOCK_MONOTONIC's nanoseconds (ticks.c). */
void bz2_set_clock(uint64_t (*now)(void));
uint64_t bz2_ticks(void);

/* Ticks the walk spent in its parts, added to (bz2_ticks units). */
struct bz2_walk_ticks {
	uint64_t starts, traversal, assembly;
	unsigned fallbacks;              /* blocks walked with one lane (see ibwt.c) */
};

/* Emit the block's nblock bytes in text order into out. Returns 0 or
 * -ENOMEM. A block whose rows do not form one cycle (periodic text) is
 * walked with one lane, as libbz2 walks it. */
int bz2_ibwt_walk(uint32_t *tt, uint32_t nblock, uint32_t orig_ptr, uint8_t *out, const struct bz2_walk_opts *o,
		  struct bz2_walk_scratch *sc, struct bz2_walk_ticks *ticks);
void bz2_walk_scratch_free(struct bz2_walk_scratch *sc);
/* The chunk pool a walk of up to n rows needs at most, in bytes. */
size_t bz2_walk_pool_bytes(uint32_t n);
/* Lends sc pool[0..bytes) as its chunk pool, which the walks then write
 * in place of one of their own (a walk that needs more takes its own);
 * the lender keeps it and frees it. */
void bz2_walk_scratch_lend(struct bz2_walk_scratch *sc, uint8_t *pool, size_t bytes);

/* The same walk in slices (the one-core overlap): start it (the first
 * pass, no step), pace it to `rows` rows walked from inside the next
 * block's decode (bz2_block.pace), then end it: the rest of the steps,
 * the assembly into out, and the one-lane fallback. start: 0 or -ENOMEM. */
struct bz2_walk_job *bz2_walk_job_new(void);
void bz2_walk_job_free(struct bz2_walk_job *j);
int bz2_walk_start(struct bz2_walk_job *j, uint32_t *tt, uint32_t n, uint32_t orig_ptr, uint8_t *out,
		   const struct bz2_walk_opts *o, struct bz2_walk_scratch *sc);
/* Steps until `rows` rows are walked; returns the rows walked (the next
 * call is due when the decode has emitted that many bytes), UINT64_MAX
 * once the walk has ended. */
uint64_t bz2_walk_pace(struct bz2_walk_job *j, uint64_t rows);
void bz2_walk_end(struct bz2_walk_job *j, struct bz2_walk_ticks *ticks);

/* ---- rle.c: undo the first run-length stage (4 equal bytes + a count) ---- */
/* Decoded bytes that in[0..n) expands to. */
size_t bz2_rle_size(const uint8_t *in, size_t n);
/* Expand into out (at least bz2_rle_size bytes); returns the bytes written. */
size_t bz2_rle_decode(const uint8_t *in, size_t n, uint8_t *out);
/* The same into out[0..cap): the bytes written, or SIZE_MAX (out's
 * contents undefined) when they would not fit: one pass, not two. */
size_t bz2_rle_decode_cap(const uint8_t *in, size_t n, uint8_t *out, size_t cap);
/* The same a byte at a time (the RLE axis's plain path). */
size_t bz2_rle_size_plain(const uint8_t *in, size_t n);
size_t bz2_rle_decode_plain(const uint8_t *in, size_t n, uint8_t *out);
/* The same in pieces: a block expands to up to 46 MB (900,000 bytes of
 * 4-byte runs and counts of 255), so a caller that bounds its memory
 * expands it through a buffer of its own size. Start from a zeroed cursor
 * and call until it returns 0: each call fills out[0..cap) but for the
 * last, and returns the bytes written. */
struct bz2_rle_cursor {
	size_t s;          /* the next byte of in */
	size_t lit_end;    /* in[s..lit_end) is copied as it stands */
	bool count_next;   /* in[lit_end] is a run's count */
	uint8_t run_byte;
	unsigned run_left; /* copies of run_byte still to write */
};
size_t bz2_rle_decode_piece(struct bz2_rle_cursor *c, const uint8_t *in, size_t n, uint8_t *out, size_t cap);

/* ---- rand.c: a randomised block's flipped bytes, flipped back ---- */
/* text[0..n): the walk's output of a block whose randomised bit is set. */
void bz2_derandomise(uint8_t *text, size_t n);

/* ---- crc.c: bzip2's CRC-32 (MSB first, polynomial 0x04c11db7) ---- */
/* Folded by carry-less multiplies where x86-64 has them, else slicing by
 * 8 in three streams; bz2_crc4 by 4 (the plain path of the CRC axis). */
uint32_t bz2_crc(const uint8_t *p, size_t n);
/* The CRC of the bytes a CRC `crc` covers followed by p[0..n): a block
 * checked in pieces is bz2_crc_more over them from 0 (the CRC of none). */
uint32_t bz2_crc_more(uint32_t crc, const uint8_t *p, size_t n);
uint32_t bz2_crc4(const uint8_t *p, size_t n);
/* The form bz2_crc takes on this CPU, in words. */
const char *bz2_crc_form(void);
static inline uint32_t bz2_crc_combine(uint32_t stream, uint32_t block)
{
	return ((stream << 1) | (stream >> 31)) ^ block;
}

/* ---- stream.c: whole files in production order ---- */
struct bz2_stage_ticks {
	uint64_t decode;     /* bits, Huffman tables and symbols, selectors, MTF */
	uint64_t table;      /* the T-vector */
	uint64_t starts;     /* the lanes' first pass: start rows chosen and marked */
	uint64_t traversal;
	uint64_t assembly;
	uint64_t rle;
	uint64_t crc;
	uint32_t rows;       /* the block's BWT rows (its size before the run-length stage), timed or not */
};

/* How block b+1's decode meets block b's walk: in turn (off), in slices
 * on one core (interleave: the walk paced from inside the decode), or on
 * two (scout: a second thread decodes and builds the T-vector ahead). */
enum bz2_overlap { BZ2_OVERLAP_OFF, BZ2_OVERLAP_INTERLEAVE, BZ2_OVERLAP_SCOUT };

struct bz2_decode_opts {
	struct bz2_walk_opts walk;
	enum bz2_overlap overlap;
	int scout_cpu;       /* the scout thread's CPU (Linux); -1: the caller's mask */
	bool fresh_output;   /* allocate and free the output buffer per block */
	bool timed;          /* fill the per-stage ticks (bz2_ticks around each) */
	size_t max_output_bytes; /* 0: none; else -EFBIG before a block would pass it */
	unsigned plain;      /* BZ2_PLAIN_* bits: decode-stage paths kept plain (0: all fast) */
};

/* Called per block with its decoded bytes (valid until it returns) and its
 * stage ticks; a nonzero return stops decoding and is returned. */
typedef int (*bz2_block_sink)(void *ctx, unsigned block, const uint8_t *out, size_t bytes,
			      const struct bz2_stage_ticks *ticks);

/* Decode every stream of in[0..len). 0; -1 for bad input (e filled);
 * -ENOMEM; -EFBIG past o->max_output_bytes; or the sink's nonzero return. */
int bz2_decode(const uint8_t *in, size_t len, const struct bz2_decode_opts *o, bz2_block_sink sink, void *ctx,
	       struct bz2_walk_ticks *walk, struct bz2_error *e);

/* For block-parallel decoding (lbzip2's way): every bit offset where the
 * 48-bit block magic occurs, ascending, in a malloc'd array (*count
 * entries; NULL and -ENOMEM on failure). A match inside compressed data is
 * possible (about 2^-48 per bit), so the caller chains the blocks from the
 * stream header by their end offsets and keeps only those on the chain. */
uint64_t *bz2_scan_blocks(const uint8_t *in, size_t len, size_t *count);
/* For tests: false scans with the baseline ISA's vectors where the CPU
 * also has AVX2 (true unless set). */
extern bool bz2_scan_wide;
/* For tests: how long bunzip2.h's decode waits for one block while its
 * workers are bound to CPUs before it lets them go (100 unless set). */
extern unsigned bunzip2_bound_wait_ms;

/* A decoder's own buffers (one per worker). */
struct bz2_decoder;
struct bz2_decoder *bz2_decoder_new(void);
/* Where a decoder's T-vectors (the walk's 3.6 MB of random reads) come
 * from when the instrument chooses their pages, so translation is an axis
 * (exp/app/bzip2_tables.c maps them in arenas whose backing it reads
 * back): map gives bytes for T-vector `which` (0 the decoder's, 1 the
 * scout's second) or NULL; release gives back all it mapped, once, when
 * the decoder is freed (or fails to be made). */
struct bz2_table_mapper {
	uint32_t *(*map)(void *ctx, unsigned which, size_t bytes);
	void (*release)(void *ctx);
	void *ctx;
};
/* The same with its T-vectors from m (bz2_decoder_new's are malloc'd,
 * whatever the allocator and THP give). NULL when memory ran out. */
struct bz2_decoder *bz2_decoder_new_mapped(const struct bz2_table_mapper *m);
/* The mapper's ctx (NULL for the other decoders). */
void *bz2_decoder_mapper_ctx(const struct bz2_decoder *d);
/* A decoder with the T-vector and its block buffers (the column and the
 * walk's text: 5.4 MB in all) in 2 MiB pages faulted in now, their backing
 * advised and not verified: one that lives for a whole file takes no page
 * fault in its blocks (the production decoder, bunzip2.h). NULL when
 * memory ran out. */
struct bz2_decoder *bz2_decoder_new_resident(void);
/* The scout's second slot (BZ2_OVERLAP_SCOUT), made now rather than in the
 * first decode: its T-vector from the mapper when the first came from one
 * (pre-faulted before any clock). 0 or -ENOMEM. */
int bz2_decoder_scout_ready(struct bz2_decoder *d);
void bz2_decoder_free(struct bz2_decoder *d);

/* Exchange d's output buffer (what bz2_decode_block_at's result points
 * into) with *buf of *cap bytes (NULL, 0: none; the next block allocates
 * one): a caller that keeps each block's bytes past the next decode takes
 * the buffer instead of copying it out. d allocates with malloc and frees
 * what it holds at bz2_decoder_free; a buffer of the caller's own kind
 * (a pagebuf) is swapped back out first. A bounded decoder (below) keeps
 * a buffer of at least its bound and allocates none. */
void bz2_decoder_swap_output(struct bz2_decoder *d, uint8_t **buf, size_t *cap);
/* A resident decoder's T-vector (BZ2_MAX_BLOCK_BYTES * 4 bytes), which
 * holds nothing once a block's walk has ended: a caller that writes each
 * block out before its next decode lends it back as the output buffer
 * (swapped out again before bz2_decoder_free) and needs none of its own.
 * NULL for the other decoders. */
uint8_t *bz2_decoder_table_bytes(struct bz2_decoder *d);
/* fn(ctx) is called once each block's body is decoded, before its
 * T-vector is first written (bz2_decode_block_at and the in-order flows;
 * the overlaps do not call it; NULL: none): a caller
 * whose output buffer is the T-vector (bz2_decoder_table_bytes) gets the
 * previous block's bytes out of it there, while the decode of this one
 * has already run. */
void bz2_decoder_before_table(struct bz2_decoder *d, void (*fn)(void *ctx), void *ctx);
/* A resident decoder's bytes that no decode touches: the rest of its last
 * huge page, faulted in with the others (*bytes of them, about 720 KB). A
 * caller copies a block's input there and pays no page faults for it.
 * NULL and 0 for the other decoders. */
uint8_t *bz2_decoder_spare_bytes(struct bz2_decoder *d, size_t *bytes);

/* Bound d's output buffer to `bytes` (0: none; at least one block's
 * 900,000 bytes before the run-length stage): bz2_decode_block_at then
 * hands a block that expands past it back unexpanded (bz2_block_result's
 * packed), its CRC checked through the buffer in pieces, so a block of one
 * long run (46 MB) holds no more memory than any other. The decode flows
 * (bz2_decode*) ignore it. */
void bz2_decoder_bound_output(struct bz2_decoder *d, size_t bytes);
/* The piece a bounded decoder expands for its CRC: small enough to stay
 * in a core's L2 between the expansion and the CRC. */
#define BZ2_PIECE_BYTES ((size_t)256 << 10)

/* bz2_decode with d's buffers (bz2_decoder_new), kept for the next call:
 * the fuzz target's inputs would otherwise pay ~5 MB of allocation each,
 * which under ASan costs more than most decodes. Same returns. */
int bz2_decode_with(struct bz2_decoder *d, const uint8_t *in, size_t len, const struct bz2_decode_opts *o,
		    bz2_block_sink sink, void *ctx, struct bz2_walk_ticks *walk, struct bz2_error *e);

struct bz2_block_result {
	const uint8_t *out;   /* the block's bytes, valid until the next call */
	size_t out_cap;       /* the allocated size of the buffer out points into */
	size_t bytes;
	/* Nonzero only under bz2_decoder_bound_output: out holds the block's
	 * `packed` bytes before its run-length stage, which expand (with
	 * bz2_rle_decode_piece) to its `bytes`, CRC already checked. */
	size_t packed;
	uint32_t crc;         /* checked against the stored one */
	uint64_t end_bit;     /* where the next magic must start */
	uint32_t nblock;      /* for the caller's check against the level */
};

/* Decode the block whose magic starts at magic_bit (block_no names it in
 * errors; plain: BZ2_PLAIN_* bits). 0, -1 with e filled, or -ENOMEM. */
int bz2_decode_block_at(struct bz2_decoder *d, const uint8_t *in, size_t len, uint64_t magic_bit, unsigned block_no,
			const struct bz2_walk_opts *w, unsigned plain, struct bz2_block_result *r,
			struct bz2_error *e);

#endif
