#!/usr/bin/env python3
"""Checks what README's "Many machines" promises of deploy/kubernetes/, with a
real YAML parser (PyYAML, python3-yaml: tools/deps.sh --test installs it).

  check_kubernetes.py README CONTAINERFILE STREAM:NODE[,NODE...][:quick]...

STREAM is deploy/kubernetes/cronjobs.sh's output for those nodes (with
MLPSCOPE_MODE=quick when :quick). Per node one CronJob pinned to that node
by name, on the schedule README gives; no privileged container, no privilege
escalation, no capability, a read-only root, a non-root user, the runtime's
seccomp profile, no host network, PID or IPC; one hostPath, node_exporter's
textfile directory as README names it, where --prom writes mlpscope.prom;
requests equal to limits in whole CPUs (a Guaranteed pod, alone on its cores
under the static CPU manager). The image runs mlpscope as a non-root user,
built by make from the repository. One line per file, "FILE: ok" or "FILE:
what is wrong; ...", so one run checks many; exit 1 when any is wrong.
"""
import re
import sys

try:
    import yaml
except ImportError:
    print("SKIP kubernetes: PyYAML is not installed (tools/deps.sh --test installs python3-yaml)")
    sys.exit(77)

errors = []


def need(cond, what):
    if not cond:
        errors.append(what)
    return cond


