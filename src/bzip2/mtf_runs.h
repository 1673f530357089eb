/*
 * The second pass of symbols_split.c's decode, written once and compiled
 * once per form of the MTF list: symbols_split.c includes this file with
 * MTF_RUNS_NAME (the block loop's name; NAME_lane its BZ2_DECODE_LANE
 * form), MTF_RUNS_ATTR (their attributes: a
 * target ISA), MTF_LIST (the list's type), MTF_LOCALS / MTF_SAVE (the
 * list's register part in and out of locals), MTF_FRONT() and
 * MTF_MOVE(i) and MTF_FILL(p) (MTF_FILL_BYTES copies of the front byte
 * at p) defined, which it undefines again (the next form defines its own).
 * Included without them it declares nothing.
 *
 * A group's symbols take two loops. The first folds each RUNA/RUNB into
 * the run it spells and keeps each byte symbol with the run before it,
 * the same instructions for either kind: which one it is, a guess the
 * predictor cannot make on text (the one-pass loop lost most of its time
 * there), is blended with selects instead of a branch. The second takes
 * the bytes alone: it flushes the pending run, then moves the index to the
 * front, so the list's chain (a permute a step) runs once a byte, not once
 * a symbol (run digits are 43% of the symbols on text, 27% on machine
 * code, and each moved index 0 through it). The run is
 * written as one store of MTF_FILL_BYTES copies of the front byte (8 from a
 * word, 16 from a vector) whatever its length up to that, and by memset
 * only when longer; the column has BZ2_BWT_SLACK bytes
 * past the block for the store's tail and for the byte a run symbol
 * writes and does not keep. The runs form (NAME_runs) writes no column:
 * each byte symbol ends the front byte's run, written as one entry of its
 * length (the byte symbol that began it and the run digits after) and
 * added to its count; text's 900 kB blocks are 150,000-220,000 entries.
 *
 * The lane form takes the next group's Huffman lookups (huff_lane) between
 * this group's steps; the two-pass form decodes each group whole before
 * its loop. All four are compiled from one body, with_lane and with_runs
 * constants in each, so the two-pass column loop carries no test of either.
 */
#ifdef MTF_RUNS_NAME

#define MTF_CAT_(a, b) a##b
#define MTF_CAT(a, b) MTF_CAT_(a, b)

