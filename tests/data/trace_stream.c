/*
 * Trace subject for test_trace.c: a sequential stream. 32768 longs (256 KiB)
 * written once, then summed 4 times front to back: consecutive lines step
 * by one, eight 8-byte loads share each line, and a line comes back only
 * after the whole array has gone by.
 * Plain C, no libc calls in the loops, so lackey's trace is mostly the sweep.
 */
#define ELEMS 32768
#define PASSES 4

static long data[ELEMS];
static volatile long sink;

int main(void)
{
	long sum = 0;

	for (long i = 0; i < ELEMS; i++)
		data[i] = i;
	for (int pass = 0; pass < PASSES; pass++)
		for (long i = 0; i < ELEMS; i++)
			sum += data[i];
	sink = sum;
	return 0;
}
