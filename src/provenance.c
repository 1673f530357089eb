/*
 * Collects what ties a result to the exact binary and machine state that
 * produced it. The compiler flags come from the build (buildinfo.h is written
 * by the Makefile), the source revision likewise (revision.h); the hash is of
 * /proc/self/exe and the build id is read from the loaded program's notes,
 * i.e. both name what actually ran.
 */
#include "provenance.h"

#include "arch/arch.h"
#include "buildinfo.h"
#include "core/coretype.h"
#include "core/host.h"
#include "revision.h"
#include "util/build_id.h"
#include "util/sha256.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

const char *provenance_version(void)
{
	return MLPSCOPE_VERSION;
}

void provenance_collect(struct provenance *p, uint64_t seed, int cpu)
{
	static struct coretype_map types;
	const char *type;
	struct utsname u;
	char exe[64];
	time_t now = time(NULL);
	struct tm tm;

	memset(p, 0, sizeof(*p));
	host_self_path("exe", exe, sizeof(exe));
	if (sha256_file_hex(exe, p->binary_sha256))
		snprintf(p->binary_sha256, sizeof(p->binary_sha256), "unavailable");
#if defined(__clang__)
	snprintf(p->compiler, sizeof(p->compiler), "clang %s", __clang_version__);
#elif defined(__GNUC__)
	snprintf(p->compiler, sizeof(p->compiler), "gcc %s", __VERSION__);
#else
	snprintf(p->compiler, sizeof(p->compiler), "unknown");
#endif
	p->cflags = MLPSCOPE_CFLAGS;
	if (build_id_self(p->build_id, sizeof(p->build_id)))
		p->build_id[0] = 0;
	p->source_revision = MLPSCOPE_SOURCE_REVISION;
	p->source_dirty = MLPSCOPE_SOURCE_DIRTY;
	if (uname(&u) == 0)
		snprintf(p->kernel, sizeof(p->kernel), "%s %s %s", u.sysname, u.release, u.machine);
	gmtime_r(&now, &tm);
	strftime(p->timestamp_utc, sizeof(p->timestamp_utc), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(p->arch, sizeof(p->arch), "%s", arch_name());
	p->seed = seed;
	p->core_type_count = coretype_read(&types);
	type = coretype_of_cpu(&types, cpu);
	snprintf(p->cpu_pinned_type, sizeof(p->cpu_pinned_type), "%s", type ? type : "");
}