static inline __attribute__((always_inline)) MTF_RUNS_ATTR int
MTF_CAT(MTF_RUNS_NAME, _body)(const struct split *sp, struct mtf_runs *r, MTF_LIST *list, const bool with_lane,
			      const bool with_runs)
{
	uint8_t *out = r->out;
	uint16_t *runs = r->runs;
	uint32_t *counts = r->counts;
	uint32_t n = 0, run = 0, weight = 1, nruns = 0, one = 0;
	const uint32_t max_block = r->max_block;
	uint64_t pace_at = sp->pace ? 0 : UINT64_MAX;
	MTF_LOCALS;
	/* Runs form: the byte whose run the next byte symbol ends (the front;
	 * a byte symbol's own byte is always another). */
	uint32_t prev = MTF_FRONT();

	uint16_t syms[2][BZ2_GROUP_SYMBOLS + 2];
	uint64_t next_start = 0;
	int next_rc = group_next(sp, 0, syms[0], &next_start);

	for (uint32_t group = 0;; group++) {
		const uint16_t *cur = syms[group & 1];
		uint64_t start = next_start;
		int rc = next_rc;
		unsigned k = (unsigned)rc & GROUP_COUNT, m = 0;
		uint32_t lits[BZ2_GROUP_SYMBOLS + 1], run0 = run, weight0 = weight, too_long = 0;
		struct huff_lane lane = {.rc = 0};

		if (rc < 0)
			return -1;
		if (with_lane && !(rc & GROUP_EOB))
			lane = lane_begin(sp, group + 1, syms[(group + 1) & 1], &next_start, &next_rc);
		/* RUNA adds the weight, RUNB twice it: a bijective base-2
		 * number, least significant digit first. Each byte symbol is
		 * kept with the run before it (run << 9 | index); run symbols
		 * leave the list alone and are folded here, off its chain.
		 * Masks, not ?: (which compilers turn back into the branch
		 * this loop exists to avoid); every symbol writes lits[m] and
		 * only a byte keeps it. */
		for (unsigned i = 0; i < k; i++) {
			uint32_t s = cur[i], lit = s > 1;

			run += (weight << (s & 1)) & (lit - 1);
			/* run stays below 2^22 while this holds, so nothing
			 * wraps before the group is refused. */
			too_long |= run > max_block;
			lits[m] = run << 9 | ((s - 1) & 511);
			m += lit;
			run &= lit - 1;
			weight = ((weight << 1) & (lit - 1)) | lit;
		}
		if (__builtin_expect(too_long, 0))
			return runs_refused(sp, start, cur, k, n, run0, weight0, max_block);
		for (unsigned j = 0; j < m; j++) {
			uint32_t flush = lits[j] >> 9;

			if (__builtin_expect(n + flush + 1 > max_block, 0))
				return split_fail(sp, start, "more bytes than the block size allows");
			if (with_runs) {
				/* The front byte's run ends here: it and the
				 * byte symbol that put it in front (one), then
				 * the list moves. Its count is its run's length. */
				nruns = run_put(runs, nruns, prev, one + flush);
				counts[prev] += one + flush;
				one = 1;
				n += flush + 1;
				prev = MTF_MOVE(lits[j] & 511);
			} else {
				if (__builtin_expect(flush <= MTF_FILL_BYTES, 1))
					MTF_FILL(out + n);
				else
					memset(out + n, MTF_FRONT(), flush);
				n += flush;
				out[n++] = MTF_MOVE(lits[j] & 511);
			}
			/* The previous block's walk, a round of its lanes each
			 * time this decode has emitted as many bytes as the walk
			 * has rows: the walk's misses are in flight while this
			 * loop computes. */
			if (n >= pace_at)
				pace_at = bz2_walk_pace(sp->pace, n + 1);
			if (with_lane && lane.rc == LANE_LIVE)
				lane_step(&lane);
		}
		if (rc & GROUP_EOB) {
			r->n = n, r->run = run;
			if (with_runs) {
				r->nruns = nruns, r->one = one;
				r->prev = (uint8_t)prev;
			}
			MTF_SAVE;
			return split_end(sp, r, MTF_FRONT(), start);
		}
		if (with_lane && lane.rc)
			next_rc = lane_end(sp, lane);
		else if (!with_lane || next_rc == LANE_LIVE)
			next_rc = group_next(sp, group + 1, syms[(group + 1) & 1], &next_start);
	}
}

static MTF_RUNS_ATTR int MTF_RUNS_NAME(const struct split *sp, struct mtf_runs *r, MTF_LIST *list)
{
	return MTF_CAT(MTF_RUNS_NAME, _body)(sp, r, list, false, false);
}

static MTF_RUNS_ATTR int MTF_CAT(MTF_RUNS_NAME, _lane)(const struct split *sp, struct mtf_runs *r, MTF_LIST *list)
{
	return MTF_CAT(MTF_RUNS_NAME, _body)(sp, r, list, true, false);
}

static MTF_RUNS_ATTR int MTF_CAT(MTF_RUNS_NAME, _runs)(const struct split *sp, struct mtf_runs *r, MTF_LIST *list)
{
	return MTF_CAT(MTF_RUNS_NAME, _body)(sp, r, list, false, true);
}

static MTF_RUNS_ATTR int MTF_CAT(MTF_RUNS_NAME, _lane_runs)(const struct split *sp, struct mtf_runs *r,
							   MTF_LIST *list)
{
	return MTF_CAT(MTF_RUNS_NAME, _body)(sp, r, list, true, true);
}

#undef MTF_CAT
#undef MTF_CAT_
#undef MTF_RUNS_NAME
#undef MTF_RUNS_ATTR
#undef MTF_LIST
#undef MTF_LOCALS
#undef MTF_SAVE
#undef MTF_FRONT
#undef MTF_MOVE
#undef MTF_FILL_BYTES
#undef MTF_FILL
#endif
