/*
 * Trace subject for test_trace.c: a pointer chase. 4096 nodes of one 64-byte
 * line each (256 KiB) linked in one random cycle (Sattolo), walked 16 times:
 * every hop's address is the data just loaded, so consecutive lines follow
 * no stride, and each node is reused only after all the others.
 * Plain C, no libc calls in the loops, so lackey's trace is mostly the walk.
 */
#define NODES 4096
#define PASSES 16

struct node {
	struct node *next;
	long pad[7];
};

static struct node nodes[NODES];
static unsigned order[NODES];

int main(void)
{
	unsigned long long x = 88172645463325252ull;
	struct node *p;

	for (unsigned i = 0; i < NODES; i++)
		order[i] = i;
	/* Sattolo: one cycle through every node */
	for (unsigned i = NODES - 1; i > 0; i--) {
		unsigned j, t;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		j = (unsigned)(x % i);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (unsigned i = 0; i < NODES; i++)
		nodes[order[i]].next = &nodes[order[(i + 1) % NODES]];
	p = &nodes[0];
	for (unsigned long i = 0; i < (unsigned long)NODES * PASSES; i++)
		p = p->next;
	return p == &nodes[0] ? 0 : 1;
}