def readme_promises(path):
    """The schedule and textfile directory README's "Many machines" names."""
    text = open(path).read()
    m = re.search(r"^## Many machines\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    if not need(m, "README has no '## Many machines' section"):
        return None, None
    section = m.group(1)
    field = r"[0-9*/,-]+"
    sched = re.search(r"`(%s)`" % " ".join([field] * 5), section)
    path = re.search(r"`(/[^`]*textfile[^`]*)/?`", section)
    need(sched, "README's Many machines names no cron schedule in backquotes")
    need(path, "README's Many machines names no textfile directory in backquotes")
    return sched and sched.group(1), path and path.group(1).rstrip("/")


def check_cronjob(doc, node, schedule, textfile, quick):
    where = "CronJob for %s" % node
    need(doc.get("apiVersion") == "batch/v1" and doc.get("kind") == "CronJob", "%s: not a batch/v1 CronJob" % where)
    spec = doc.get("spec", {})
    need(spec.get("schedule") == schedule, "%s: schedule %r, README says %r" % (where, spec.get("schedule"), schedule))
    need(spec.get("concurrencyPolicy") == "Forbid", "%s: two runs could overlap (concurrencyPolicy)" % where)
    name = doc.get("metadata", {}).get("name", "")
    need(re.fullmatch(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?", name) and len(name) <= 52,
         "%s: name %r is not a CronJob name (DNS label, 52 at most)" % (where, name))
    pod = spec.get("jobTemplate", {}).get("spec", {}).get("template", {}).get("spec", {})
    terms = (pod.get("affinity", {}).get("nodeAffinity", {})
             .get("requiredDuringSchedulingIgnoredDuringExecution", {}).get("nodeSelectorTerms", []))
    pinned = [f for t in terms for f in t.get("matchFields", [])
              if f.get("key") == "metadata.name" and f.get("operator") == "In"]
    need(len(terms) == 1 and len(pinned) == 1 and pinned[0].get("values") == [node],
         "%s: not pinned to its node by name: %r" % (where, terms))
    for host in ("hostNetwork", "hostPID", "hostIPC"):
        need(not pod.get(host), "%s: %s" % (where, host))
    need(pod.get("automountServiceAccountToken") is False, "%s: mounts a service account token" % where)
    psc = pod.get("securityContext", {})
    need(psc.get("runAsNonRoot") is True and psc.get("runAsUser", 0) != 0, "%s: may run as root: %r" % (where, psc))
    need(psc.get("seccompProfile", {}).get("type") == "RuntimeDefault", "%s: no RuntimeDefault seccomp" % where)

    volumes = pod.get("volumes", [])
    host_paths = [v for v in volumes if "hostPath" in v]
    need(len(host_paths) == 1, "%s: %d hostPath volumes, expected the textfile directory alone" % (where, len(host_paths)))
    textfile_vol = None
    for v in host_paths:
        p = v["hostPath"].get("path", "").rstrip("/")
        if need(p == textfile, "%s: hostPath %r, README names %r" % (where, p, textfile)):
            textfile_vol = v.get("name")
    containers = pod.get("containers", []) + pod.get("initContainers", [])
    need(len(pod.get("containers", [])) == 1, "%s: expected one container" % where)
    for c in containers:
        cw = "%s, container %s" % (where, c.get("name"))
        sc = c.get("securityContext", {})
        need(not sc.get("privileged"), "%s: privileged" % cw)
        need(sc.get("allowPrivilegeEscalation") is False, "%s: privilege escalation allowed" % cw)
        need(sc.get("readOnlyRootFilesystem") is True, "%s: writable root filesystem" % cw)
        need("ALL" in sc.get("capabilities", {}).get("drop", []), "%s: capabilities not all dropped" % cw)
        need(not sc.get("capabilities", {}).get("add"), "%s: adds capabilities" % cw)
        need(sc.get("runAsUser", 1) != 0, "%s: runs as root" % cw)
        res = c.get("resources", {})
        req, lim = res.get("requests", {}), res.get("limits", {})
        need(req and req == lim, "%s: requests %r differ from limits %r (not a Guaranteed pod)" % (cw, req, lim))
        need(re.fullmatch(r"[1-9][0-9]*", str(req.get("cpu", ""))),
             "%s: cpu %r is not a whole number of CPUs (no exclusive cores)" % (cw, req.get("cpu")))
        need("memory" in req, "%s: no memory request" % cw)
        mounts = {m.get("name"): m.get("mountPath", "").rstrip("/") for m in c.get("volumeMounts", [])}
        args = [str(a) for a in c.get("args", [])]
        mount = mounts.get(textfile_vol)
        need(mount, "%s: the textfile directory is not mounted" % cw)
        if mount and need("--prom" in args, "%s: no --prom" % cw):
            prom = args[args.index("--prom") + 1] if args.index("--prom") + 1 < len(args) else ""
            need(prom == mount + "/mlpscope.prom", "%s: --prom %r, expected %s/mlpscope.prom" % (cw, prom, mount))
        need(args[:1] == ["report"], "%s: runs %r, not the report" % (cw, args[:1]))
        need(("--quick" in args) == quick, "%s: --quick %s" % (cw, "missing" if quick else "in the full report"))


def check_stream(readme, stream, nodes, quick):
    schedule, textfile = readme_promises(readme)
    docs = [d for d in yaml.safe_load_all(open(stream)) if d is not None]
    need(len(docs) == len(nodes), "%d documents for %d nodes" % (len(docs), len(nodes)))
    by_node = {}
    for d in docs:
        try:
            node = d["spec"]["jobTemplate"]["spec"]["template"]["spec"]["affinity"]["nodeAffinity"][
                "requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"][0]["matchFields"][0]["values"][0]
        except (KeyError, IndexError, TypeError):
            need(False, "a document pinned to no node: %r" % d.get("metadata"))
            continue
        by_node[node] = d
    for node in nodes:
        if need(node in by_node, "no CronJob for node %s" % node):
            check_cronjob(by_node[node], node, schedule, textfile, quick)
    names = [d.get("metadata", {}).get("name") for d in docs]
    need(len(set(names)) == len(names), "two CronJobs share a name: %r" % names)


def check_containerfile(path):
    lines = [l.strip() for l in open(path) if l.strip() and not l.lstrip().startswith("#")]
    stages = [i for i, l in enumerate(lines) if l.upper().startswith("FROM ")]
    need(len(stages) >= 2, "%s: not a build stage and an image stage" % path)
    final = lines[stages[-1]:] if stages else []
    build = lines[:stages[-1]] if stages else lines
    need(any(l.startswith("RUN ") and "make" in l for l in build), "%s: the build stage runs no make" % path)
    need(any(l.startswith("COPY --from=") and "mlpscope" in l for l in final), "%s: the image copies no binary" % path)
    users = [l.split(None, 1)[1] for l in final if l.upper().startswith("USER ")]
    need(users and users[-1].split(":")[0] not in ("0", "root"), "%s: the image runs as root" % path)
    need(any(l.startswith("ENTRYPOINT") and "mlpscope" in l for l in final), "%s: the entrypoint is not mlpscope" % path)


def main(argv):
    global errors
    if len(argv) < 4:
        print(__doc__)
        return 2
    readme, containerfile, specs = argv[1], argv[2], argv[3:]
    verdicts = []
    check_containerfile(containerfile)
    verdicts.append((containerfile, errors))
    for spec in specs:
        parts = spec.split(":")
        errors = []
        if len(parts) < 2:
            verdicts.append((spec, ["expected STREAM:NODE[,NODE...][:quick]"]))
            continue
        try:
            check_stream(readme, parts[0], parts[1].split(","), parts[2:] == ["quick"])
        except (OSError, yaml.YAMLError) as e:
            errors.append("unreadable: %s" % str(e).replace("\n", " "))
        verdicts.append((parts[0], errors))
    for name, errs in verdicts:
        print("%s: %s" % (name, "; ".join(errs) if errs else "ok"))
    return 1 if any(errs for _, errs in verdicts) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
