/*
 * deploy/: the Slurm batch script run for real on a one-host cluster
 * (tests/fleet/slurm.sh: munged, slurmctld and slurmd started and stopped by
 * pid, no mock of sbatch), and the Kubernetes manifests parsed with a YAML
 * parser and held to what README's "Many machines" promises
 * (tests/fleet/check_kubernetes.py), each promise shown to fail when broken.
 * The Slurm check runs the binary and three daemons; it SKIPs, saying why,
 * without slurm-wlm, munge or root.
 */
#include "../harness.h"
#include "../spawn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs cmd with sh from the repository root: its exit status, and the
 * last outlen - 1 bytes of its stdout and stderr (the verdict and the logs
 * come last) in out. */
static int run_tail(const char *cmd, char *out, size_t outlen)
{
	char shell[] = "/bin/sh", dash_c[] = "-c", *argv[] = { shell, dash_c, (char *)cmd, NULL };
	struct test_run r;

	out[0] = 0;
	if (test_run(argv, true, &r))
		return -1;
	snprintf(out, outlen, "%s", r.out + (r.len >= outlen ? r.len - (outlen - 1) : 0));
	free(r.out);
	return r.status;
}

TEST(deploy_slurm_runs_the_batch_script_on_a_real_cluster, NEEDS_HOST | NEEDS_BINARY | NEEDS_PROGRAMS)
{
	char cmd[4200], out[4096];
	int rc;

	snprintf(cmd, sizeof(cmd), "tests/fleet/slurm.sh '%s/mlpscope'", test_bin_dir());
	rc = run_tail(cmd, out, sizeof(out));
	if (rc == 77) {
		char *line = strstr(out, "SKIP slurm: ");

		SKIP("%.400s", line ? line + 5 : out);
	}
	CHECK(rc == 0, "tests/fleet/slurm.sh: exit %d\n%s", rc, out);
	CHECK(strstr(out, "slurm: passed in "), "no verdict:\n%s", out);
}

/* A python3 that imports yaml, or NULL: PATH's first, else the system's
 * (where tools/deps.sh installs python3-yaml). */
static const char *python_with_yaml(void)
{
	static const char *const candidates[] = { "python3", "/usr/bin/python3" };

	for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
		char cmd[256];

		snprintf(cmd, sizeof(cmd), "%s -c 'import yaml' >/dev/null 2>&1", candidates[i]);
		if (system(cmd) == 0)
			return candidates[i];
	}
	return NULL;
}

TEST(deploy_kubernetes_manifests_keep_the_readmes_promises, NEEDS_PROGRAMS)
{
	/* each edit breaks one promise; the checker must name it */
	static const struct {
		const char *sed, *says;
	} broken[] = {
		{ "s/privileged: false/privileged: true/", "privileged" },
		{ "s/allowPrivilegeEscalation: false/allowPrivilegeEscalation: true/", "privilege escalation" },
		{ "s/readOnlyRootFilesystem: true/readOnlyRootFilesystem: false/", "writable root" },
		{ "s/drop: \\[\"ALL\"\\]/drop: [\"NET_RAW\"]/", "capabilities" },
		{ "s/runAsNonRoot: true/runAsNonRoot: false/", "root" },
		{ "s/type: RuntimeDefault/type: Unconfined/", "seccomp" },
		{ "0,/memory: 2Gi/s//memory: 1Gi/", "not a Guaranteed pod" },
		{ "s/cpu: \"2\"/cpu: 1500m/", "whole number of CPUs" },
		{ "s/\"17 3 \\* \\* \\*\"/\"17 4 * * *\"/", "schedule" },
		{ "s|path: /var/lib/node_exporter/textfile_collector|path: /var/tmp/textfile|", "hostPath" },
		{ "s|/textfile/mlpscope.prom|/tmp/mlpscope.prom|", "--prom" },
		{ "s|^\\( *\\)type: Directory|&\\n\\1type: Directory\\n          - name: root\\n            hostPath:\\n              path: /|",
		  "2 hostPath volumes" },
		{ "s/values: \\[\"node-a\"\\]/values: [\"node-b\"]/", "node" },
	};
	const char *py = python_with_yaml();
	char dir[64], cmd[8192], out[8192], line[128];
	size_t used;
	int rc;

	if (!py)
		SKIP("no python3 imports yaml: python3-yaml is not installed (tools/deps.sh --test installs it)");
	test_scratch_make(dir, sizeof(dir), "kube");
	CHECK(dir[0], "mkdtemp");
	used = (size_t)snprintf(cmd, sizeof(cmd),
				"deploy/kubernetes/cronjobs.sh node-a w1.example.com > %s/full.yaml && "
				"MLPSCOPE_MODE=quick deploy/kubernetes/cronjobs.sh node-a > %s/quick.yaml",
				dir, dir);
	for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]) && used < sizeof(cmd); i++)
		used += (size_t)snprintf(cmd + used, sizeof(cmd) - used,
					 " && sed '%s' %s/full.yaml > %s/broken%zu.yaml && ! cmp -s %s/full.yaml %s/broken%zu.yaml",
					 broken[i].sed, dir, dir, i, dir, dir, i);
	CHECK(used < sizeof(cmd) && run_tail(cmd, out, sizeof(out)) == 0, "cronjobs.sh or an edit: %s", out);
	/* one parser run for all: the good ones, then each broken one */
	used = (size_t)snprintf(cmd, sizeof(cmd),
				"%s tests/fleet/check_kubernetes.py README.md deploy/kubernetes/Containerfile "
				"%s/full.yaml:node-a,w1.example.com %s/quick.yaml:node-a:quick",
				py, dir, dir);
	for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]) && used < sizeof(cmd); i++)
		used += (size_t)snprintf(cmd + used, sizeof(cmd) - used, " %s/broken%zu.yaml:node-a,w1.example.com", dir, i);
	rc = run_tail(cmd, out, sizeof(out));
	CHECK(rc == 1, "the broken manifests passed, or the checker failed (%d):\n%s", rc, out);
	CHECK(strstr(out, "deploy/kubernetes/Containerfile: ok\n"), "the Containerfile:\n%s", out);
	snprintf(line, sizeof(line), "%s/full.yaml: ok\n", dir);
	CHECK(strstr(out, line), "the manifests break a promise:\n%s", out);
	snprintf(line, sizeof(line), "%s/quick.yaml: ok\n", dir);
	CHECK(strstr(out, line), "MLPSCOPE_MODE=quick:\n%s", out);
	for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
		const char *verdict;

		snprintf(line, sizeof(line), "%s/broken%zu.yaml: ", dir, i);
		verdict = strstr(out, line);
		CHECK(verdict && strncmp(verdict + strlen(line), "ok\n", 3) &&
			      strstr(verdict, broken[i].says) < strchr(verdict, '\n') && strstr(verdict, broken[i].says),
		      "'%s' passed or was not named:\n%.300s", broken[i].sed, verdict ? verdict : out);
	}
	/* and the generator refuses what is no node name or mode */
	CHECK(run_tail("deploy/kubernetes/cronjobs.sh 'Bad_Node'", out, sizeof(out)) == 2 && strstr(out, "Bad_Node"),
	      "%s", out);
	CHECK(run_tail("MLPSCOPE_MODE=fast deploy/kubernetes/cronjobs.sh n1", out, sizeof(out)) == 2 &&
		      strstr(out, "MLPSCOPE_MODE"),
	      "%s", out);
	test_scratch_remove(dir, "kube");
}
